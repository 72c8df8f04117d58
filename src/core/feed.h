/* feed.h - the whole trace read once, in order, its decoding spread
 * over helper threads (internal: not part of the public API).
 *
 * A feed gives the items of the trace (events and discarded-items
 * notices, as tn_reader_next() gives them) from its start to its end,
 * in the order of a full read.  The decoding runs on helper threads,
 * the *parts*: each reads some of the trace's streams (a single trace
 * directory, its streams dealt by bytes: slice.h's parts of the whole
 * view) or some of its traces (several, dealt whole and in order) with
 * a reader of its own, and hands what it reads through a ring to the
 * thread that takes the items, which merges the parts in the muxer's
 * order (time, then merge-compare.h).  That thread decodes nothing: it
 * is free for what is done with the items (the preparse's consumers).
 *
 * A trace that cannot be split (no clock, packets without times,
 * several directories of one trace, stream files whose index does not
 * name their stream) is read by one part: the decoding still runs
 * beside the consumers.
 *
 * Threads: a part's libbabeltrace2 objects are its thread's; the thread
 * that takes an item reads its record (and, through it, the part's
 * streams and classes, which do not change) until the next
 * tn_feed_next().
 */
#ifndef TRACENAV_CORE_FEED_H
#define TRACENAV_CORE_FEED_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/packets.h"
#include "tracenav/trace.h"

/* The most parts of a feed. */
#define TN_FEED_PARTS_MAX 4

struct tn_feed;

enum tn_feed_flags {
	/* Gather the packet tables of the stream files without a packet
	 * index (packets-collect.h): only a feed of one part can. */
	TN_FEED_COLLECT_PACKETS = 1 << 0,
};

/* Start reading trace from its start on `parts` helper threads (0: one
 * more than the processors; at most TN_FEED_PARTS_MAX; fewer when the trace
 * cannot be split so), with flags (enum tn_feed_flags).  Each item
 * comes with a record (event-record.h) of the fields of wants (count of
 * them; what they point to outlives the feed), and without its
 * message.  The helpers run as the calling thread's job (a cancel
 * stops them).
 * Returns 0 and *out, or -1 with err (no thread could be started). */
int tn_feed_open(const struct tn_trace *trace, unsigned parts,
		unsigned flags, const struct tn_field_want *wants,
		size_t want_count, struct tn_feed **out, struct tn_error *err);

/* How many parts tn_feed_open(trace, parts, 0, ...) would read trace
 * with (1: it cannot be split). */
unsigned tn_feed_plan_part_count(const struct tn_trace *trace,
		unsigned parts);

/* The next item into *ev: its message NULL, its record borrowed, valid
 * until the next call or the destroy.  Returns 1, 0 at the end of the trace, or
 * -1 with err (a part failed, or "cancelled"). */
int tn_feed_next(struct tn_feed *feed, struct tn_event *ev,
		struct tn_error *err);

/* The CPU time the parts' threads took, those that ended (all of them
 * once tn_feed_next() said the end). */
double tn_feed_get_cpu_seconds(const struct tn_feed *feed);

/* How many parts read the trace. */
unsigned tn_feed_get_part_count(const struct tn_feed *feed);

/* With TN_FEED_COLLECT_PACKETS, once tn_feed_next() said the end: the
 * packet tables gathered (the caller's), else NULL. */
struct tn_packet_tables *tn_feed_take_packets(struct tn_feed *feed);

/* Stop the parts (if still reading), wait for them and free.
 * NULL-safe. */
void tn_feed_destroy(struct tn_feed *feed);

#endif
