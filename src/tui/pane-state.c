/* pane-state.c - the state tree pane: the state of the system at the
 * list's current event (what each CPU runs, what each thread does, the
 * IRQs, the call stacks), as a collapsible tree of attributes with
 * their values, since when they hold and for how long.
 *
 * The list's job only notes where the cursor is (cursor_moved: the
 * current row's position, read from what the cursor holds).  The query
 * itself runs in a job of the pane's own (state-job.h), which the input
 * loop polls (poll): a query that takes long, before the state pass got
 * there, never holds up a move of the list nor a key.  One query runs
 * at a time; when the cursor moved on meanwhile, it is cancelled and the
 * next one is for the newest position only.
 *
 * The tree's model (labels, folds, rows, search) is state-tree.c; the
 * drawing state-draw.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/cursor.h"
#include "tracenav/time.h"
#include "state-pane.h"

/* Events read past the cursor to find where the values end, kept for
 * the next query forward.  On a generated kernel trace of 25 000
 * attributes a query at the next event takes about 21 ms without, 38
 * with 1024 and 58 with 4096 (copying the state to read on costs the
 * most).  Ends farther than that show as "> DURATION" (] looks for
 * them). */
#define END_HORIZON 2048
/* A query that ends within this shows no "computing" line. */
#define QUIET_SECONDS 0.1
/* A query starts once the cursor stayed this long on an event and the
 * list's job ended: keys typed in a burst (a held j) start no query
 * that the next move would cancel, nor take a core from the list. */
#define SETTLE_US 30000

enum state_action {
	STATE_NONE,
	STATE_DOWN,
	STATE_UP,
	STATE_PAGE_DOWN,
	STATE_PAGE_UP,
	STATE_FIRST,
	STATE_LAST,
	STATE_TOGGLE,
	STATE_OPEN,
	STATE_CLOSE,
	STATE_OPEN_ALL,
	STATE_SEARCH,
	STATE_NEXT,
	STATE_PREVIOUS,
	STATE_GO_START,
	STATE_GO_END,
	STATE_MOUSE,		/* documented: see state_mouse */
};

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

static const struct tn_tui_binding state_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, STATE_DOWN, NULL,
		"next attribute (a count before it: that many)" },
	{ { 'k', FN(KEY_UP) }, NULL, STATE_UP, NULL,
		"previous attribute" },
	{ { FN(KEY_NPAGE), CTRL('f') }, NULL, STATE_PAGE_DOWN, NULL,
		"next page of the tree" },
	{ { FN(KEY_PPAGE), CTRL('b') }, NULL, STATE_PAGE_UP, NULL,
		"previous page of the tree" },
	{ { 'g', FN(KEY_HOME) }, NULL, STATE_FIRST, NULL,
		"first attribute" },
	{ { 'G', FN(KEY_END) }, NULL, STATE_LAST, NULL,
		"last attribute shown" },
	{ { '\n', '\r', FN(KEY_ENTER), ' ' }, NULL, STATE_TOGGLE, NULL,
		"open or fold the selected node (+ folded, - open)" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, STATE_OPEN, NULL,
		"open the node; on an open one, go to its first child" },
	{ { 'h', FN(KEY_LEFT) }, NULL, STATE_CLOSE, NULL,
		"fold the node; on a leaf or a folded one, go to its parent" },
	{ { '*' }, NULL, STATE_OPEN_ALL, NULL,
		"open every node (again: back to the top level only)" },
	{ { '/' }, NULL, STATE_SEARCH, NULL,
		"search the tree: a regex (smart case) on the labels and "
		"values; Enter selects the next match, opening what hides it" },
	{ { 'n' }, NULL, STATE_NEXT, NULL,
		"the next match in the tree" },
	{ { 'N' }, NULL, STATE_PREVIOUS, NULL,
		"the previous match in the tree" },
	{ { '[' }, NULL, STATE_GO_START, NULL,
		"move the list to the event that set the selected attribute's "
		"value" },
	{ { ']' }, NULL, STATE_GO_END, NULL,
		"move the list to the event that changes it next (looked for "
		"in the background when it is far)" },
	{ { 0 }, "wheel", STATE_MOUSE, NULL,
		"mouse wheel over the pane: move 3 attributes" },
	{ { 0 }, "click", STATE_MOUSE, NULL,
		"mouse click on an attribute: select it; on the selected "
		"node: open or fold it" },
};

