/* trace-object.h - the fields of a trace and the functions that the
 * files making it share (internal: not part of the public API).
 *
 * A trace opens in steps, a file each, each one below the next:
 * trace-dirs.c finds the trace directories under the path; trace-open.c
 * checks their metadata, groups them and opens them, leaving out or
 * repairing what libbabeltrace2 cannot read (repair.h); trace-probe.c
 * reads the first messages through a reader (reader.h) for what the
 * metadata says, and the time range; trace-range.c answers the range's
 * queries; trace.c makes, frees and reads the trace object, which the
 * reader and the slices read through trace-private.h.
 */
#ifndef TRACENAV_CORE_TRACE_OBJECT_H
#define TRACENAV_CORE_TRACE_OBJECT_H

#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctf-query.h"
#include "repair.h"
#include "tracenav/error.h"
#include "tracenav/trace.h"

struct trace_group {
	char *key;		/* UUID, or the directory when there is none */
	GPtrArray *dirs;	/* char * */
	GArray *indexes;	/* size_t: tn_trace_get_dir() index of each */
};

/* What changes after the trace opened, from any thread, through a const
 * trace: kept apart, so that no const is cast away, and atomic. */
struct trace_infos;
struct tn_metadata_facts;

/* The packets' time range of the trace. */
struct trace_range {
	bool has;
	int64_t begin_ns, end_ns;
};

struct trace_shared {
	/* The probe's reader, rewound, for the first reader from the start
	 * (see tn_trace_take_start_reader()). */
	_Atomic(struct tn_reader *) start_reader;
	/* See tn_trace_set_packet_tables(). */
	_Atomic(const struct tn_packet_tables *) packet_tables;
	/* The range, known when the trace opens, or once its trace-infos
	 * queries (pending) answer: the first to ask for it waits for
	 * them, under the lock; opening and reading do not. */
	pthread_mutex_t range_lock;
	struct trace_range range;
	/* The same per group (struct trace_range, tn_trace_get_group_count()
	 * of them once known): each host's range, for a corrected one. */
	GArray *group_ranges;
	_Atomic(struct trace_infos *) pending;
	/* The stream files whose times went back in a read (see
	 * tn_trace_note_step()): real path -> what the reads saw (struct
	 * stream_steps of trace.c; tn_trace_stream_steps_free()), under
	 * steps_lock. */
	pthread_mutex_t steps_lock;
	GHashTable *steps;
};

struct tn_trace {
	char *path;
	GPtrArray *dirs;	/* char *, every trace directory read */
	GPtrArray *groups;	/* struct trace_group * */
	GPtrArray *infos;	/* struct tn_trace_info * */
	GPtrArray *left_out;	/* struct left_out *: unreadable directories */
	GHashTable *dir_clocks;	/* trace directory -> struct tn_clock_info * */
	/* Each directory of dirs, and its real path (src.ctf.fs names
	 * streams after it) -> its real path: found once when the trace
	 * opens, not once per stream. */
	GHashTable *real_dirs;
	struct trace_shared *shared;
	GPtrArray *event_names;	/* char *, sorted, NULL-terminated */
	/* The fields' names (plain, "a.b", "$scope.name"): a set while
	 * the trace opens, then sorted, NULL-terminated. */
	GHashTable *field_set;
	GPtrArray *field_names;
	size_t stream_count;
	bool has_first_event;	/* its time, read by the probe */
	int64_t first_event_ns;
	bool has_clock;		/* some stream has a clock */
	/* The metadata's env names a tracer whose packet indexes
	 * src.ctf.fs fixes up (see tn_trace_probe()). */
	bool fixups_likely;
	/* The probe's query of the range waits to be wanted
	 * (tn_trace_hold_range_queries(); never for --info). */
	bool hold_range_query;
	bool can_trim;		/* see tn_trace_can_trim() */
	/* The stand-ins of the directories and what they leave out
	 * (repair.h): owned once the trace is open, borrowed by the
	 * attempts at opening it. */
	struct tn_repair *repair;
	bool owns_repair;
	GPtrArray *damage;	/* struct damage *: of the directories read */
	/* char *: packet indexes not used, a line per directory */
	GPtrArray *notices;
	/* The clock correction of every reader (tn_trace_set_sync()), or
	 * NULL; then the transform of each group (NULL: its clock is
	 * kept), and the corrected time of the first event. */
	struct tn_sync *sync;
	const struct tn_sync_transform **group_transforms;
	bool has_sync_first_event;
	int64_t sync_first_event_ns;
};

/* What is wrong with a file of the trace and what was done about it. */
struct damage {
	char *file;
	char *text;
	bool incomplete;	/* TN_REPAIR_NOTE_INCOMPLETE */
};

