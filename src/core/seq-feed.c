/* seq-feed.c - the loaders of a sequence diagram fed from a walk, with
 * the state system when they need it (see seq-feed.h). */
#include <string.h>

#include "seq-feed.h"
#include "tracenav/job.h"
#include "tracenav/state-history.h"

/* How often the replay before a walk's start looks for a cancel. */
#define CANCEL_EVERY 4096

void tn_seq_feed_init(struct tn_seq_feed *feed,
		const struct tn_seq_source *source)
{
	memset(feed, 0, sizeof(*feed));
	feed->source = source;
	feed->loaders = tn_seq_loaders_create_with_rules(source->trace,
		source->rules);
	if (tn_seq_loaders_need_state(feed->loaders)) {
		feed->providers = tn_state_providers_create(source->trace);
		feed->state = tn_state_create();
	}
}

void tn_seq_feed_fini(struct tn_seq_feed *feed)
{
	tn_seq_loaders_destroy(feed->loaders);
	tn_state_providers_destroy(feed->providers);
	tn_state_destroy(feed->state);
	memset(feed, 0, sizeof(*feed));
}

/* Restore the last snapshot at or before at into the state and open
 * *walk at its event; *found false (nothing done) when there is none.
 * Returns 0, or -1 with err. */
static int open_at_snapshot(struct tn_seq_feed *feed,
		const struct tn_position *at, struct tn_walk **walk,
		bool *found, struct tn_error *err)
{
	const struct tn_state_snapshots *snapshots = feed->source->snapshots;
	struct tn_state_snapshot_info info;
	bool fell_back;

	*found = snapshots && tn_state_snapshots_find(snapshots, at, &info,
		NULL);
	if (!*found)
		return 0;
	if (tn_state_snapshots_restore(snapshots, info.index, -1,
			feed->state, err))
		return -1;
	tn_state_providers_reset(feed->providers);
	return tn_walk_open_at_known(feed->source->trace, &info.pos, 0, walk,
		&fell_back, err);
}

int tn_seq_feed_open(struct tn_seq_feed *feed, const struct tn_position *at,
		struct tn_walk **walk, struct tn_row *first, bool *has_first,
		struct tn_error *err)
{
	const struct tn_trace *trace = feed->source->trace;
	struct tn_row row;
	bool found = false;
	int status;

	*walk = NULL;
	*has_first = false;
	feed->replayed = 0;
	if (feed->providers) {
		tn_state_clear(feed->state);
		tn_state_providers_reset(feed->providers);
		if (at && open_at_snapshot(feed, at, walk, &found, err))
			goto fail;
	}
	if (!at || (!found && !feed->providers))
		return at ? tn_walk_open_at(trace, at, false, walk, err) :
			tn_walk_open(trace, INT64_MIN, walk, err);
	/* No snapshot before at (the first ones come thousands of events
	 * into the trace, or the state pass has not got there): the state
	 * at at is the replay of the trace from its start, never the empty
	 * state, or a window opened there would miss what the state knows
	 * (a CPU's thread) and drop messages that a window opened further
	 * back draws. */
	if (!found && tn_walk_open(trace, INT64_MIN, walk, err))
		goto fail;
	/* From the snapshot (or the start) to at: the providers alone. */
	while ((status = tn_walk_next(*walk, NULL, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, at) >= 0) {
			*first = row;
			*has_first = true;
			return 0;
		}
		status = tn_state_providers_handle(feed->providers,
			feed->state, &row.ev, &row.pos, err);
		tn_row_release(&row);
		if (status)
			goto fail;
		if ((++feed->replayed % CANCEL_EVERY) == 0 &&
		    tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			goto fail;
		}
	}
	if (status == 0)
		return 0;
fail:
	tn_walk_destroy(*walk);
	*walk = NULL;
	return -1;
}

int tn_seq_feed_event(struct tn_seq_feed *feed, struct tn_seq_model *model,
		const struct tn_row *row, struct tn_error *err)
{
	if (tn_seq_loaders_handle(feed->loaders, model, &row->ev, &row->pos,
			feed->state, err))
		return -1;
	return feed->providers ? tn_state_providers_handle(feed->providers,
		feed->state, &row->ev, &row->pos, err) : 0;
}