static const struct tn_tui_keymap state_keys = {
	"State tree pane", state_bindings, G_N_ELEMENTS(state_bindings),
};

/* ---- the cursor's position, noted in the list's job ---- */

static void *state_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	struct state_spot *spot = g_new0(struct state_spot, 1);
	struct tn_cursor *cursor = view->session->cursor;
	const struct tn_row *row = NULL;
	struct tn_error err;

	(void) old_cache;
	spot->snapshots = view->session->state.snapshots;
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

/* ---- rows and the selection ---- */

static const struct tn_state_tree_row *selected_row(
		const struct state_view *v)
{
	if (v->selected < 0 || v->selected >= (long) v->rows->len)
		return NULL;
	return &g_array_index(v->rows, struct tn_state_tree_row,
		v->selected);
}

static const struct tn_state_entry *selected_entry(
		const struct state_view *v)
{
	const struct tn_state_tree_row *row = selected_row(v);

	return row ? tn_state_tree_borrow_entry(v->tree, row->entry) : NULL;
}

/* Scroll so that the selection shows. */
static void keep_in_view(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	int lines = MAX(tn_state_pane_tree_lines(pane), 1);
	int count = (int) v->rows->len;

	if (v->selected >= 0 && v->selected < v->top)
		v->top = (int) v->selected;
	if (v->selected >= v->top + lines)
		v->top = (int) v->selected - lines + 1;
	v->top = CLAMP(v->top, 0, MAX(count - lines, 0));
	pane->dirty = true;
}

static void select_row(struct tn_pane *pane, long row)
{
	struct state_view *v = pane->data;
	const struct tn_state_entry *entry;

	if (!v->rows->len)
		return;
	v->chosen = true;
	v->selected = CLAMP(row, 0, (long) v->rows->len - 1);
	entry = selected_entry(v);
	g_free(v->selected_path);
	v->selected_path = g_strdup(entry->path);
	keep_in_view(pane);
}

/* The rows again (the folds or the result changed), the selection on
 * the same attribute if it shows, else on its nearest ancestor that
 * does, at the same screen row. */
static void refresh_rows(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	int offset = (int) v->selected - v->top;
	char *path = v->chosen ? g_strdup(v->selected_path) : NULL;
	long row = -1;

	tn_state_tree_flatten(v->tree, v->folds, v->rows);
	while (path && row < 0) {
		long entry = v->tree ? tn_state_tree_find_path(v->tree, path) :
			-1;
		char *slash = strrchr(path, '/');

		if (entry >= 0)
			row = tn_state_tree_row_of(v->rows, (size_t) entry);
		if (row >= 0 || !slash)
			break;
		*slash = 0;
	}
	g_free(path);
	if (!v->rows->len) {
		v->selected = -1;
		v->top = 0;
		pane->dirty = true;
		return;
	}
	if (row < 0)
		row = v->chosen ? MIN(MAX(v->selected, 0),
			(long) v->rows->len - 1) : 0;
	v->selected = row;
	v->top = (int) row - MAX(offset, 0);
	g_free(v->selected_path);
	v->selected_path = g_strdup(selected_entry(v)->path);
	keep_in_view(pane);
}

/* A full answer (the result and its tree, taken): the tree shows it. */
static void show_result(struct tn_pane *pane, struct tn_state_result *result,
		struct tn_state_tree *tree)
{
	struct state_view *v = pane->data;
	char *kept = g_strdup(v->selected_path);

	tn_state_tree_destroy(v->tree);
	if (v->result)
		tn_state_result_destroy(v->result);
	v->result = result;
	v->tree = tree;
	refresh_rows(pane);
	/* A thread that went away gave the selection to its parent: keep
	 * looking for it in the next results. */
	if (kept && v->selected_path && strcmp(kept, v->selected_path) &&
	    g_str_has_prefix(kept, v->selected_path)) {
		g_free(v->selected_path);
		v->selected_path = kept;
		kept = NULL;
	}
	g_free(kept);
}

/* ---- moving the list ---- */

static void go_start(struct tn_pane *pane)
{
	const struct tn_state_entry *entry = selected_entry(pane->data);

	if (!entry) {
		tn_pane_message(pane, true, "no attribute selected");
		return;
	}
	if (!entry->start.has_pos) {
		char *text = g_strdup_printf("%s: no event of the trace set "
			"its value (it holds since before the first event)",
			entry->path);

		tn_pane_message(pane, false, text);
		g_free(text);
		return;
	}
	tn_pane_goto_position(pane, &entry->start.pos);
}

