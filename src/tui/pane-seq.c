/* pane-seq.c - the sequence diagram pane: the messages between
 * lifelines around the list's cursor (seq-window.h's page, the same as
 * seqdiag's), drawn by seq-render with line-drawing characters in a
 * UTF-8 terminal (plain ASCII otherwise, and under --ascii), the
 * lifelines' header kept on top while the messages scroll.
 *
 * Both ways in sync with the list.  The list's job only notes where the
 * cursor is (cursor_moved, with the session's hide patterns); when the
 * page shown holds the messages around it, the pane selects the message
 * the position selects at once, else it loads a new page in a job of
 * its own (tn_seq_page_job), polled from the input loop: never in the
 * list's job, never holding up a key.  A page starts once the cursor
 * stayed SETTLE_US (a held j loads none) and the list's job ended; a
 * move meanwhile cancels it for the newest position.  Selecting a
 * message in the pane (j, k when it has the focus) moves the list to
 * its send through the command queue (goto @NS:TIE), r to its receive;
 * the state pane follows, as it follows the list.
 *
 * The find (/, n, N) is seqdiag-find's (tn_seq_find) in a job of its
 * own too, which Esc cancels; the view logic (selection, scroll) is
 * seq-view.c, the drawing seq-draw.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/cursor.h"
#include "seq-pane.h"

/* A page loads once the cursor stayed this long on an event and the
 * list's job ended. */
#define SETTLE_US 30000
/* A job that ends within this shows nothing of its progress. */
#define QUIET_SECONDS 0.1
/* The list's cursor this close to the page's first or last message
 * loads a new page around it (so that j and k go on past them). */
#define MARGIN 3
#define WHEEL_LINES 3

enum seq_action {
	SEQ_NONE,
	SEQ_DOWN,
	SEQ_UP,
	SEQ_PAGE_DOWN,
	SEQ_PAGE_UP,
	SEQ_FIRST,
	SEQ_LAST,
	SEQ_LEFT,
	SEQ_RIGHT,
	SEQ_SEND,
	SEQ_RECEIVE,
	SEQ_FIND,
	SEQ_NEXT,
	SEQ_PREVIOUS,
	SEQ_HIDE,
	SEQ_MOUSE,		/* documented: see seq_mouse */
};

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

static const struct tn_tui_binding seq_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, SEQ_DOWN, NULL,
		"select the next message and move the list to its send (a "
		"count before it: that many)" },
	{ { 'k', FN(KEY_UP) }, NULL, SEQ_UP, NULL,
		"select the previous message and move the list to its send" },
	{ { FN(KEY_NPAGE), CTRL('f') }, NULL, SEQ_PAGE_DOWN, NULL,
		"select the message a page down" },
	{ { FN(KEY_PPAGE), CTRL('b') }, NULL, SEQ_PAGE_UP, NULL,
		"select the message a page up" },
	{ { 'g', FN(KEY_HOME) }, NULL, SEQ_FIRST, NULL,
		"select the page's first message" },
	{ { 'G', FN(KEY_END) }, NULL, SEQ_LAST, NULL,
		"select the page's last message" },
	{ { 'h', FN(KEY_LEFT) }, NULL, SEQ_LEFT, NULL,
		"scroll the lifelines left (when they do not all fit)" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, SEQ_RIGHT, NULL,
		"scroll the lifelines right" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, SEQ_SEND, NULL,
		"move the list to the selected message's send" },
	{ { 'r' }, NULL, SEQ_RECEIVE, NULL,
		"move the list to the selected message's receive" },
	{ { '/' }, NULL, SEQ_FIND, NULL,
		"find a message whose signal, sender or receiver matches a "
		"regex (smart case), after the selected one, in the "
		"background (Esc cancels)" },
	{ { 'n' }, NULL, SEQ_NEXT, NULL,
		"find the next message that matches" },
	{ { 'N' }, NULL, SEQ_PREVIOUS, NULL,
		"find the previous message that matches" },
	{ { 'x' }, NULL, SEQ_HIDE, NULL,
		"type a hide pattern (the prompt, with seq-hide)" },
	{ { 0 }, "wheel", SEQ_MOUSE, NULL,
		"mouse wheel over the pane: scroll 3 lines" },
	{ { 0 }, "click", SEQ_MOUSE, NULL,
		"mouse click on a message: select it" },
};

static const struct tn_tui_keymap seq_keys = {
	"Sequence diagram pane", seq_bindings, G_N_ELEMENTS(seq_bindings),
};

