/* provider-fields.c - the fields of an event that providers read, as
 * the state takes them (see provider-fields.h). */
#include <stddef.h>

#include "provider-fields.h"

bool tn_provider_field_int(const struct tn_event *ev, const char *name,
		int64_t *out)
{
	struct tn_field_value value;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, name, &value))
		return false;
	if (value.type == TN_VALUE_SIGNED)
		*out = value.s;
	else if (value.type == TN_VALUE_UNSIGNED)
		*out = (int64_t) value.u;
	else
		return false;
	return true;
}

const char *tn_provider_field_string(const struct tn_event *ev,
		const char *name)
{
	struct tn_field_value value;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, name, &value) ||
			value.type != TN_VALUE_STRING)
		return NULL;
	return value.string;
}
