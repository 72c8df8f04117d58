/* merge-filter.h - tracenav's merge of a trace's streams, as a
 * libbabeltrace2 filter component class (internal: not part of the
 * public API).
 *
 * A reader's graph connects every output port of its src.ctf.fs
 * components to one component of this class, in place of
 * flt.utils.muxer: like the muxer, it grows an input port for each
 * connection, makes one upstream message iterator per connected input
 * port, in port order, and gives their messages in the muxer's order
 * (merge-heap.h, merge-compare.h), with its checks of the streams'
 * clocks and its time, and seeks to the beginning as the muxer does (the
 * trimmer needs it).  What differs is the cost: a binary heap of the
 * upstream iterators' next messages, so a message costs log2(streams)
 * comparisons of times instead of one per stream.
 */
#ifndef TRACENAV_CORE_MERGE_FILTER_H
#define TRACENAV_CORE_MERGE_FILTER_H

#include <babeltrace2/babeltrace.h>

#include <glib.h>

#include "tracenav/error.h"
#include "tracenav/sync.h"

/* What a reader asks of its merge and learns from it, given as the
 * component's initialize method data (or NULL: nothing asked, nothing
 * learnt).  It outlives the graph; only the graph's thread touches it.
 */
struct tn_merge_context {
	/* Order and stamp each host's messages by their corrected times
	 * (NULL: the recorded ones). */
	const struct tn_sync *sync;
	/* The streams whose times went back (a message before the one
	 * before it in its stream), counted: stream name -> struct
	 * tn_merge_step, the caller's table (NULL: not counted).  The
	 * merge reads on where the muxer fails: such a message is placed
	 * at its stream's latest time (it comes right after the one
	 * before it in its stream); the reader places it there too
	 * (tn_event's ns) and keeps its time (recorded_ns). */
	GHashTable *steps;
};

struct tn_merge_step {
	uint64_t events;	/* events that went back */
	int64_t events_by;	/* by how much, at most */
	uint64_t others;	/* other messages (packet bounds, notices) */
	int64_t others_by;
	/* Each event that went back, as its time (ns) and the latest
	 * time of its stream before it: what names it whichever read
	 * met it (int64_t pairs). */
	GArray *event_times;
};

/* Free a struct tn_merge_step (a GDestroyNotify for the steps). */
void tn_merge_step_free(gpointer step);

/* Borrow the component class (made once for the process, never freed)
 * into *cls.  Any thread; add components of it under
 * tn_bt_classes_lock(), as those of the plugins.  Returns 0, or -1 with
 * err. */
int tn_merge_filter_class(const bt_component_class_filter **cls,
		struct tn_error *err);

/* The clock snapshot by which the muxer places msg, or NULL when it
 * places it at the time of the last message given. */
const bt_clock_snapshot *tn_merge_placing_snapshot(const bt_message *msg);

#endif