/* ---- the cursor's position, noted in the list's job ---- */

static void *seq_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	const struct seq_spot *old = old_cache;
	struct seq_spot *spot = g_new0(struct seq_spot, 1);
	struct tn_cursor *cursor = view->session->cursor;
	const struct tn_row *row = NULL;
	struct tn_error err;

	spot->serial = old ? old->serial + 1 : 1;
	spot->hide = tn_seq_hide_ref(view->session->seq.hide);
	spot->source = tn_session_get_seq_source(view->session);
	/* The list read the current row just before: peeking is enough. */
	if (!tn_cursor_is_empty(cursor)) {
		row = tn_cursor_peek_row(cursor, 0);
		if (!row && view->may_read)
			row = tn_cursor_row(cursor, 0, &err);
	}
	if (row) {
		spot->has_event = true;
		spot->pos = row->pos;
	}
	return spot;
}

static void spot_free(void *cache)
{
	struct seq_spot *spot = cache;

	if (spot)
		tn_seq_hide_unref(spot->hide);
	g_free(spot);
}

/* ---- moving the list ---- */

/* Move the list to the selected message's send (receive: its receive). */
static void send_list(struct tn_pane *pane, bool receive)
{
	struct seq_pane *p = pane->data;
	struct tn_position pos;

	if (!p->view.has_selected) {
		tn_pane_message(pane, true, "no message selected");
		return;
	}
	if (!tn_seq_view_message_end(&p->view, p->view.selected, receive,
			&pos)) {
		tn_pane_message(pane, true, "the selected message's "
			"receive was not seen (the ? at its head)");
		return;
	}
	p->has_sent = true;
	p->sent = pos;
	p->sent_message = p->view.selected;
	tn_pane_goto_position(pane, &pos);
}

/* Select message index and move the list to it. */
static void select_message(struct tn_pane *pane, long index)
{
	struct seq_pane *p = pane->data;
	size_t count = p->view.model ?
		tn_seq_model_get_message_count(p->view.model) : 0;

	if (count == 0)
		return;
	index = CLAMP(index, 0, (long) count - 1);
	tn_seq_pane_update_style(pane);
	tn_seq_view_select(&p->view, (size_t) index);
	tn_seq_view_keep_in_view(&p->view, tn_seq_pane_body_rows(pane));
	pane->dirty = true;
	send_list(pane, false);
}

/* ---- the page ---- */

static void want_page(struct seq_pane *p, const struct seq_spot *spot)
{
	p->wants_page = true;
	p->wanted = spot->pos;
	tn_seq_hide_unref(p->wanted_hide);
	p->wanted_hide = tn_seq_hide_ref(spot->hide);
	p->wanted_since = g_get_monotonic_time();
}

/* Select, in the page shown, the message pos selects, if the page has
 * what is around it: true when it did. */
static bool follow(struct tn_pane *pane, const struct tn_position *pos,
		const struct tn_seq_hide *hide)
{
	struct seq_pane *p = pane->data;
	size_t index;

	if (!p->has_page || !tn_seq_hide_equal(p->page_hide, hide) ||
	    !tn_seq_view_follow(&p->view, pos, MARGIN, &index))
		return false;
	tn_seq_pane_update_style(pane);
	tn_seq_view_select(&p->view, index);
	tn_seq_view_keep_in_view(&p->view, tn_seq_pane_body_rows(pane));
	pane->dirty = true;
	return true;
}

/* A new cache: the list's cursor moved (or the hide patterns changed). */
static void cursor_arrived(struct tn_pane *pane, const struct seq_spot *spot)
{
	struct seq_pane *p = pane->data;

	if (!spot->has_event)
		return;
	if (p->has_sent) {
		if (tn_position_compare(&spot->pos, &p->sent) == 0 &&
		    p->has_page && tn_seq_hide_equal(p->page_hide, spot->hide)) {
			/* Where the pane sent it: its message stays. */
			p->has_sent = false;
			p->wants_page = false;
			if (follow(pane, &spot->pos, spot->hide)) {
				tn_seq_view_select(&p->view, p->sent_message);
				tn_seq_view_keep_in_view(&p->view,
					tn_seq_pane_body_rows(pane));
			} else {
				want_page(p, spot);
			}
			return;
		}
		/* On its way there (another move queued): wait for it. */
		if (tn_pane_job_running(pane))
			return;
		p->has_sent = false;
	}
	if (follow(pane, &spot->pos, spot->hide))
		p->wants_page = false;
	else
		want_page(p, spot);
}

