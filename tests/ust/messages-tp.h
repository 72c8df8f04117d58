/* messages-tp.h - the tracepoint provider of tests/ust/messages.c: one
 * end of a message each, in Trace Compass's reference convention (an
 * event name with send or receive, the fields sender, receiver, signal
 * and an id, seq), which tracenav's sequence diagram reads. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER msgdemo

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./messages-tp.h"

#if !defined(MESSAGES_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define MESSAGES_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT_CLASS(msgdemo, message_end,
	TP_ARGS(const char *, sender, const char *, receiver,
		const char *, signal, int, seq),
	TP_FIELDS(
		ctf_string(sender, sender)
		ctf_string(receiver, receiver)
		ctf_string(signal, signal)
		ctf_integer(int, seq, seq)
	)
)

TRACEPOINT_EVENT_INSTANCE(msgdemo, message_end, send,
	TP_ARGS(const char *, sender, const char *, receiver,
		const char *, signal, int, seq))

TRACEPOINT_EVENT_INSTANCE(msgdemo, message_end, receive,
	TP_ARGS(const char *, sender, const char *, receiver,
		const char *, signal, int, seq))

#endif /* MESSAGES_TP_H */

#include <lttng/tracepoint-event.h>
