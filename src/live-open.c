/* live-open.c - a live URL opened in the event list or by --batch (see
 * live-open.h). */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live-open.h"
#include "tty-text.h"

/* How long the first packet is waited for before saying so. */
#define QUIET_WAIT_US (G_USEC_PER_SEC / 2)
#define WAIT_STEP_US (G_USEC_PER_SEC / 20)

static void print_session(unsigned number, const struct tn_live_session *s)
{
	struct tn_tty_text out;

	tn_tty_text_init(&out, stderr);
	tn_tty_text_printf(&out, "%3u  %s (timer = %" PRIu64 " us, %" PRIu64
		" stream(s), %" PRIu64 " client(s) connected)", number, s->url,
		s->timer_us, s->stream_count, s->client_count);
	tn_tty_text_fini(&out);
}

/* Ask on the terminal which of sessions to open: its index, or -1
 * (quit). */
static int ask(const GArray *sessions)
{
	char line[64];

	for (;;) {
		unsigned long n;
		char *end;

		fprintf(stderr, "session to open (1-%u, q quits): ",
			sessions->len);
		fflush(stderr);
		if (!fgets(line, sizeof(line), stdin) || line[0] == 'q')
			return -1;
		n = strtoul(line, &end, 10);
		if (end != line && (*end == '\n' || !*end) && n >= 1 &&
		    n <= sessions->len)
			return (int) n - 1;
		fprintf(stderr, "a number from 1 to %u, please\n",
			sessions->len);
	}
}

/* The session to open on the relay daemon of url: *chosen (g_free it).
 * Returns LIVE_OPEN_OK, or another status (said). */
static enum live_open_status choose(const struct tn_live_url *url,
		bool pick, char **chosen)
{
	GArray *sessions;
	struct tn_error err;
	int which = 0;

	if (tn_live_list_sessions(url, &sessions, &err)) {
		tn_tty_text_error("%s", err.message);
		return LIVE_OPEN_FAILED;
	}
	if (sessions->len == 0) {
		tn_tty_text_error("the relay daemon at %s has no session yet "
			"(lttng create --live, with its output there, makes "
			"one)", url->relay);
		tn_live_sessions_free(sessions);
		return LIVE_OPEN_FAILED;
	}
	if (sessions->len > 1) {
		fprintf(stderr, "the relay daemon at %s has %u sessions:\n",
			url->relay, sessions->len);
		for (guint i = 0; i < sessions->len; i++)
			print_session(i + 1, &g_array_index(sessions,
				struct tn_live_session, i));
		if (!pick) {
			tn_tty_text_error("name one of them: tracenav URL "
				"with one of the URLs above");
			tn_live_sessions_free(sessions);
			return LIVE_OPEN_FAILED;
		}
		which = ask(sessions);
		if (which < 0) {
			tn_live_sessions_free(sessions);
			return LIVE_OPEN_QUIT;
		}
	}
	*chosen = g_strdup(g_array_index(sessions, struct tn_live_session,
		which).url);
	tn_live_sessions_free(sessions);
	return LIVE_OPEN_OK;
}

/* Wait for the mirror's first packet, or the end of its session.
 * Returns whether there is a packet. */
static bool wait_first_packet(struct tn_live_mirror *mirror,
		const char *url)
{
	gint64 start = g_get_monotonic_time();
	bool said = false;
	char why[TN_ERROR_MAX];

	while (!tn_live_mirror_has_data(mirror)) {
		enum tn_live_mirror_state state = tn_live_mirror_get_state(
			mirror, why, sizeof(why));

		if (state != TN_LIVE_MIRROR_RECEIVING &&
		    !tn_live_mirror_has_data(mirror)) {
			if (state == TN_LIVE_MIRROR_FAILED)
				tn_tty_text_error("%s", why);
			else
				tn_tty_text_error("%s: the session ended "
					"without any event", url);
			return false;
		}
		if (!said && g_get_monotonic_time() - start > QUIET_WAIT_US) {
			tn_tty_text_error("waiting for the first events of "
				"%s (Ctrl-C stops)", url);
			said = true;
		}
		g_usleep(WAIT_STEP_US);
	}
	return true;
}

enum live_open_status live_open(const char *text, const char *dir,
		bool pick, bool wait_end, struct tn_live_mirror **mirror,
		char **name)
{
	struct tn_live_url url;
	struct tn_error err;
	enum live_open_status status = LIVE_OPEN_OK;
	char *chosen = NULL;

	*mirror = NULL;
	*name = NULL;
	if (tn_live_url_parse(text, &url, &err)) {
		tn_tty_text_error("%s", err.message);
		return LIVE_OPEN_FAILED;
	}
	if (!url.session) {
		status = choose(&url, pick, &chosen);
		tn_live_url_fini(&url);
		if (status != LIVE_OPEN_OK ||
		    tn_live_url_parse(chosen, &url, &err)) {
			g_free(chosen);
			return status == LIVE_OPEN_OK ? LIVE_OPEN_FAILED :
				status;
		}
		text = chosen;
	}
	if (tn_live_mirror_start(&url, dir, mirror, &err)) {
		tn_tty_text_error("%s", err.message);
		status = LIVE_OPEN_FAILED;
	} else if (wait_end) {
		char why[TN_ERROR_MAX];

		if (tn_live_mirror_wait_end(*mirror, -1) ==
		    TN_LIVE_MIRROR_FAILED) {
			tn_live_mirror_get_state(*mirror, why, sizeof(why));
			tn_tty_text_error("%s (what came is read)", why);
		}
		if (!tn_live_mirror_has_data(*mirror)) {
			tn_tty_text_error("%s: no event came", text);
			status = LIVE_OPEN_FAILED;
		}
	} else if (!wait_first_packet(*mirror, text)) {
		status = LIVE_OPEN_FAILED;
	}
	if (status == LIVE_OPEN_OK)
		*name = g_strdup_printf("%s (live)", url.session);
	else {
		tn_live_mirror_destroy(*mirror);
		*mirror = NULL;
	}
	tn_live_url_fini(&url);
	g_free(chosen);
	return status;
}
