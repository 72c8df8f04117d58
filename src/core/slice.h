/* slice.h - a sliced view of a trace that starts near a time, for fast
 * seeks (internal: not part of the public API).
 *
 * libbabeltrace2 2.0's src.ctf.fs can only seek by reading from the
 * beginning.  A slice is a private directory per trace directory with a
 * symlink to its metadata and stream files and, in index/, the packet
 * index entries from the first one (per stream) that ends at or after
 * the target time; the first kept entry's packet_size grows by the bytes
 * skipped, so the sizes still add up to the file size.  src.ctf.fs reads
 * packets in index order, so a reader opened on the slice decodes at
 * most the target's packet of every stream before the target.  Every
 * event after tn_slice_get_complete_after() is in the view, with the
 * discarded-item notices that a full read has between them (slice.c
 * says why).  With TN_SLICE_KEEP_PREVIOUS the view starts one packet
 * earlier in every stream, so that the notices at the target itself are
 * those of a full read as well (src.ctf.fs reports a first packet's
 * nonzero counter as a notice of its own).
 *
 * Where it stands: the slice reads the trace's directories and clocks
 * (trace-private.h), the packet index files or, for stream files
 * without one, the packet tables (packets.h) from which it synthesises
 * one (ctf-index.h).  Walks (seek.c) and the index build read a slice
 * through a reader on its directories (tn_reader_create_on_dirs()); the
 * reader itself knows nothing of slices.
 */
#ifndef TRACENAV_CORE_SLICE_H
#define TRACENAV_CORE_SLICE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/trace.h"

struct tn_slice;

enum tn_slice_flags {
	/* Keep the packet before the first one that matters, per stream:
	 * the notices at the target are then those of a full read. */
	TN_SLICE_KEEP_PREVIOUS = 1 << 0,
	/* Never synthesise a packet index from the trace's packet tables:
	 * only traces with packet index files can be sliced. */
	TN_SLICE_INDEX_FILES_ONLY = 1 << 1,
};

/* Make a slice of trace starting at target_ns, with flags (enum
 * tn_slice_flags, or 0).  Returns 0, or -1 with err set when the trace
 * cannot be sliced (a stream file without index file and without
 * fixed-size packets known from the packet tables given to the trace,
 * an index that does not match its stream file...) or when the slice
 * would skip nothing (every stream needs its first packet): the caller
 * then reads the whole trace, and seeks the slow way.  A trace
 * directory whose streams all need their first packet (and that holds
 * its trace alone) is its own view: nothing is written for it.  Any thread; the trace's
 * packet tables (tn_trace_set_packet_tables()) are read, and their
 * magic-check memo written, while it runs. */
int tn_slice_create(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, struct tn_slice **out, struct tn_error *err);

/* The most parts of a view. */
#define TN_SLICE_PARTS_MAX 8

/* The same view with the streams of part `part` (0 .. parts - 1) only,
 * so that readers of the parts, merged, give the events of the whole
 * view (a split walk, for reading on several threads).  The streams are
 * dealt so that each part has about as many bytes to decode before the
 * target (the packet index's times say how far into its packet the
 * target is); with target_ns INT64_MIN, or when every stream needs its
 * first packet, parts of the whole trace, each with every packet of its
 * streams.  Refused (-1 with err) for a
 * trace of several directories, a stream file whose index does not name
 * its stream (CTF index 1.0, or none: stream ids could then differ from
 * the whole view's), or fewer kept streams than parts. */
int tn_slice_create_part(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, unsigned part, unsigned parts,
		struct tn_slice **out, struct tn_error *err);

/* The time after which the view holds every event of the trace (and
 * every event with the same time as one of them): the latest end of the
 * packets it left out, rounded up, and before target_ns.  INT64_MIN
 * when nothing was left out: the view reads the trace from its start. */
int64_t tn_slice_get_complete_after(const struct tn_slice *slice);

/* What tn_slice_get_complete_after() would say of the slice that
 * tn_slice_create() would make, without making it (it reads the packet
 * indexes only): 0 with *complete_after_ns, or -1 with err when the
 * trace cannot be sliced. */
int tn_slice_plan(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, int64_t *complete_after_ns, struct tn_error *err);

/* What splitting a view at target_ns (tn_slice_create_part()) would
 * give, from the packet indexes alone. */
struct tn_slice_split_plan {
	double bytes_before;	/* about how many bytes the readers of
				 * the view decode before the target */
	bool has_discarded;	/* a kept packet counts discarded events */
	size_t kept_files;	/* stream files in the view */
	uint64_t metadata_bytes;	/* the metadata file's size */
};

/* Plan a split view at target_ns without making it: 0 with *plan, or
 * -1 with err when the view could not be split (several directories, a
 * stream file without a CTF 1.1 index naming its stream). */
int tn_slice_plan_split(const struct tn_trace *trace, int64_t target_ns,
		struct tn_slice_split_plan *plan, struct tn_error *err);

/* Append to starts_ns (a GArray of int64_t), sorted, the times from
 * which a slice leaves out one more packet of a stream: for every packet
 * but the first of each stream file, the first time after the end of
 * the packet before it (and not before its own begin).  A walk opened
 * at such a time decodes that stream from the packet's start: nothing
 * of it before the time is read for nothing.  Returns 0, or -1 with err
 * when the trace cannot be sliced (then a walk reads it from its
 * start). */
int tn_slice_list_packet_starts(const struct tn_trace *trace,
		GArray *starts_ns, struct tn_error *err);

/* The directory standing for trace directory dir (as given by
 * tn_trace_get_dir()): a private one, or dir itself when the view keeps
 * all of it; NULL if none of its streams reaches the target (nothing of
 * it is left to read). */
const char *tn_slice_map_dir(const struct tn_slice *slice, const char *dir);

/* The same for every trace directory at once: element i stands for
 * tn_trace_get_dir(trace, i), NULL when nothing of it is left; what
 * tn_reader_create_on_dirs() (reader-private.h) reads.  Valid as long as
 * the slice. */
const char *const *tn_slice_borrow_dirs(const struct tn_slice *slice);

/* Remove the slice's private directory. */
void tn_slice_destroy(struct tn_slice *slice);

#endif
