/* provider-classes.h - the provider classes of src/core/providers/
 * (each file defines one; providers.c lists them). */
#ifndef TRACENAV_CORE_PROVIDER_CLASSES_H
#define TRACENAV_CORE_PROVIDER_CLASSES_H

#include "tracenav/state-provider.h"

extern const struct tn_state_provider_class tn_state_provider_kernel;
extern const struct tn_state_provider_class tn_state_provider_ust;

#endif
