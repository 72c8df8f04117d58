/* trace.h - a trace as the user named it: one CTF trace directory, or a
 * directory holding several (kernel + UST, several hosts, rotations).
 *
 * Opening finds the CTF traces under the path the way `babeltrace2 PATH`
 * does (a directory with a `metadata` file is a trace; traces with the same
 * UUID are parts of one trace and are read together), checks that
 * libbabeltrace2 can read their metadata, and gathers what the metadata
 * says: names, hostnames, environment, streams, clocks and time range.
 * Reading events is the job of tn_reader (reader.h).
 */
#ifndef TRACENAV_TRACE_H
#define TRACENAV_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"

struct tn_trace;

/* One clock class used by a trace's streams. */
struct tn_clock_info {
	char *name;		/* may be NULL */
	uint64_t frequency;	/* Hz */
	int64_t offset_seconds;
	uint64_t offset_cycles;
	bool origin_is_unix_epoch;
};

/* One environment entry of a trace ("hostname" = "box1"). */
struct tn_env_entry {
	char *name;
	char *value;		/* integers are printed in decimal */
};

/* What one trace (one libbabeltrace2 trace object) says about itself. */
struct tn_trace_info {
	char *name;		/* libbabeltrace2's trace name, may be NULL */
	char *hostname;		/* env "hostname", may be NULL */
	char *domain;		/* env "domain" ("kernel", "ust"), may be NULL */
	char *uuid;		/* "xxxxxxxx-...", may be NULL */
	size_t env_count;
	struct tn_env_entry *env;
	size_t stream_count;	/* streams of this trace seen at open */
	size_t clock_count;
	struct tn_clock_info *clocks;
	size_t dir_count;	/* the trace directories it comes from */
	char **dirs;		/* (as tn_trace_get_dir() gives them) */
};

/* Open the trace(s) at path.  Returns 0 and sets *out, or -1 with err
 * naming the path and the cause (no such file, no CTF trace under it,
 * unreadable metadata...).  The caller destroys *out.
 *
 * A collection (several trace directories) is opened as it is first;
 * if that fails, the traces that cannot be read alone (metadata or
 * first packets libbabeltrace2 refuses) are left out and the rest is
 * opened: tn_trace_get_left_out_count() says how many were.  It fails
 * when none of them can be read, or when the rest fails together.  A
 * single trace that cannot be read fails as it is.
 *
 * libbabeltrace2's queries run in a child process (fork), so call it
 * before starting threads that use GLib or libbabeltrace2. */
int tn_trace_open(const char *path, struct tn_trace **out,
		struct tn_error *err);

/* The same for `--info`: a trace that is one directory, whose metadata
 * says its env and clock plainly, is opened without a reader (its
 * infos, streams and time range are all that is known of it: no event
 * is read, the event and field names are empty); any other as
 * tn_trace_open() opens it. */
int tn_trace_open_info(const char *path, struct tn_trace **out,
		struct tn_error *err);

void tn_trace_destroy(struct tn_trace *trace);

struct tn_sync;
struct tn_sync_transform;

/* Correct the clocks of trace's hosts by sync (sync.h; copied), or go
 * back to the recorded times (sync NULL).  Every reader made after it
 * (tn_reader_create(), the slices, walks and passes on it) merges the
 * streams in the order of their corrected times and gives corrected
 * times; the time range and the first event's time are corrected; the
 * packet tables and indexes stay in recorded times (each slice
 * converts its target per host).  Precondition: no reader of trace
 * exists and no other thread uses it (call it right after
 * tn_trace_open()). */
void tn_trace_set_sync(struct tn_trace *trace, const struct tn_sync *sync);

/* The correction set by tn_trace_set_sync(), or NULL. */
const struct tn_sync *tn_trace_get_sync(const struct tn_trace *trace);

/* The path given to tn_trace_open(). */
const char *tn_trace_get_path(const struct tn_trace *trace);

/* The CTF trace directories found under the path and read, in a stable
 * order (those left out are not among them). */
size_t tn_trace_get_dir_count(const struct tn_trace *trace);

/* Bytes of the trace's stream files (every regular file of its
 * directories but the metadata): what a full read decodes, to tell a
 * tiny trace.  Lists the directories (a stat per file). */
uint64_t tn_trace_get_stream_bytes(const struct tn_trace *trace);

/* A stamp of what changes while the trace is written: the sizes of its
 * files (the stream files, their packet indexes in index/, the
 * metadata) and the modification times of its directories and those
 * above them up to its path (a new stream file, trace directory or
 * rotation chunk).  A trace being recorded changed when it differs
 * (follow mode).  A stat per file, cheaper than tn_trace_stamp(). */
uint64_t tn_trace_get_written_stamp(const struct tn_trace *trace);
const char *tn_trace_get_dir(const struct tn_trace *trace, size_t index);

/* The trace directories of a collection that could not be read and
 * were left out, in the same order, each with the reason ("cannot read
 * trace: No stream class with ID ..."), which does not repeat the
 * directory.  index < tn_trace_get_left_out_count(). */
size_t tn_trace_get_left_out_count(const struct tn_trace *trace);
const char *tn_trace_get_left_out_dir(const struct tn_trace *trace,
		size_t index);
const char *tn_trace_get_left_out_reason(const struct tn_trace *trace,
		size_t index);

