/* merge-compare.h - how libbabeltrace2 2.0's muxer orders two messages
 * of equal time (internal: not part of the public API).
 *
 * The rules of flt.utils.muxer's shared comparison (plugins/common/
 * muxing), written again for tracenav's merge so that ties come out in
 * the babeltrace2 CLI's order:
 *
 *   1. the traces' UUIDs (a trace first, then a UUID first, then the
 *      bytes), 2. the traces' names (likewise, then strcmp()), 3. the
 *      stream class ids, 4. the stream ids;
 *   5. messages of different types: stream beginning, packet beginning,
 *      event, discarded events, packet end, inactivity, discarded
 *      packets, stream end;
 *   6. of one type: events by event class (id, name, log level, EMF
 *      URI), then the streams (stream and stream class names, then the
 *      stream classes' properties, false first); discarded items by
 *      stream, then begin and end clock values and clock classes (UUID,
 *      name, frequency and precision, higher first), then count.
 *
 * Missing names sort first for events and streams, last for traces and
 * clock classes, as in the muxer.  The muxer subtracts clock values,
 * counts, frequencies and precisions as 64-bit integers into an int:
 * so does this, so that even its sign errors are the same.
 */
#ifndef TRACENAV_CORE_MERGE_COMPARE_H
#define TRACENAV_CORE_MERGE_COMPARE_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>

/* < 0 when the muxer hands a out before b (at equal times), > 0 when b
 * goes first, 0 when it cannot tell them apart (then its scan order
 * decides). */
int tn_merge_compare_messages(const bt_message *a, const bt_message *b);

/* The stream msg belongs to; NULL for an inactivity message. */
const bt_stream *tn_merge_message_stream(const bt_message *msg);

/* The same, with the signature of tn_merge_compare_func (merge-heap.h);
 * data is unused. */
int tn_merge_compare_items(const void *a, const void *b, void *data);

/* What the comparison reads of a message, kept apart from it: a
 * message's key is compared as the message would be, as long as its
 * stream, event class and clock classes live (the preparse's parts
 * release their messages once they read them: src/core/feed.c). */
struct tn_merge_key {
	const bt_stream *stream;		/* NULL: inactivity */
	bt_message_type type;
	const bt_event_class *event_class;	/* an event's */
	/* A discarded-items notice's: its begin and end clock values
	 * (when its stream class has them), and its count. */
	bool has_snapshots;
	uint64_t begin, end;
	const bt_clock_class *begin_class, *end_class;
	bt_property_availability has_count;
	uint64_t count;
};

/* The key of msg (an event or a discarded-items notice; others have
 * their stream and type only). */
void tn_merge_key_of(const bt_message *msg, struct tn_merge_key *key);

/* tn_merge_compare_messages() of the messages of two keys. */
int tn_merge_compare_keys(const struct tn_merge_key *a,
		const struct tn_merge_key *b);

#endif
