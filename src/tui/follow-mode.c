/* follow-mode.c - follow mode in the event list (the follow command,
 * F): while it is on, the sizes of the trace's files are looked at
 * every second; when they changed, the list reloads the trace
 * between jobs (tn_session_reload(): the position, filters and marks
 * stay) and, in TN_FOLLOW_END, goes to the newest event again.  A move
 * away holds the position (TN_FOLLOW_HOLD, command-run.c) and the status
 * bar counts the events written since. */
#include <inttypes.h>

#include "tui-private.h"

/* How often the trace's files are looked at (a stat() each); a live
 * session's copy, at every turn of the input loop past this (its
 * packets come a live-timer period apart, 100 ms say). */
#define CHECK_US G_USEC_PER_SEC
#define LIVE_CHECK_US (G_USEC_PER_SEC / 20)
/* While the index or the state of what was reloaded is still being
 * built, the next reload waits for it this long at most: each reload
 * starts them again. */
#define BUSY_RELOAD_US (10 * G_USEC_PER_SEC)

/* Follow mode starts: what the trace's files are now is what the ticks
 * compare with; stream files that changed since the trace was opened
 * are read at the first tick. */
static void start_watching(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;

	tui->follow.checked_us = 0;
	session->written_stamp = tn_trace_get_written_stamp(session->trace);
	tui->follow.due = tn_trace_get_stream_bytes(session->trace) !=
		session->trace_bytes;
}

void tn_tui_follow_note(struct tn_tui *tui)
{
	struct tn_tui_follow_mode *follow = &tui->follow;
	enum tn_session_follow now = tui->session->follow;

	if (now == TN_FOLLOW_HOLD && follow->mode != TN_FOLLOW_HOLD) {
		/* The events there are when the list leaves the end. */
		follow->has_base = tui->index.has_index;
		follow->base_count = tui->index.event_count;
		follow->grew = false;
	} else if (now == TN_FOLLOW_HOLD && !follow->has_base &&
		   !follow->grew && tui->index.has_index) {
		/* The index came after the list left the end, before the
		 * trace grew: nothing is new yet. */
		follow->has_base = true;
		follow->base_count = tui->index.event_count;
	}
	if (now != TN_FOLLOW_OFF && follow->mode == TN_FOLLOW_OFF)
		start_watching(tui);
	if (now != follow->mode)
		tui->dirty |= TN_TUI_DIRTY_STATUS;
	follow->mode = now;
}

/* Whether the list may reload now: nothing waits for the session (a
 * command, the prompt, a text view), and the index and state of the
 * last reload are built, or waited for long enough. */
static bool may_reload(struct tn_tui *tui, gint64 now)
{
	const struct tn_tui_index_status *index = &tui->index;

	if (tn_tui_user_job_running(tui) || tui->pending || tui->pager ||
	    tn_tui_prompt_is_open(tui->prompt))
		return false;
	return !(index->building || index->computing_state) ||
		now - tui->follow.reloaded_us >= BUSY_RELOAD_US;
}

/* A live session's copy that ended or broke: said once (the status
 * bar keeps saying it). */
static void note_live_state(struct tn_tui *tui)
{
	struct tn_live_mirror *live = tui->session->live;
	enum tn_live_mirror_state state;
	char why[TN_ERROR_MAX], text[TN_ERROR_MAX + 64];

	if (!live)
		return;
	state = tn_live_mirror_get_state(live, why, sizeof(why));
	if (state == tui->follow.live_state)
		return;
	tui->follow.live_state = state;
	tui->dirty |= TN_TUI_DIRTY_STATUS;
	if (state == TN_LIVE_MIRROR_ENDED)
		tn_tui_message_set(tui, false, "the live session ended: all "
			"it recorded is here to browse");
	else if (state == TN_LIVE_MIRROR_FAILED) {
		snprintf(text, sizeof(text), "disconnected, what came stays "
			"(:reload connects again): %s", why);
		tn_tui_message_set(tui, true, text);
	}
}

bool tn_tui_follow_tick(struct tn_tui *tui)
{
	struct tn_tui_follow_mode *follow = &tui->follow;
	gint64 now = g_get_monotonic_time();

	note_live_state(tui);

	if (follow->mode == TN_FOLLOW_OFF || now - follow->checked_us <
	    (tui->session->live ? LIVE_CHECK_US : CHECK_US) ||
	    !may_reload(tui, now))
		return false;
	follow->checked_us = now;
	if (!follow->due && tn_trace_get_written_stamp(tui->session->trace) ==
	    tui->session->written_stamp)
		return false;
	follow->due = false;
	follow->reloading = true;
	tui->session->reload = true;
	return true;
}

bool tn_tui_follow_reloading(const struct tn_tui *tui)
{
	return tui->follow.reloading;
}

void tn_tui_follow_reloaded(struct tn_tui *tui)
{
	struct tn_tui_follow_mode *follow = &tui->follow;

	follow->reloading = false;
	/* A reload clears the message line: the end of a live session is
	 * said again. */
	follow->live_state = TN_LIVE_MIRROR_RECEIVING;
	follow->reloaded_us = g_get_monotonic_time();
	follow->checked_us = follow->reloaded_us;
	if (follow->mode == TN_FOLLOW_HOLD)
		follow->grew = true;
	else if (follow->mode == TN_FOLLOW_END)
		tn_tui_run_line(tui, "bottom", TN_TUI_FOLLOW_JUMP);
}

void tn_tui_follow_append_status(const struct tn_tui *tui, GString *out)
{
	const struct tn_tui_follow_mode *follow = &tui->follow;
	const struct tn_tui_index_status *index = &tui->index;

	if (tui->session->live && follow->live_state == TN_LIVE_MIRROR_ENDED)
		g_string_append(out, "  ended");
	else if (tui->session->live &&
		 follow->live_state == TN_LIVE_MIRROR_FAILED)
		g_string_append(out, "  disconnected (:reload)");
	else if (tui->session->live &&
		 follow->live_state == TN_LIVE_MIRROR_RECONNECTING)
		g_string_append(out, "  reconnecting");

	if (follow->mode == TN_FOLLOW_END) {
		g_string_append(out, "  following");
		return;
	}
	if (follow->mode != TN_FOLLOW_HOLD)
		return;
	if (follow->has_base && index->has_index &&
	    index->event_count > follow->base_count)
		g_string_append_printf(out, "  %" PRIu64 " new (F)",
			index->event_count - follow->base_count);
	else if (follow->grew && !(follow->has_base && index->has_index))
		g_string_append(out, "  new events (F)");
	else
		g_string_append(out, "  held (F follows)");
}
