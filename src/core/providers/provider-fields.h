/* provider-fields.h - the helpers that the providers of
 * src/core/providers/ share to read an event's payload. */
#ifndef TRACENAV_CORE_PROVIDER_FIELDS_H
#define TRACENAV_CORE_PROVIDER_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"

/* The integer field `name` of ev's payload (signed or unsigned; an
 * enumeration counts): true with *out, false when ev has no such field. */
bool tn_provider_field_int(const struct tn_event *ev, const char *name,
		int64_t *out);

/* The string field `name` of ev's payload, borrowed from ev; NULL when
 * ev has none. */
const char *tn_provider_field_string(const struct tn_event *ev,
		const char *name);

#endif
