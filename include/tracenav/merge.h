/* merge.h - how the core merges the streams of a trace into one
 * sequence of messages.
 *
 * Every reader (--dump, the event list's walks and slices, the index
 * build) merges the streams of the trace in time order, in exactly the
 * order of the babeltrace2 CLI (libbabeltrace2 2.0's flt.utils.muxer),
 * ties included.  By default tracenav does it itself with a binary heap,
 * whose cost per message grows with the logarithm of the number of
 * streams; the library's muxer scans every stream for each message.
 */
#ifndef TRACENAV_MERGE_H
#define TRACENAV_MERGE_H

enum tn_merge_method {
	TN_MERGE_HEAP,		/* tracenav's merge (the default) */
	TN_MERGE_BT_MUXER,	/* libbabeltrace2's flt.utils.muxer, to
				 * compare (--bt-muxer) */
};

/* Choose how the readers created from now on merge streams, for the
 * whole process; readers already open keep theirs.  Any thread. */
void tn_merge_set_method(enum tn_merge_method method);

/* The method readers created now use. */
enum tn_merge_method tn_merge_get_method(void);

#endif
