/* trace-private.h - what the reader needs to know about a trace
 * (internal: not part of the public API). */
#ifndef TRACENAV_CORE_TRACE_PRIVATE_H
#define TRACENAV_CORE_TRACE_PRIVATE_H

#include <stddef.h>

#include "tracenav/trace.h"

/* A group is one src.ctf.fs component: the directories of one trace
 * (same UUID), read together. */
size_t tn_trace_get_group_count(const struct tn_trace *trace);
size_t tn_trace_get_group_dir_count(const struct tn_trace *trace,
		size_t group);
const char *tn_trace_get_group_dir(const struct tn_trace *trace,
		size_t group, size_t index);

#endif
