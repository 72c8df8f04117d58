/* seq-field-text.h - an event's field as text, as the sequence
 * diagram's loaders and rules read keys and labels (internal; any
 * thread). */
#ifndef TRACENAV_CORE_SEQ_FIELD_TEXT_H
#define TRACENAV_CORE_SEQ_FIELD_TEXT_H

#include <glib.h>
#include <stdbool.h>

#include "tracenav/event.h"

/* Append to out the value of the field at path of ev (in scope) as
 * text: a string as it is, an integer in decimal (an enumeration's
 * first label if it has one), a real as "%g".  false (out untouched)
 * when ev has no such field, or it is not a scalar. */
bool tn_seq_field_text_in(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path, GString *out);

/* Append to out the value of the field at path of ev (any scope, the
 * payload first) as text: a string as it is, an integer in decimal (an
 * enumeration's first label if it has one), a real as "%g".  false
 * (out untouched) when ev has no such field, or it is not a scalar. */
bool tn_seq_field_text(const struct tn_event *ev, const char *path,
		GString *out);

/* The same text, without a copy when the field is a string: that
 * string (valid while ev is), else the text made in buf (emptied
 * first); NULL when ev has no such field, or it is not a scalar. */
const char *tn_seq_field_string(const struct tn_event *ev, const char *path,
		GString *buf);

#endif
