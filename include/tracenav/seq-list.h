/* seq-list.h - the messages of a sequence diagram as a list, from an
 * event on (the seqdiag-list command): for scripts and tests, which
 * compare the messages with the events they come from.
 */
#ifndef TRACENAV_SEQ_LIST_H
#define TRACENAV_SEQ_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"
#include "tracenav/seq-hide.h"
#include "tracenav/seq-window.h"
#include "tracenav/seq.h"

/* Called for each message listed: message index of model (whose
 * lifelines it names).  Returns 0, or -1 with err to stop. */
typedef int (*tn_seq_list_func)(const struct tn_seq_model *model,
		size_t index, void *data, struct tn_error *err);

/* The most messages one list holds (they are kept until the end). */
#define TN_SEQ_LIST_MAX 1000000

/* Call fn for each of the first count (at most TN_SEQ_LIST_MAX)
 * messages whose first end (the send, or the receive of a message
 * whose send was not seen) is at or after the event at from, in that
 * order, leaving out what hide hides (NULL: nothing).  The events
 * before from are read first, back to TN_SEQ_FIND_PRIME_EVENTS of them
 * (or the trace's start), so that a receive after from pairs with a
 * send before it (and is not listed: its message's first end is before
 * from); after the last message listed, the trace is read on until
 * each one has both ends or for 200 000 events.  May run in a job
 * (cancellable, with progress).  Returns 0, or -1 with err (a read, or
 * fn, failed; "cancelled"); *listed (may be NULL) gets how many
 * messages fn was called for. */
int tn_seq_list(const struct tn_seq_source *source,
		const struct tn_position *from, uint64_t count,
		struct tn_seq_hide *hide, tn_seq_list_func fn, void *data,
		uint64_t *listed, struct tn_error *err);

#endif