/* The page job ended: show its page. */
static void take_page(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	struct tn_seq_page_request *req = p->page_req;
	struct tn_job_progress progress;
	struct tn_seq_page *page;

	if (!p->page_job || !tn_job_has_ended(p->page_job))
		return;
	tn_job_get_progress(p->page_job, &progress);
	pane->dirty = true;
	page = &req->page;
	if (progress.state == TN_JOB_DONE) {
		size_t count = tn_seq_model_get_message_count(page->model);

		p->has_page = true;
		tn_seq_hide_unref(p->page_hide);
		p->page_hide = tn_seq_hide_ref(req->hide);
		g_free(p->loaders);
		p->loaders = g_strdup(page->loaders);
		g_clear_pointer(&p->error, g_free);
		/* Nothing before it when it starts the trace's messages (the
		 * selection keeps as many before it as the limits allow
		 * otherwise), nothing after it likewise. */
		tn_seq_view_set_page(&p->view, page->model,
			page->from_start && page->selected <
				req->limits.messages_before,
			page->to_end && count - page->selected <
				req->limits.messages_after,
			page->has_selected, page->selected);
		page->model = NULL;
		tn_seq_pane_update_style(pane);
		tn_seq_view_select(&p->view, p->view.selected);
		tn_seq_view_center(&p->view, tn_seq_pane_body_rows(pane));
		if (p->wants_page && !tn_position_compare(&p->wanted,
				&req->pos) && tn_seq_hide_equal(p->wanted_hide,
				req->hide))
			p->wants_page = false;
		else if (p->wants_page && follow(pane, &p->wanted,
				p->wanted_hide))
			p->wants_page = false;
	} else if (progress.state == TN_JOB_FAILED) {
		g_free(p->error);
		p->error = g_strdup(progress.message);
		tn_pane_message(pane, true, p->error);
		if (!tn_position_compare(&p->wanted, &req->pos))
			p->wants_page = false;
	}
	tn_job_destroy(p->page_job);
	p->page_job = NULL;
	p->page_req = NULL;
}

static void start_page(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	const struct seq_spot *spot = pane->cache;
	struct tn_seq_page_request *req = g_new0(struct tn_seq_page_request,
		1);
	struct tn_error err;

	req->trace = pane->host->session->trace;
	if (spot)
		req->source = spot->source;
	req->pos = p->wanted;
	req->limits = tn_seq_default_limits;
	req->hide = tn_seq_hide_ref(p->wanted_hide);
	if (tn_job_start(&tn_seq_page_job, req, &p->page_job, &err)) {
		tn_seq_hide_unref(req->hide);
		g_free(req);
		g_free(p->error);
		p->error = g_strdup(err.message);
		p->wants_page = false;
		pane->dirty = true;
		return;
	}
	p->page_req = req;
}

/* Start the page wanted, or cancel the one that loads for a position
 * left since.  Returns true while waiting to start one. */
static bool load_page(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;

	if (p->page_job) {
		/* The request's inputs do not change while it runs. */
		if (p->wants_page && (tn_position_compare(&p->page_req->pos,
				&p->wanted) || !tn_seq_hide_equal(
				p->page_req->hide, p->wanted_hide)))
			tn_job_cancel(p->page_job);
		return false;
	}
	if (!p->wants_page)
		return false;
	if (tn_pane_job_running(pane) ||
	    g_get_monotonic_time() - p->wanted_since < SETTLE_US)
		return true;
	start_page(pane);
	return false;
}

/* ---- find ---- */

static void take_find(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	struct tn_seq_find_job_request *req = p->find_req;
	struct tn_job_progress progress;
	char *text;

	if (!p->find_job || !tn_job_has_ended(p->find_job))
		return;
	tn_job_get_progress(p->find_job, &progress);
	pane->dirty = true;
	if (progress.state == TN_JOB_CANCELLED) {
		tn_pane_message(pane, false, "find cancelled");
	} else if (progress.state == TN_JOB_FAILED) {
		tn_pane_message(pane, true, progress.message);
	} else if (!req->result.found) {
		text = g_strdup_printf("no message matches: %s", p->pattern);
		tn_pane_message(pane, true, text);
		g_free(text);
	} else {
		tn_pane_goto_position(pane, &req->result.pos);
		if (req->result.wrapped)
			tn_pane_message(pane, false,
				req->find.backward ?
				"find hit TOP, continuing at BOTTOM" :
				"find hit BOTTOM, continuing at TOP");
	}
	tn_job_destroy(p->find_job);
	p->find_job = NULL;
	p->find_req = NULL;
}