/* The files of the trace that are read in part or not at all,
 * because libbabeltrace2 could not read them as they are: a stream file that ends inside a packet (a trace
 * still being written, a copy cut short) is read up to its last whole
 * packet; one that cannot be read, or has no whole packet, is skipped.
 * Each with what was found and done ("read up to byte 8192 of 10000:
 * it ends inside its packet 2, ..." or "skipped, its events are
 * missing: ..."), which does not repeat the file.  index <
 * tn_trace_get_damage_count(). */
size_t tn_trace_get_damage_count(const struct tn_trace *trace);
const char *tn_trace_get_damage_file(const struct tn_trace *trace,
		size_t index);
const char *tn_trace_get_damage_text(const struct tn_trace *trace,
		size_t index);
/* Whether that file was read up to its last whole packet, the rest an
 * incomplete packet: what a trace still being written has (follow mode
 * does not call it damage). */
bool tn_trace_get_damage_is_incomplete(const struct tn_trace *trace,
		size_t index);

/* What is said of the trace but misses no event: packet index files
 * that are not used (another tool's format, or entries that do not
 * describe their stream file), every event then read from the stream
 * files themselves.  One line a trace directory, naming it or the
 * file: "DIR: 4 index files not in LTTng's format: indexing from the
 * stream files", "FILE: its packet index is ignored: ...".  index <
 * tn_trace_get_notice_count(). */
size_t tn_trace_get_notice_count(const struct tn_trace *trace);
const char *tn_trace_get_notice(const struct tn_trace *trace, size_t index);

/* The stream files whose times went back in the reads so far (the
 * index's, the event list's), one line each, sorted: "stream file
 * `F`: N events seen going back in time, by up to D ns; its events are
 * read in its own order" (N the distinct events those reads met: all
 * of them once a read of the whole trace did, as the index build's),
 * or "stream file `F`: its packet bounds go back in time (by up to D
 * ns); ..." when no event did; NULL-terminated, the caller's
 * (g_strfreev()).  Any thread. */
char **tn_trace_describe_steps(const struct tn_trace *trace);

/* How many stream files tn_trace_describe_steps() would list now. */
size_t tn_trace_get_step_count(const struct tn_trace *trace);

/* The traces (as libbabeltrace2 sees them) and what their metadata says. */
size_t tn_trace_get_info_count(const struct tn_trace *trace);
const struct tn_trace_info *tn_trace_borrow_info(const struct tn_trace *trace,
		size_t index);

/* The names of the trace's event classes, as its metadata declares
 * them (events read or not), sorted, without duplicates:
 * NULL-terminated, owned by the trace. */
const char *const *tn_trace_get_event_names(const struct tn_trace *trace);

/* The names of the fields of the trace's events, as its metadata
 * declares them: the members of the payload, the contexts and the
 * packet context ("prev_tid"), of their structures ("a.b"), and each
 * under its scope as the filters' expressions name them
 * ("$payload.prev_tid", "$ctx.vtid", "$cctx.", "$sctx.", "$pctx.");
 * sorted, without duplicates, NULL-terminated, owned by the trace. */
const char *const *tn_trace_get_field_names(const struct tn_trace *trace);

/* Total number of streams (one per stream file group). */
size_t tn_trace_get_stream_count(const struct tn_trace *trace);

/* Time range covered by the streams, in ns from origin, from the packet
 * indexes (no event is read).  false if no stream has timestamps. */
bool tn_trace_get_time_range(const struct tn_trace *trace, int64_t *begin_ns,
		int64_t *end_ns);

/* The same without waiting: while the query that finds the range (a
 * child process, trace-range.c) is still under way, false with *pending
 * true; else as tn_trace_get_time_range(), *pending false.  Does not
 * wait for a query under way: for the event list's first screen (only
 * when the query's child crashed does it wait, for the queries it left,
 * which run again). */
bool tn_trace_peek_time_range(const struct tn_trace *trace,
		int64_t *begin_ns, int64_t *end_ns, bool *pending);

/* Whether the traces opened from now on hold the query that finds
 * their range (when the packet indexes do not give it) until this is
 * called, or until tn_trace_get_time_range() waits for it; off at
 * first.  The event list holds them: its first screen needs no range,
 * and the query's process would take a processor from it.  A batch run
 * does not: its commands often want the range, which the query then
 * finds while the trace opens. */
void tn_trace_hold_range_queries(bool hold);
void tn_trace_want_time_range(const struct tn_trace *trace);

/* Whether tn_trace_peek_time_range() would still say pending.  Reads
 * nothing and never blocks (the peek itself reads the query's answer,
 * and runs the queries a crashed child left again): for the UI thread,
 * to know when to ask again from a job. */
bool tn_trace_time_range_pending(const struct tn_trace *trace);

/* The time of the trace's first event, in ns from origin, read when the
 * trace opened: known even when the packets carry no times.  false if
 * the trace has no event or its first event has no timestamp. */
bool tn_trace_get_first_event_time(const struct tn_trace *trace,
		int64_t *ns);

/* A stamp of the trace's files as they are now (every file under its
 * directories: names, sizes, modification times): two stamps differ
 * when a file was written, added or removed between them, as when the
 * trace is still being written.  A stat per file. */
uint64_t tn_trace_stamp(const struct tn_trace *trace);

struct tn_packet_tables;

/* Give the trace the packet tables of its stream files without a packet
 * index (packets.h; usually tn_index_borrow_packet_tables() of its
 * index), from which fast seeks synthesise packet indexes; NULL clears.
 * The pointer is swapped atomically, from any thread: set it once the
 * tables are complete, and clear it (or replace it) before destroying
 * them.  The trace does not own them. */
void tn_trace_set_packet_tables(const struct tn_trace *trace,
		const struct tn_packet_tables *tables);

#endif