/* Where a value ends, found by a query (END) or by the full one. */
static void go_end_of(struct tn_pane *pane, const struct tn_state_entry *entry,
		const char *path)
{
	char *text;

	if (entry->has_end && entry->end.has_pos) {
		tn_pane_goto_position(pane, &entry->end.pos);
		return;
	}
	text = g_strdup_printf("%s keeps its value to the end of the trace",
		path);
	tn_pane_message(pane, false, text);
	g_free(text);
}

static void go_end(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	const struct state_spot *spot = pane->cache;
	const struct tn_state_entry *entry = selected_entry(v);
	struct tn_error err;
	char *text;

	if (!entry) {
		tn_pane_message(pane, true, "no attribute selected");
		return;
	}
	if (entry->has_end) {
		go_end_of(pane, entry, entry->path);
		return;
	}
	if (tn_state_jobs_is_running(v->jobs)) {
		tn_pane_message(pane, true, "the state is being "
			"computed: ] once it shows");
		return;
	}
	if (tn_state_jobs_start_end(v->jobs, spot ? spot->snapshots : NULL,
			&v->result->pos, entry->path, &err)) {
		tn_pane_message(pane, true, err.message);
		return;
	}
	text = g_strdup_printf("looking for where %s changes...",
		entry->path);
	tn_pane_message(pane, false, text);
	g_free(text);
}

/* ---- the queries ---- */

static void take_answer(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	struct tn_state_job_answer answer;
	bool cancelled;
	struct tn_error err;
	int status = tn_state_jobs_finish(v->jobs, &answer, &cancelled, &err);

	if (status == 0)
		return;
	pane->dirty = true;
	if (status < 0) {
		if (cancelled)
			return;
		if (answer.kind == TN_STATE_JOB_END) {
			tn_pane_message(pane, true, err.message);
			return;
		}
		/* Not again for this event: the tree says why. */
		v->has_tried = true;
		v->tried = answer.pos;
		g_free(v->error);
		v->error = g_strdup(err.message);
		return;
	}
	if (answer.kind == TN_STATE_JOB_END) {
		go_end_of(pane, &answer.entry, answer.path);
	} else {
		v->has_tried = true;
		v->tried = answer.pos;
		g_clear_pointer(&v->error, g_free);
		show_result(pane, answer.result, answer.tree);
		answer.result = NULL;
		answer.tree = NULL;
	}
	tn_state_job_answer_clear(&answer);
}

/* Replace *old by text (taken); true if it changed. */
static bool replace_text(char **old, char *text)
{
	if (!g_strcmp0(text, *old)) {
		g_free(text);
		return false;
	}
	g_free(*old);
	*old = text;
	return true;
}

/* "1234", "45.6k", "1.2M": a count in a few columns. */
static void append_count(GString *out, uint64_t n)
{
	if (n >= 1000000)
		g_string_append_printf(out, "%.1fM", (double) n / 1e6);
	else if (n >= 10000)
		g_string_append_printf(out, "%.0fk", (double) n / 1e3);
	else
		g_string_append_printf(out, "%" PRIu64, n);
}

/* What the status line and the title say while a query runs (after
 * QUIET_SECONDS: a quick one changes nothing but the tree). */
static void note_progress(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	struct tn_job_progress progress;
	struct tn_position pos;
	GString *text = NULL, *activity = NULL;
	bool changed;

	if (tn_state_jobs_get_progress(v->jobs, &progress, &pos) &&
	    progress.elapsed_seconds >= QUIET_SECONDS) {
		text = g_string_new(NULL);
		if (tn_state_jobs_get_kind(v->jobs) == TN_STATE_JOB_END) {
			g_string_append(text, "looking for where the value "
				"ends...");
		} else {
			g_string_append(text, "computing state at ");
			tn_time_format_wall(text, pos.ns,
				pane->host->session->view.gmt, false);
			g_string_append(text, "...");
		}
		if (progress.activity[0]) {
			activity = g_string_new(progress.activity);
			g_string_append_c(activity, ' ');
			append_count(activity, progress.items);
		}
	}
	changed = replace_text(&v->progress_text, text ?
		g_string_free(text, FALSE) : NULL);
	changed |= replace_text(&v->progress_activity, activity ?
		g_string_free(activity, FALSE) : NULL);
	if (changed)
		pane->dirty = true;
}

