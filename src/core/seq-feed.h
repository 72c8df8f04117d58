/* seq-feed.h - what feeds the events of a walk to the sequence
 * diagram's loaders (private to src/core: the page, the search, the
 * list and the page pass): the loaders of a source (seq-window.h) and,
 * when one of them needs the state system (the kernel's), the state
 * providers with the state they keep, which starts as the state at the
 * walk's first event.
 *
 * That state comes from the source's snapshots (state-history.h): the
 * last one before the walk's start is restored and the events from it
 * to the start are fed to the providers alone (at most the snapshots'
 * spacing, tens of thousands of events).  Without snapshots the state
 * starts empty: a loader then knows less at first (which thread runs
 * on a CPU before its first sched_switch), never something wrong.
 */
#ifndef TRACENAV_CORE_SEQ_FEED_H
#define TRACENAV_CORE_SEQ_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-window.h"
#include "tracenav/state-provider.h"

struct tn_seq_feed {
	const struct tn_seq_source *source;
	struct tn_seq_loaders *loaders;
	/* NULL when no loader needs the state. */
	struct tn_state_providers *providers;
	struct tn_state *state;
	/* Events the last open fed to the providers alone. */
	uint64_t replayed;
};

/* Make the loaders of source (and the providers and state when they
 * need them).  source must outlive feed.  Never fails. */
void tn_seq_feed_init(struct tn_seq_feed *feed,
		const struct tn_seq_source *source);
void tn_seq_feed_fini(struct tn_seq_feed *feed);

/* Open *walk at the first event at or after `at` (NULL: the trace's
 * first event), and make the state (if any) the state before it.  The
 * loaders are not reset (tn_seq_loaders_reset() is the caller's).
 * When reaching `at` read its event already, *first gets it with
 * *has_first true: it is the walk's next event, to feed first.
 * Returns 0, or -1 with err (a read failed, a damaged snapshot, or
 * "cancelled" when the job that runs it is asked to stop). */
int tn_seq_feed_open(struct tn_seq_feed *feed, const struct tn_position *at,
		struct tn_walk **walk, struct tn_row *first, bool *has_first,
		struct tn_error *err);

/* Feed the event of row to the loaders (with the state before it),
 * then to the providers.  Returns 0, or -1 with err. */
int tn_seq_feed_event(struct tn_seq_feed *feed, struct tn_seq_model *model,
		const struct tn_row *row, struct tn_error *err);

#endif
