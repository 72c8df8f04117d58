/* loader-classes.h - the sequence diagram's built-in loader classes
 * (each file of src/core/seq-loaders defines one; loaders.c lists
 * them). */
#ifndef TRACENAV_SEQ_LOADER_CLASSES_H
#define TRACENAV_SEQ_LOADER_CLASSES_H

#include <glib.h>
#include <stdbool.h>

#include "tracenav/seq-loader.h"

extern const struct tn_seq_loader_class tn_seq_loader_reference;
extern const struct tn_seq_loader_class tn_seq_loader_kernel;
extern const struct tn_seq_loader_class tn_seq_loader_network;
extern const struct tn_seq_loader_class tn_seq_loader_rules;

#endif
