/* calls-tp.h - the tracepoint provider of tests/ust/calls.c: the phases
 * of its threads' work and the results, beside the func_entry and
 * func_exit events of liblttng-ust-cyg-profile. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER calldemo

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./calls-tp.h"

#if !defined(CALLS_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define CALLS_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(calldemo, phase,
	TP_ARGS(const char *, name, int, round),
	TP_FIELDS(
		ctf_string(name, name)
		ctf_integer(int, round, round)
	)
)

TRACEPOINT_EVENT(calldemo, result,
	TP_ARGS(const char *, name, long, value),
	TP_FIELDS(
		ctf_string(name, name)
		ctf_integer(long, value, value)
	)
)

#endif /* CALLS_TP_H */

#include <lttng/tracepoint-event.h>