/* Whether the selected message has an end at pos. */
static bool selected_is_at(const struct seq_pane *p,
		const struct tn_position *pos)
{
	struct tn_position end;

	return p->view.has_selected &&
		((tn_seq_view_message_end(&p->view, p->view.selected, false,
			&end) && !tn_position_compare(&end, pos)) ||
		 (tn_seq_view_message_end(&p->view, p->view.selected, true,
			&end) && !tn_position_compare(&end, pos)));
}

/* Find the next (backward: previous) message that matches the last
 * pattern, from the list's cursor: from the selected message when the
 * cursor is at one of its ends (the selection may lag behind while a
 * page loads; the cursor does not). */
static void find(struct tn_pane *pane, bool backward)
{
	struct seq_pane *p = pane->data;
	const struct seq_spot *spot = pane->cache;
	struct tn_seq_find_job_request *req;
	struct tn_position from;
	struct tn_error err;

	if (!p->pattern) {
		tn_pane_message(pane, true, "no find yet: / to find a "
			"message");
		return;
	}
	if (p->find_job) {
		tn_pane_message(pane, true, "a find runs: Esc cancels "
			"it");
		return;
	}
	if (!spot || !spot->has_event) {
		tn_pane_message(pane, true, "no event to find from");
		return;
	}
	from = spot->pos;
	if (selected_is_at(p, &from))
		tn_seq_view_message_end(&p->view, p->view.selected, false,
			&from);
	req = g_new0(struct tn_seq_find_job_request, 1);
	if (tn_regex_compile(p->pattern, &req->regex, &err)) {
		g_free(req);
		tn_pane_message(pane, true, err.message);
		return;
	}
	req->hide = tn_seq_hide_ref(p->has_page ? p->page_hide :
		spot ? spot->hide : NULL);
	req->find.trace = pane->host->session->trace;
	if (spot)
		req->find.source = spot->source;
	req->find.from = from;
	req->find.wrap = true;
	req->find.backward = backward;
	if (tn_job_start(&tn_seq_find_job, req, &p->find_job, &err)) {
		tn_regex_destroy(req->regex);
		tn_seq_hide_unref(req->hide);
		g_free(req);
		tn_pane_message(pane, true, err.message);
		return;
	}
	p->find_req = req;
	pane->dirty = true;
}

static void seq_prompt_done(struct tn_pane *pane, const char *text)
{
	struct seq_pane *p = pane->data;
	struct tn_regex *regex;
	struct tn_error err;

	if (text[strspn(text, " \t")]) {
		/* Said now rather than when the job starts. */
		if (tn_regex_compile(text, &regex, &err)) {
			tn_pane_message(pane, true, err.message);
			return;
		}
		tn_regex_destroy(regex);
		g_free(p->pattern);
		p->pattern = g_strdup(text);
	}
	find(pane, false);
}

/* Esc: the find stops. */
static bool seq_cancel(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;

	if (!p->find_job)
		return false;
	tn_job_cancel(p->find_job);
	return true;
}

/* ---- polling ---- */

/* What the title says while a job runs (after QUIET_SECONDS). */
static void note_progress(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	struct tn_job_progress progress;
	char *text = NULL;

	if (p->find_job) {
		tn_job_get_progress(p->find_job, &progress);
		if (progress.elapsed_seconds >= QUIET_SECONDS)
			text = progress.fraction >= 0 ?
				g_strdup_printf("finding %d%%...",
					(int) (progress.fraction * 100)) :
				g_strdup("finding...");
	} else if (p->page_job || p->wants_page) {
		if (p->page_job)
			tn_job_get_progress(p->page_job, &progress);
		if (!p->page_job || progress.elapsed_seconds >= QUIET_SECONDS ||
		    !p->has_page)
			text = g_strdup("loading messages...");
	}
	if (!g_strcmp0(text, p->progress)) {
		g_free(text);
		return;
	}
	g_free(p->progress);
	p->progress = text;
	pane->dirty = true;
}

