/* state-value.c - the values of the state system: constructors,
 * equality, type names and text (see state.h). */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/format.h"
#include "tracenav/state.h"

struct tn_state_value tn_state_value_null(void)
{
	return (struct tn_state_value) { .type = TN_STATE_NULL };
}

struct tn_state_value tn_state_value_int(int32_t v)
{
	return (struct tn_state_value) { .type = TN_STATE_INT, .u.i = v };
}

struct tn_state_value tn_state_value_long(int64_t v)
{
	return (struct tn_state_value) { .type = TN_STATE_LONG, .u.l = v };
}

struct tn_state_value tn_state_value_double(double v)
{
	return (struct tn_state_value) { .type = TN_STATE_DOUBLE, .u.d = v };
}

struct tn_state_value tn_state_value_string(const char *s)
{
	if (!s)
		return tn_state_value_null();
	return (struct tn_state_value) { .type = TN_STATE_STRING, .u.s = s };
}

const char *tn_state_type_name(enum tn_state_type type)
{
	switch (type) {
	case TN_STATE_NULL: return "null";
	case TN_STATE_INT: return "int";
	case TN_STATE_LONG: return "long";
	case TN_STATE_DOUBLE: return "double";
	case TN_STATE_STRING: return "string";
	}
	return "unknown";
}

bool tn_state_value_equal(const struct tn_state_value *a,
		const struct tn_state_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case TN_STATE_NULL: return true;
	case TN_STATE_INT: return a->u.i == b->u.i;
	case TN_STATE_LONG: return a->u.l == b->u.l;
	case TN_STATE_DOUBLE:
		/* NaN keeps its interval like any other value. */
		return a->u.d == b->u.d || (isnan(a->u.d) && isnan(b->u.d));
	case TN_STATE_STRING:
		return a->u.s == b->u.s || strcmp(a->u.s, b->u.s) == 0;
	}
	return false;
}

/* The shortest "%.Ng" that reads back as d, with a '.' whatever the
 * locale. */
static void append_double(GString *buf, double d)
{
	char text[G_ASCII_DTOSTR_BUF_SIZE];
	char format[16];

	if (isnan(d)) {
		g_string_append(buf, "nan");
		return;
	}
	if (isinf(d)) {
		g_string_append(buf, d < 0 ? "-inf" : "inf");
		return;
	}
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(format, sizeof(format), "%%.%dg", digits);
		g_ascii_formatd(text, sizeof(text), format, d);
		if (g_ascii_strtod(text, NULL) == d)
			break;
	}
	g_string_append(buf, text);
}

void tn_state_value_append(GString *buf, const struct tn_state_value *value)
{
	switch (value->type) {
	case TN_STATE_NULL:
		g_string_append(buf, "null");
		return;
	case TN_STATE_INT:
		g_string_append_printf(buf, "%" PRId32, value->u.i);
		return;
	case TN_STATE_LONG:
		g_string_append_printf(buf, "%" PRId64, value->u.l);
		return;
	case TN_STATE_DOUBLE:
		append_double(buf, value->u.d);
		return;
	case TN_STATE_STRING:
		tn_format_escaped_string(buf, value->u.s);
		return;
	}
}
