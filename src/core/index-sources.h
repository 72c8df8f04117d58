/* index-sources.h - the source (index.h's struct tn_index_source) of an
 * event, for the index build and the counts of a range, looked up
 * through a small memo of the streams seen (internal: not part of the
 * public API).
 *
 * Working out an event's source takes its stream's ids and its trace's
 * name, and the cpu_id of its packet context; the memo keeps, per stream
 * and CPU, a number that the caller chose for that source (the index of
 * a tally, of an index source), so that most events cost a lookup of
 * their CPU and a comparison.
 */
#ifndef TRACENAV_CORE_INDEX_SOURCES_H
#define TRACENAV_CORE_INDEX_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"
#include "tracenav/index.h"

/* ev's source; out->trace is borrowed from ev (valid as long as it). */
void tn_index_source_of_event(const struct tn_event *ev,
		struct tn_index_source *out);

#define TN_SOURCE_MEMO_SLOTS 64

struct tn_source_memo {
	struct {
		const void *stream;	/* tn_event_get_stream_key(); NULL:
					 * empty */
		int64_t cpu;
		long value;
	} slots[TN_SOURCE_MEMO_SLOTS];
};

/* Forget everything: before the events of another reader, whose streams
 * may have the addresses of the last one's. */
void tn_source_memo_clear(struct tn_source_memo *memo);

/* The number that the memo keeps for ev's source; on a miss, the one
 * that miss(data, source) gives (then kept).  ev is an event (not a
 * notice). */
long tn_source_memo_lookup(struct tn_source_memo *memo,
		const struct tn_event *ev,
		long (*miss)(void *data, const struct tn_index_source *source),
		void *data);

#endif