static bool seq_poll(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	const struct seq_spot *spot;
	bool waiting;

	take_page(pane);
	/* It may move the list, whose job may end at once and replace the
	 * cache: the cache is read after it. */
	take_find(pane);
	spot = pane->cache;
	if (!pane->open || !pane->win) {
		/* Closed: nothing to load; the next opening notes the
		 * cursor's position again. */
		if (p->page_job)
			tn_job_cancel(p->page_job);
		if (p->find_job)
			tn_job_cancel(p->find_job);
		p->wants_page = false;
		p->has_sent = false;
		if (!pane->open && pane->cache)
			tn_pane_set_cache(pane, NULL);
		return p->page_job || p->find_job;
	}
	if (spot && spot->serial != p->seen) {
		p->seen = spot->serial;
		cursor_arrived(pane, spot);
	}
	waiting = load_page(pane);
	note_progress(pane);
	return waiting || p->page_job || p->find_job;
}

/* ---- keys ---- */

static bool seq_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct seq_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&seq_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;
	long page = (long) tn_seq_pane_body_rows(pane);
	long selected = (long) p->view.selected;
	long last = p->view.model ?
		(long) tn_seq_model_get_message_count(p->view.model) - 1 : -1;

	if (!b)
		return false;
	if (b->action >= SEQ_DOWN && b->action <= SEQ_RECEIVE && last < 0) {
		tn_pane_message(pane, true, p->has_page ?
			"no message here" : "the messages are loading");
		return true;
	}
	switch (b->action) {
	case SEQ_DOWN: select_message(pane, selected + count); break;
	case SEQ_UP: select_message(pane, selected - count); break;
	case SEQ_PAGE_DOWN: select_message(pane, selected + page); break;
	case SEQ_PAGE_UP: select_message(pane, selected - page); break;
	case SEQ_FIRST: select_message(pane, 0); break;
	case SEQ_LAST: select_message(pane, last); break;
	case SEQ_LEFT:
	case SEQ_RIGHT:
		tn_seq_pane_update_style(pane);
		if (!tn_seq_view_scroll_lifelines(&p->view,
				b->action == SEQ_LEFT ? -count : count))
			tn_pane_message(pane, false,
				b->action == SEQ_LEFT ? "the first lifeline "
				"shows" : "the last lifeline shows");
		pane->dirty = true;
		break;
	case SEQ_SEND: send_list(pane, false); break;
	case SEQ_RECEIVE: send_list(pane, true); break;
	case SEQ_FIND:
		tn_pane_open_own_prompt(pane, "/", "seq-find");
		break;
	case SEQ_NEXT: find(pane, false); break;
	case SEQ_PREVIOUS: find(pane, true); break;
	case SEQ_HIDE: tn_pane_open_prompt(pane, "seq-hide "); break;
	default: break;
	}
	return true;
}

/* The wheel scrolls; a click on a message selects it. */
static void seq_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct seq_pane *p = pane->data;
	size_t header = tn_seq_pane_header_rows(pane), message;
	long line = (long) p->view.top + (y - 1 - (long) header);

	(void) x;
	tn_seq_pane_update_style(pane);
	if (wheel) {
		tn_seq_view_scroll(&p->view, wheel > 0 ? WHEEL_LINES :
			-WHEEL_LINES, tn_seq_pane_body_rows(pane));
		pane->dirty = true;
		return;
	}
	if (y < 1 + (int) header || line < 0 ||
	    !tn_seq_view_message_at(&p->view, (size_t) line, &message))
		return;
	select_message(pane, (long) message);
}

/* ---- the class ---- */

static void seq_init(struct tn_pane *pane)
{
	struct seq_pane *p = g_new0(struct seq_pane, 1);

	tn_seq_view_init(&p->view);
	pane->data = p;
}

static void seq_destroy(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;

	if (!p)
		return;
	/* Cancels, waits, frees the requests. */
	tn_job_destroy(p->page_job);
	tn_job_destroy(p->find_job);
	tn_seq_view_fini(&p->view);
	tn_seq_hide_unref(p->page_hide);
	tn_seq_hide_unref(p->wanted_hide);
	g_free(p->loaders);
	g_free(p->error);
	g_free(p->pattern);
	g_free(p->progress);
	g_free(p);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_seq = {
	.name = "seq",
	.title = "Sequence diagram",
	.toggle_key = 'd',
	.toggle_help = "show or hide the sequence diagram pane (the messages "
		"around the cursor)",
	.layout = { TN_PANE_BOTTOM, 20, 3, 33, 0 },
	.keymap = &seq_keys,
	.init = seq_init,
	.destroy = seq_destroy,
	.cursor_moved = seq_cursor_moved,
	.cache_free = spot_free,
	.draw = tn_seq_pane_draw,
	.key = seq_key,
	.mouse = seq_mouse,
	.poll = seq_poll,
	.prompt_done = seq_prompt_done,
	.cancel = seq_cancel,
};
