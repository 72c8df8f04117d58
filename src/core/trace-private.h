/* trace-private.h - what the reader and the slices need to know about a
 * trace (internal: not part of the public API). */
#ifndef TRACENAV_CORE_TRACE_PRIVATE_H
#define TRACENAV_CORE_TRACE_PRIVATE_H

#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/trace.h"

/* A group is one src.ctf.fs component: the directories of one trace
 * (same UUID), read together. */
size_t tn_trace_get_group_count(const struct tn_trace *trace);
size_t tn_trace_get_group_dir_count(const struct tn_trace *trace,
		size_t group);
const char *tn_trace_get_group_dir(const struct tn_trace *trace,
		size_t group, size_t index);

/* The transform of group's host under tn_trace_set_sync(), or NULL
 * (no correction, or the host keeps its clock). */
const struct tn_sync_transform *tn_trace_get_group_transform(
		const struct tn_trace *trace, size_t group);

/* The group of trace directory `index` (as tn_trace_get_dir()): every
 * directory read is in one. */
size_t tn_trace_group_of_dir(const struct tn_trace *trace, size_t index);

/* The directory libbabeltrace2 reads for trace directory `index` (as
 * tn_trace_get_dir()), or for directory `index` of group `group`: the
 * directory itself, or its private stand-in when the trace has stream
 * files that libbabeltrace2 cannot read as they are (repair.h).  What
 * readers, slices and queries read; tn_trace_get_dir() is what the user
 * knows (and the cache and marks are keyed by). */
const char *tn_trace_get_read_dir(const struct tn_trace *trace,
		size_t index);
const char *tn_trace_get_group_read_dir(const struct tn_trace *trace,
		size_t group, size_t index);

/* Before a reader or a slice reads the stand-ins: grow the packets kept
 * of repaired stream files over what was written to them since the
 * trace opened (repair.h), so that libbabeltrace2 reads the trace as
 * it was opened.  Nothing without stand-ins.  Any thread. */
void tn_trace_refresh_read_dirs(const struct tn_trace *trace);

/* A number that changes when a refresh found a repaired stream file
 * grown (tn_repair_get_generation(), repair.h): a reader on a slice
 * that failed while it changed is to be made again, with a new slice.
 * Any thread. */
uint64_t tn_trace_get_read_generation(const struct tn_trace *trace);

/* The clock of the streams of trace directory `index` (as
 * tn_trace_get_dir()), for converting times to the cycles of its packet
 * indexes.  clock->name is NULL.  false if none of its streams has a
 * clock. */
bool tn_trace_get_dir_clock(const struct tn_trace *trace, size_t index,
		struct tn_clock_info *clock);

/* The name babeltrace2's CLI gives group's trace after the path the
 * user gave ("trace-name" of src.ctf.fs): a trace alone in its
 * directory below that path is named after the directory, relative to
 * the path ("host0/kernel"); else NULL: a trace at the path itself, or
 * in several directories, keeps its metadata's name (its hostname). */
const char *tn_trace_get_group_name_suffix(const struct tn_trace *trace,
		size_t group);

/* Trace directory index (as tn_trace_get_dir()) of the directory
 * tn_trace_get_group_dir(trace, group, index). */
size_t tn_trace_get_group_dir_index(const struct tn_trace *trace,
		size_t group, size_t index);

/* Whether any stream of the trace has a clock: without one, every event
 * is at time 0 and positions count from the start. */
bool tn_trace_has_clock(const struct tn_trace *trace);

/* Whether libbabeltrace2 2.0's trimmer (flt.utils.trimmer) can be given
 * this trace: every stream class has a clock, and packets and
 * discarded-item notices with clock snapshots wherever it has them.  It
 * crashes or fails on the others (packets without times). */
bool tn_trace_can_trim(const struct tn_trace *trace);

struct tn_reader;

/* The packet tables given by tn_trace_set_packet_tables(), or NULL.
 * The caller reads them while the trace's user keeps them alive (see
 * there).  Any thread. */
const struct tn_packet_tables *tn_trace_borrow_packet_tables(
		const struct tn_trace *trace);

/* A reader at the very start of the trace (no bounds, no slice), made
 * while the trace opened, or NULL if it was taken already.  The caller
 * owns it.  Safe to call from any thread. */
struct tn_reader *tn_trace_take_start_reader(const struct tn_trace *trace);

/* A reader of trace saw the times of stream file name (a path, maybe a
 * slice's link to it) go back by up to by_ns, at events event_times
 * (int64_t pairs: an event's time and its stream's latest before it;
 * the same events seen by several reads are counted once): kept for
 * tn_trace_describe_steps().  Any thread. */
void tn_trace_note_step(const struct tn_trace *trace, const char *name,
		int64_t by_ns, const GArray *event_times);

/* Run src.ctf.fs's query `object` with params in a child process, as
 * the trace's own queries run (libbabeltrace2 2.0.4 aborts the process
 * on some failures of its queries, and loops for ever on some inputs:
 * see trace.c); the child is killed after timeout_ms.  Returns 0 with
 * *result (the caller puts its reference), or -1 with err; *crash_signal
 * is the signal that ended the child (SIGKILL when it ran out of time),
 * or 0. */
int tn_trace_query_ctf_fs(const char *object, const bt_value *params,
		uint64_t timeout_ms, const bt_value **result, int *crash_signal,
		struct tn_error *err);

#endif
