/* state-service.c - the state history of a session (see
 * state-service.h). */
#include <stddef.h>

#include "state-service.h"
#include "tracenav/state-provider.h"

bool tn_state_service_applies(struct tn_state_service *state,
		const struct tn_trace *trace)
{
	if (!state->checked) {
		struct tn_state_providers *providers =
			tn_state_providers_create(trace);

		state->providers = tn_state_providers_get_count(providers) > 0;
		tn_state_providers_destroy(providers);
		state->checked = true;
	}
	return state->providers;
}

void tn_state_service_use_cached(struct tn_state_service *state,
		struct tn_state_snapshots *snapshots)
{
	if (!snapshots)
		return;
	if (state->snapshots || !tn_state_snapshots_is_complete(snapshots)) {
		tn_state_snapshots_destroy(snapshots);
		return;
	}
	state->snapshots = snapshots;
}

struct tn_state_snapshots *tn_state_service_start_snapshots(
		struct tn_state_service *state)
{
	if (state->snapshots)
		return NULL;
	state->snapshots = tn_state_snapshots_create();
	return state->snapshots;
}

const struct tn_state_snapshots *tn_state_service_borrow_complete(
		const struct tn_state_service *state)
{
	return state->snapshots &&
		tn_state_snapshots_is_complete(state->snapshots) ?
		state->snapshots : NULL;
}

void tn_state_service_reset(struct tn_state_service *state)
{
	tn_state_querier_destroy(state->querier);
	state->querier = NULL;
	tn_state_snapshots_destroy(state->snapshots);
	state->snapshots = NULL;
	state->checked = false;
}