/* A trace directory of the collection that could not be read. */
struct left_out {
	char *dir;
	char *reason;
};

/* The range's trace-infos queries (trace-range.c). */
struct trace_infos {
	struct tn_ctf_query *queries;	/* one a group */
	size_t count;
	struct tn_ctf_query_run *run;	/* started */
};

/* ---- trace-dirs.c ---- */

/* Add the trace directories at or under path to dirs (char *, g_free),
 * in name order, as `babeltrace2 PATH` finds them: a directory holding
 * a `metadata` file is a trace (its subdirectories are not searched);
 * otherwise its subdirectories are. */
void tn_trace_find_dirs(const char *path, GPtrArray *dirs);

/* ---- trace.c ---- */

/* Free what the reads saw of a stream file's steps back (shared->steps'
 * values). */
void tn_trace_stream_steps_free(gpointer data);

/* A new trace object of path, with repair (borrowed until
 * trace->owns_repair), empty. */
struct tn_trace *tn_trace_new(const char *path, struct tn_repair *repair);
void tn_trace_group_free(gpointer data);
void tn_trace_left_out_free(gpointer data);

/* Fill trace->real_dirs in (see there), once its directories are set. */
void tn_trace_find_real_dirs(struct tn_trace *trace);

/* The real path of dir (g_free() it): trace->real_dirs' for one of the
 * trace's directories, else realpath()'s, else dir itself. */
char *tn_trace_real_dir(const struct tn_trace *trace, const char *dir);

/* The key of a trace directory in the tables of clocks (its real path). */
char *tn_trace_dir_key(const struct tn_trace *trace, const char *dir);

/* The value of directory dir in table (keyed by tn_trace_dir_key()), or
 * that of another chunk of dir's group. */
gpointer tn_trace_lookup_dir_or_group(const struct tn_trace *trace,
		GHashTable *table, const char *dir);

/* ---- trace-probe.c ---- */

/* Read the trace's first messages through a reader on its groups: the
 * trace objects (names, environment), clocks, streams, event and field
 * names, the first event's time, and the time range (from the packet
 * indexes, or the trace-infos queries); the reader, rewound, becomes the
 * start reader.  Returns 0, or -1 with err (libbabeltrace2 refused the
 * trace). */
int tn_trace_probe(struct tn_trace *trace, struct tn_error *err);

/* Sort the event names the probe found (NULL-terminated then), and
 * make the set of field names a sorted array. */
void tn_trace_sort_names(struct tn_trace *trace);

/* Whether src.ctf.fs fixes up the packet indexes of a trace of this
 * tracer and version (-1: not given). */
bool tn_trace_tracer_needs_fixups(const char *name, long major, long minor,
		long patch);

/* ---- trace-info.c ---- */

/* What `--info` says of a trace made of one directory whose metadata
 * facts are plain (metadata-check.h), without a reader: the infos, the
 * stream count and the range.  Returns 0, or 1 when it is not such a
 * trace or the query failed: the caller then probes it. */
int tn_trace_probe_info(struct tn_trace *trace,
		const struct tn_metadata_facts *facts);

/* ---- trace-range.c ---- */

/* Widen range with the times begin and end. */
void tn_trace_range_widen(struct trace_range *range, int64_t begin,
		int64_t end);

/* Widen the trace's range, and that of group, with begin and end. */
void tn_trace_range_widen_group(struct trace_shared *shared, size_t group,
		int64_t begin, int64_t end);

/* The trace-infos queries of the trace's groups, started: a child runs
 * them meanwhile; held, it waits for tn_trace_want_time_range() or
 * for the first wait for the range (ctf-query.h). */
struct trace_infos *tn_trace_infos_start(const struct tn_trace *trace,
		bool held);

/* Wait for the queries of ti: the range of the streams they found
 * widens range (a query that failed leaves it without that group's
 * streams), and each group's in shared (NULL: none),  *streams (may be
 * NULL) gets how many streams they found; frees ti.  Returns 0, or -1
 * when a query failed. */
int tn_trace_infos_finish(struct trace_range *range,
		struct trace_shared *shared, struct trace_infos *ti,
		size_t *streams);

/* The range of the groups, each corrected by its transform
 * (trace->group_transforms, tn_trace_set_sync()).  Call under
 * shared->range_lock. */
struct trace_range tn_trace_sync_range(const struct tn_trace *trace);

/* Not needed after all: the queries stopped, ti freed.  NULL-safe. */
void tn_trace_infos_abandon(struct trace_infos *ti);

/* Free ti (its queries ended or never started). */
void tn_trace_infos_free(struct trace_infos *ti);

#endif