static void start_query(struct tn_pane *pane, const struct state_spot *spot)
{
	struct state_view *v = pane->data;
	struct tn_error err;

	if (!tn_state_jobs_start_full(v->jobs, spot->snapshots, &spot->pos,
			END_HORIZON, &err))
		return;
	v->has_tried = true;
	v->tried = spot->pos;
	g_free(v->error);
	v->error = g_strdup(err.message);
	pane->dirty = true;
}

static bool state_poll(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	const struct state_spot *spot;
	struct tn_job_progress progress;
	struct tn_position running;
	bool waiting = false;

	take_answer(pane);
	if (!pane->open || !pane->win) {
		/* Closed: nothing to compute; the next opening notes the
		 * cursor's position again. */
		tn_state_jobs_cancel(v->jobs);
		if (!pane->open && pane->cache)
			tn_pane_set_cache(pane, NULL);
		return tn_state_jobs_is_running(v->jobs);
	}
	spot = pane->cache;
	if (spot && spot->has_event) {
		if (!v->has_wanted || tn_position_compare(&v->wanted,
				&spot->pos)) {
			v->has_wanted = true;
			v->wanted = spot->pos;
			v->wanted_since = g_get_monotonic_time();
		}
		if (tn_state_jobs_get_progress(v->jobs, &progress, &running)) {
			/* The cursor moved on: only its newest position. */
			if (tn_state_jobs_get_kind(v->jobs) ==
			    TN_STATE_JOB_FULL && tn_position_compare(&running,
					&spot->pos))
				tn_state_jobs_cancel(v->jobs);
		} else if (!v->has_tried ||
			   tn_position_compare(&v->tried, &spot->pos)) {
			if (tn_pane_job_running(pane) ||
			    g_get_monotonic_time() - v->wanted_since <
					SETTLE_US)
				waiting = true;
			else
				start_query(pane, spot);
		}
	}
	note_progress(pane);
	return waiting || tn_state_jobs_is_running(v->jobs);
}

/* ---- keys ---- */

static void toggle(struct tn_pane *pane, bool open)
{
	struct state_view *v = pane->data;
	const struct tn_state_tree_row *row = selected_row(v);

	if (!row || !row->has_children || row->open == open)
		return;
	v->chosen = true;
	tn_state_folds_set(v->folds, tn_state_tree_borrow_entry(v->tree,
		row->entry), open);
	refresh_rows(pane);
}

static void open_or_enter(struct tn_pane *pane)
{
	const struct tn_state_tree_row *row = selected_row(pane->data);

	if (row && row->has_children && row->open)
		select_row(pane, ((struct state_view *) pane->data)->selected +
			1);
	else
		toggle(pane, true);
}

static void close_or_leave(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	const struct tn_state_tree_row *row = selected_row(v);
	long parent;

	if (!row)
		return;
	if (row->has_children && row->open) {
		toggle(pane, false);
		return;
	}
	parent = tn_state_tree_get_parent(v->tree, row->entry);
	if (parent >= 0)
		select_row(pane, tn_state_tree_row_of(v->rows,
			(size_t) parent));
}

static void open_all(struct tn_pane *pane)
{
	struct state_view *v = pane->data;
	bool all = !tn_state_folds_get_all_open(v->folds);

	tn_state_folds_set_all_open(v->folds, all);
	refresh_rows(pane);
	tn_pane_message(pane, false, all ? "every node open (* "
		"again: the top level only)" : "the top level only");
}

static void search_go(struct tn_pane *pane, bool forward)
{
	struct state_view *v = pane->data;
	const struct tn_state_tree_row *row = selected_row(v);
	char *text;
	bool wrapped;
	long found;

	if (!v->matcher) {
		tn_pane_message(pane, true, "no search in the tree "
			"yet: / to search");
		return;
	}
	if (!v->tree) {
		tn_pane_message(pane, true, "no state to search yet");
		return;
	}
	found = tn_state_tree_search(v->tree, v->matcher,
		row ? (long) row->entry : -1, forward, &wrapped);
	if (found < 0) {
		text = g_strdup_printf("Pattern not found: %s",
			tn_regex_get_pattern(v->regex));
		tn_pane_message(pane, true, text);
		g_free(text);
		return;
	}
	tn_state_folds_reveal(v->folds, v->tree, (size_t) found);
	refresh_rows(pane);
	select_row(pane, tn_state_tree_row_of(v->rows, (size_t) found));
	tn_pane_message(pane, false, !wrapped ? "" : forward ?
		"search hit BOTTOM, continuing at TOP" :
		"search hit TOP, continuing at BOTTOM");
}

