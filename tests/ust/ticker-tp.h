/* ticker-tp.h - the tracepoint provider of tests/ust/ticker.c: one
 * event, tnticker:tick, numbered by its seq field.  A provider of its
 * own, so that a session recording other test programs (msgdemo:*)
 * never records it. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER tnticker

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ticker-tp.h"

#if !defined(TICKER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TICKER_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(tnticker, tick,
	TP_ARGS(int, seq),
	TP_FIELDS(
		ctf_integer(int, seq, seq)
	)
)

#endif /* TICKER_TP_H */

#include <lttng/tracepoint-event.h>
