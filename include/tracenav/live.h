/* live.h - LTTng live sessions: the sessions an lttng-relayd offers,
 * and a reader of one while it records, through libbabeltrace2's
 * src.ctf.lttng-live.
 *
 * A live URL is written as babeltrace2 --input-format=lttng-live takes
 * it: net://HOST[:PORT] names a relay daemon (its live port, 5344 by
 * default), net://HOST[:PORT]/host/TARGET_HOST/SESSION one session of
 * it (net4:// and net6:// too).
 */
#ifndef TRACENAV_LIVE_H
#define TRACENAV_LIVE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/reader.h"

/* A live URL taken apart. */
struct tn_live_url {
	char *relay;		/* "net://HOST:PORT", the port always given */
	char *target_host;	/* NULL: the URL names the relay daemon only */
	char *session;
};

/* Whether text is a live URL (net://, net4:// or net6://), which
 * tn_live_url_parse() then checks. */
bool tn_live_is_url(const char *text);

/* Take url apart.  Returns 0, or -1 with err saying what is wrong
 * with it and how it is written. */
int tn_live_url_parse(const char *url, struct tn_live_url *out,
		struct tn_error *err);
void tn_live_url_fini(struct tn_live_url *url);

/* One session of a relay daemon, as its `sessions` query gives it. */
struct tn_live_session {
	char *url;		/* net://HOST:PORT/host/TARGET/NAME */
	char *target_host;
	char *name;
	uint64_t timer_us;	/* its live timer */
	uint64_t stream_count;
	uint64_t client_count;	/* viewers attached */
};

/* The sessions that the relay daemon of url offers (url's session, if
 * any, is not looked at), in its order.  Returns 0 and *out (struct
 * tn_live_session, tn_live_sessions_free()), or -1 with err (the relay
 * daemon cannot be reached: what to check). */
int tn_live_list_sessions(const struct tn_live_url *url, GArray **out,
		struct tn_error *err);
void tn_live_sessions_free(GArray *sessions);

/* A reader of the session url names, from what the relay daemon still
 * holds of it to its end: tn_reader_next() waits for the next event
 * (polling the relay daemon every half live-timer period, the session's
 * own pace) and ends when the session is destroyed.  Returns 0 and
 * *out, or -1 with err: the relay daemon cannot be reached, or offers
 * no such session (err says which it offers). */
int tn_live_reader_create(const struct tn_live_url *url,
		struct tn_reader **out, struct tn_error *err);

/* What the core's live readers share (live.c, live-mirror.c). */

/* err: the relay daemon of url has no session url->session; names:
 * those it has ("HOST/NAME, ...", "" for none). */
void tn_live_no_such_session(struct tn_error *err,
		const struct tn_live_url *url, const char *names);

/* How long to wait before asking the relay daemon again when it had
 * nothing new: half the session's live timer, within 10 to 100 ms. */
uint64_t tn_live_poll_us(uint64_t timer_us);

#endif
