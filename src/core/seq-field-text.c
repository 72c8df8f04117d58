/* seq-field-text.c - an event's field as the sequence diagram's keys
 * and labels take it: text (see seq-field-text.h). */
#include <glib.h>

#include "src/core/seq-field-text.h"
#include "tracenav/format.h"

/* Append v as text (see the header); false when it is not a scalar. */
static bool append_value(const struct tn_field_value *v, GString *out)
{
	if ((v->type == TN_VALUE_SIGNED || v->type == TN_VALUE_UNSIGNED) &&
	    v->is_enum && v->label_count > 0) {
		g_string_append(out, v->labels[0]);
		return true;
	}
	switch (v->type) {
	case TN_VALUE_STRING:
		g_string_append(out, v->string ? v->string : "");
		return true;
	case TN_VALUE_SIGNED:
		tn_format_append_s64(out, v->s);
		return true;
	case TN_VALUE_UNSIGNED:
		tn_format_append_u64(out, v->u);
		return true;
	case TN_VALUE_REAL:
		g_string_append_printf(out, "%g", v->d);
		return true;
	case TN_VALUE_OTHER:
		break;
	}
	return false;
}

bool tn_seq_field_text_in(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path, GString *out)
{
	struct tn_field_value v;

	return tn_event_find_field(ev, scope, path, &v) &&
		append_value(&v, out);
}

const char *tn_seq_field_string(const struct tn_event *ev, const char *path,
		GString *buf)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_ANY, path, &v))
		return NULL;
	if (v.type == TN_VALUE_STRING)
		return v.string ? v.string : "";
	g_string_truncate(buf, 0);
	return append_value(&v, buf) ? buf->str : NULL;
}

bool tn_seq_field_text(const struct tn_event *ev, const char *path,
		GString *out)
{
	return tn_seq_field_text_in(ev, TN_SCOPE_ANY, path, out);
}
