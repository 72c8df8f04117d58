/* loaders.h - what the sequence diagram's loaders share (private to
 * src/core/seq-loaders). */
#ifndef TRACENAV_SEQ_LOADERS_H
#define TRACENAV_SEQ_LOADERS_H

#include <glib.h>
#include <stdbool.h>

#include "tracenav/seq-loader.h"

extern const struct tn_seq_loader_class tn_seq_loader_reference;
extern const struct tn_seq_loader_class tn_seq_loader_kernel;
extern const struct tn_seq_loader_class tn_seq_loader_rules;

/* Append to out the value of the field at path of ev (any scope, the
 * payload first) as text: a string as it is, an integer in decimal (an
 * enumeration's first label if it has one), a real as "%g".  false
 * (out untouched) when ev has no such field, or it is not a scalar. */
bool tn_seq_field_text(const struct tn_event *ev, const char *path,
		GString *out);

#endif