static void state_prompt_done(struct tn_pane *pane, const char *text)
{
	struct state_view *v = pane->data;
	struct tn_regex *regex;
	struct tn_error err;

	if (!text[strspn(text, " \t")]) {
		search_go(pane, true);
		return;
	}
	if (tn_regex_compile(text, &regex, &err)) {
		tn_pane_message(pane, true, err.message);
		return;
	}
	tn_regex_matcher_free(v->matcher);
	tn_regex_destroy(v->regex);
	v->regex = regex;
	v->matcher = tn_regex_matcher_new(regex);
	search_go(pane, true);
}

static bool state_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct state_view *v = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&state_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;
	int page = MAX(tn_state_pane_tree_lines(pane), 1);

	if (!b)
		return false;
	switch (b->action) {
	case STATE_DOWN: select_row(pane, v->selected + count); break;
	case STATE_UP: select_row(pane, v->selected - count); break;
	case STATE_PAGE_DOWN:
		v->top += page;
		select_row(pane, v->selected + page);
		break;
	case STATE_PAGE_UP:
		v->top -= page;
		select_row(pane, v->selected - page);
		break;
	case STATE_FIRST: select_row(pane, 0); break;
	case STATE_LAST: select_row(pane, (long) v->rows->len - 1); break;
	case STATE_TOGGLE: {
		const struct tn_state_tree_row *row = selected_row(v);

		if (row)
			toggle(pane, !row->open);
		break;
	}
	case STATE_OPEN: open_or_enter(pane); break;
	case STATE_CLOSE: close_or_leave(pane); break;
	case STATE_OPEN_ALL: open_all(pane); break;
	case STATE_SEARCH:
		tn_pane_open_own_prompt(pane, "/",
			"state-find");
		break;
	case STATE_NEXT: search_go(pane, true); break;
	case STATE_PREVIOUS: search_go(pane, false); break;
	case STATE_GO_START: go_start(pane); break;
	case STATE_GO_END: go_end(pane); break;
	default: break;
	}
	return true;
}

/* The wheel moves the selection; a click selects a row, and a click on
 * the selected node opens or folds it. */
static void state_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct state_view *v = pane->data;
	long row = v->top + (y - 2);	/* under the title and status */

	(void) x;
	if (wheel) {
		select_row(pane, v->selected + wheel);
		return;
	}
	if (y < 2 || y >= 2 + tn_state_pane_tree_lines(pane) || row < 0 ||
	    row >= (long) v->rows->len)
		return;
	if (row == v->selected) {
		const struct tn_state_tree_row *r = selected_row(v);

		toggle(pane, !r->open);
		return;
	}
	select_row(pane, row);
}

/* ---- the class ---- */

static void state_init(struct tn_pane *pane)
{
	struct state_view *v = g_new0(struct state_view, 1);

	v->jobs = tn_state_jobs_create(pane->host->session->trace,
		pane->host->session->state.symbols);
	v->folds = tn_state_folds_create();
	v->rows = g_array_new(FALSE, FALSE, sizeof(struct tn_state_tree_row));
	v->selected = -1;
	pane->data = v;
}

static void state_destroy(struct tn_pane *pane)
{
	struct state_view *v = pane->data;

	if (!v)
		return;
	tn_state_jobs_destroy(v->jobs);
	tn_state_tree_destroy(v->tree);
	if (v->result)
		tn_state_result_destroy(v->result);
	tn_state_folds_destroy(v->folds);
	g_array_free(v->rows, TRUE);
	g_free(v->error);
	g_free(v->selected_path);
	tn_regex_matcher_free(v->matcher);
	tn_regex_destroy(v->regex);
	g_free(v->progress_text);
	g_free(v->progress_activity);
	g_free(v);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_state = {
	.name = "state",
	.title = "State tree",
	.toggle_key = 's',
	.toggle_help = "show or hide the state tree pane (the state of the "
		"system at the cursor)",
	.layout = { TN_PANE_RIGHT, 24, 3, 36, 0 },
	.keymap = &state_keys,
	.init = state_init,
	.destroy = state_destroy,
	.cursor_moved = state_cursor_moved,
	.cache_free = g_free,
	.draw = tn_state_pane_draw,
	.key = state_key,
	.mouse = state_mouse,
	.poll = state_poll,
	.prompt_done = state_prompt_done,
};
