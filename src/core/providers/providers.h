/* providers.h - the provider classes of src/core/providers/ (each file
 * defines one) and the helpers they share. */
#ifndef TRACENAV_CORE_PROVIDERS_H
#define TRACENAV_CORE_PROVIDERS_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"
#include "tracenav/state-provider.h"

extern const struct tn_state_provider_class tn_state_provider_kernel;
extern const struct tn_state_provider_class tn_state_provider_ust;

/* The integer field `name` of ev's payload (signed or unsigned; an
 * enumeration counts): true with *out, false when ev has no such field. */
bool tn_provider_field_int(const struct tn_event *ev, const char *name,
		int64_t *out);

/* The string field `name` of ev's payload, borrowed from ev; NULL when
 * ev has none. */
const char *tn_provider_field_string(const struct tn_event *ev,
		const char *name);

#endif
