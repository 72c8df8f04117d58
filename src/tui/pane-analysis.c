/* pane-analysis.c - the analysis pane: a kernel analysis of the range
 * (or of the whole trace) as a sortable table: cputop, syscallstats,
 * irqstats or schedtop (the one the last analysis command chose, as
 * session->view.analysis_name says; ] and [ choose the next and previous
 * one), each with its tables (t: the next table).
 *
 * The analysis runs in the list's job when the cursor moved and the
 * analysis, the range or the index changed since (the old result is
 * kept otherwise): a long range takes seconds, with progress on the
 * status bar and Esc to cancel.  The whole trace's is the state pass's
 * (it computes all four as it reads the trace): while the pass runs the
 * pane says how far it got, then asks for the result.  The result
 * is shared between a cache and the next one (a reference count): a
 * cache is copied on every move.
 */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tracenav/analysis.h"
#include "tracenav/time.h"
#include "draw.h"
#include "pane.h"
#include "rows.h"
#include "text.h"

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

/* A result shared by the caches that show it. */
struct shared_result {
	int refs;			/* atomic */
	struct tn_analysis_result *result;
};

/* What the pane shows: one analysis of one range of one index. */
struct analysis_cache {
	const char *name;		/* the analysis */
	const struct tn_index *index;	/* it ran with */
	bool has_events;
	bool not_kernel;		/* the trace has no kernel events */
	int64_t begin_ns, end_ns;
	bool is_range;
	struct shared_result *shared;	/* NULL: did not run */
	char *error;			/* why it could not */
	bool cancelled;			/* run it again on the next move */
	/* The whole trace, while the state pass (which computes it) runs:
	 * not run here; the pane asks again once the pass is done. */
	bool waiting;
};

struct analysis_pane {
	const struct tn_analysis_result *shown;	/* the result shown */
	const char *shown_name;		/* its analysis */
	const void *asked_for;		/* the waiting cache it asked again for */
	int drawn_percent;		/* of the state pass, while waiting */
	size_t table;			/* which table of the result */
	struct tn_tui_rows rows;
};

enum analysis_action {
	AN_DOWN = TN_ROWS_DOWN,
	AN_UP = TN_ROWS_UP,
	AN_PAGE_DOWN = TN_ROWS_PAGE_DOWN,
	AN_PAGE_UP = TN_ROWS_PAGE_UP,
	AN_FIRST = TN_ROWS_FIRST,
	AN_LAST = TN_ROWS_LAST,
	AN_NEXT_ANALYSIS,
	AN_PREV_ANALYSIS,
	AN_NEXT_TABLE,
	AN_SORT_NEXT,
	AN_SORT_PREV,
	AN_REVERSE,
};

static const struct tn_tui_binding analysis_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, AN_DOWN, NULL, "next row" },
	{ { 'k', FN(KEY_UP) }, NULL, AN_UP, NULL, "previous row" },
	{ { FN(KEY_NPAGE), CTRL('f') }, NULL, AN_PAGE_DOWN, NULL,
		"next page of rows" },
	{ { FN(KEY_PPAGE), CTRL('b') }, NULL, AN_PAGE_UP, NULL,
		"previous page of rows" },
	{ { 'g', FN(KEY_HOME) }, NULL, AN_FIRST, NULL, "the first row" },
	{ { 'G', FN(KEY_END) }, NULL, AN_LAST, NULL, "the last row" },
	{ { ']' }, NULL, AN_NEXT_ANALYSIS, NULL,
		"the next analysis (cputop, syscallstats, irqstats, "
		"schedtop)" },
	{ { '[' }, NULL, AN_PREV_ANALYSIS, NULL, "the previous analysis" },
	{ { 't' }, NULL, AN_NEXT_TABLE, NULL,
		"the analysis's next table (per thread, per CPU...)" },
	{ { '>' }, NULL, AN_SORT_NEXT, NULL,
		"sort by the next column (numbers most first)" },
	{ { '<' }, NULL, AN_SORT_PREV, NULL, "sort by the previous column" },
	{ { 'r' }, NULL, AN_REVERSE, NULL, "reverse the order" },
};

static const struct tn_tui_keymap analysis_keys = {
	"Analysis pane", analysis_bindings, G_N_ELEMENTS(analysis_bindings),
};

static void shared_unref(struct shared_result *shared)
{
	if (shared && g_atomic_int_dec_and_test(&shared->refs)) {
		tn_analysis_result_destroy(shared->result);
		g_free(shared);
	}
}

static void analysis_cache_free(void *data)
{
	struct analysis_cache *cache = data;

	if (!cache)
		return;
	shared_unref(cache->shared);
	g_free(cache->error);
	g_free(cache);
}

static struct analysis_cache *copy_cache(const struct analysis_cache *old)
{
	struct analysis_cache *cache = g_memdup2(old, sizeof(*old));

	cache->error = g_strdup(old->error);
	if (cache->shared)
		g_atomic_int_inc(&cache->shared->refs);
	return cache;
}

/* In the list's job: run the analysis again when it, the index or the
 * range changed. */
static void *analysis_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	const struct analysis_cache *old = old_cache;
	struct tn_session *session = view->session;
	const char *name = session->view.analysis_name ?
		session->view.analysis_name : tn_analysis_names()[0];
	struct tn_analysis_result *result;
	struct analysis_cache *cache;
	struct tn_error err;
	int64_t begin = 0, end = 0;
	bool has_events = tn_session_get_range(session, &begin, &end);

	if (old && old->name == name && old->index == session->indexing.index &&
	    old->has_events == has_events && old->begin_ns == begin &&
	    old->end_ns == end && !old->cancelled && !old->waiting &&
	    (old->shared || old->error || !old->index || !old->has_events ||
	     old->not_kernel))
		return copy_cache(old);
	cache = g_new0(struct analysis_cache, 1);
	cache->name = name;
	cache->index = session->indexing.index;
	cache->has_events = has_events;
	cache->begin_ns = begin;
	cache->end_ns = end;
	cache->is_range = session->view.has_range;
	cache->not_kernel = !tn_analysis_applies(session->trace);
	if (!session->indexing.index || !has_events || cache->not_kernel)
		return cache;
	if (!view->may_read) {
		cache->cancelled = true;
		return cache;
	}
	if (!session->view.has_range &&
	    tn_preparse_service_computes_state(&session->preparse) &&
	    !tn_state_service_borrow_complete(&session->state)) {
		cache->waiting = true;
		return cache;
	}
	if (tn_analysis_run(session->trace, session->state.snapshots, name,
			begin, end, g_get_num_processors(), &result, &err)) {
		cache->cancelled = strcmp(err.message, "cancelled") == 0;
		cache->error = g_strdup(err.message);
		return cache;
	}
	cache->shared = g_new0(struct shared_result, 1);
	cache->shared->refs = 1;
	cache->shared->result = result;
	return cache;
}

static struct tn_analysis_result *shown_result(const struct tn_pane *pane)
{
	const struct analysis_cache *cache = pane->cache;

	return cache && cache->shared ? cache->shared->result : NULL;
}

/* The table shown; another analysis starts at its first table (the
 * same one of another range keeps the table). */
static struct tn_analysis_table *shown_table(struct tn_pane *pane)
{
	struct analysis_pane *p = pane->data;
	struct tn_analysis_result *result = shown_result(pane);

	if (!result || result->table_count == 0)
		return NULL;
	if (p->shown != result) {
		if (p->shown_name != result->analysis ||
		    p->table >= result->table_count)
			p->table = 0;
		p->shown = result;
		p->shown_name = result->analysis;
		p->rows.selected = p->rows.top = 0;
	}
	return &result->tables[p->table];
}

static long row_count(struct tn_pane *pane)
{
	struct tn_analysis_table *table = shown_table(pane);

	return table ? (long) table->row_count : 0;
}

/* Lines of rows: under the summary and the column heads. */
static int list_lines(const struct tn_pane *pane)
{
	return MAX(pane->rect.h - 3, 1);
}

static void select_row(struct tn_pane *pane, long row)
{
	struct analysis_pane *p = pane->data;

	tn_tui_rows_select(&p->rows, row, row_count(pane), list_lines(pane));
	pane->dirty = true;
}

/* A duration as people read it: "812 ns", "12.345 us", "3.210 ms",
 * "1.500 s". */
static void format_ns(GString *out, double ns)
{
	double a = fabs(ns);

	if (a < 1e3)
		g_string_append_printf(out, "%.0f ns", ns);
	else if (a < 1e6)
		g_string_append_printf(out, "%.3f us", ns / 1e3);
	else if (a < 1e9)
		g_string_append_printf(out, "%.3f ms", ns / 1e6);
	else
		g_string_append_printf(out, "%.3f s", ns / 1e9);
}

static void format_cell(GString *out, const struct tn_analysis_cell *cell)
{
	switch (cell->type) {
	case TN_CELL_NONE: g_string_append_c(out, '-'); break;
	case TN_CELL_TEXT: g_string_append(out, cell->u.text); break;
	case TN_CELL_INT:
		g_string_append_printf(out, "%" PRId64, cell->u.i);
		break;
	case TN_CELL_NS: format_ns(out, cell->u.d); break;
	case TN_CELL_PERCENT:
		g_string_append_printf(out, "%.2f%%", cell->u.d);
		break;
	}
}

/* The columns text takes on the screen: escaped (text.h), so that
 * control characters and invalid UTF-8 in a thread's name, and wide
 * characters, keep the columns aligned. */
static int text_columns(const char *text)
{
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int cols = tn_tui_text_decode(chars, text, -1, -1);

	g_array_free(chars, TRUE);
	return cols;
}

/* The width of each column: its head or its widest cell, up to 32. */
static void column_widths(const struct tn_analysis_table *table, int *widths)
{
	GString *text = g_string_new(NULL);

	for (size_t c = 0; c < table->column_count; c++)
		widths[c] = (int) strlen(table->columns[c].name) + 1;
	for (size_t r = 0; r < table->row_count; r++) {
		for (size_t c = 0; c < table->column_count; c++) {
			int w;

			g_string_truncate(text, 0);
			format_cell(text, tn_analysis_cell_at(table, r, c));
			w = text_columns(text->str);
			if (w > widths[c])
				widths[c] = MIN(w, 32);
		}
	}
	g_string_free(text, TRUE);
}

/* Append text in a column of width w, escaped and cut to it: numbers
 * to the right. */
static void append_cell(GString *line, const char *text, int w, bool right)
{
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int pad = w - tn_tui_text_decode(chars, text, -1, w);

	if (line->len)
		g_string_append_c(line, ' ');
	if (right)
		for (int i = 0; i < pad; i++)
			g_string_append_c(line, ' ');
	for (guint i = 0; i < chars->len; i++)
		g_string_append_unichar(line,
			(gunichar) g_array_index(chars, wchar_t, i));
	if (!right)
		for (int i = 0; i < pad; i++)
			g_string_append_c(line, ' ');
	g_array_free(chars, TRUE);
}

/* "cputop, CPU time per thread (1/2), whole trace: 1234 events". */
static char *summary(struct tn_pane *pane)
{
	const struct analysis_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = pane->host->index;
	struct analysis_pane *p = pane->data;
	struct tn_analysis_table *table = shown_table(pane);
	GString *text;

	if (!cache || !cache->index) {
		if (index->building)
			return g_strdup("the analyses need the index: "
				"indexing...");
		return g_strdup("The analyses need the index: type :index to "
			"build it.");
	}
	if (cache->error)
		return g_strdup_printf("%s: %s%s", cache->name, cache->error,
			cache->cancelled ? " (move the cursor to run it "
			"again)" : "");
	if (!cache->has_events)
		return g_strdup("no event");
	if (cache->not_kernel)
		return g_strdup_printf("%s: the analyses read the events of "
			"an LTTng kernel trace, which this one is not",
			cache->name);
	if (cache->waiting)
		return g_strdup_printf("%s of the whole trace: the state pass "
			"computes it (%d%%)", cache->name,
			(int) (index->state_progress.fraction * 100));
	if (!table)
		return g_strdup_printf("%s: not run yet (move the cursor)",
			cache->name);
	text = g_string_new(NULL);
	g_string_append_printf(text, "%s: %s (%zu/%zu), ", cache->name,
		table->title, p->table + 1, shown_result(pane)->table_count);
	if (cache->is_range) {
		g_string_append(text, "range ");
		tn_time_format_seconds(text, cache->end_ns - cache->begin_ns);
		g_string_append(text, " s");
	} else {
		g_string_append(text, "whole trace");
	}
	g_string_append_printf(text, ", %" PRIu64 " events",
		shown_result(pane)->events);
	return g_string_free(text, FALSE);
}

static void analysis_draw(struct tn_pane *pane, WINDOW *win)
{
	struct analysis_pane *p = pane->data;
	struct tn_analysis_table *table;
	bool focused = tn_pane_is_focused(pane);
	GString *line, *cell;
	int h, w, x, *widths;
	char *text;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	if (h < 2 || w <= x)
		return;
	text = summary(pane);
	tn_tui_draw_utf8(win, 1, x, text, w - x);
	g_free(text);
	table = shown_table(pane);
	if (!table || h < 3)
		return;
	widths = g_new(int, table->column_count);
	column_widths(table, widths);
	line = g_string_new(NULL);
	cell = g_string_new(NULL);
	for (size_t c = 0; c < table->column_count; c++) {
		bool number = table->columns[c].type != TN_CELL_TEXT;

		g_string_assign(cell, table->columns[c].name);
		if (c == table->sort_column)
			g_string_append_c(cell, table->sort_descending ? 'v' :
				'^');
		append_cell(line, cell->str, widths[c], number);
	}
	wattrset(win, A_BOLD);
	tn_tui_draw_utf8(win, 2, x, line->str, w - x);
	wattrset(win, A_NORMAL);
	for (int l = 0; l < list_lines(pane) && l + 3 < h; l++) {
		long r = p->rows.top + l;

		if (r >= (long) table->row_count)
			break;
		g_string_truncate(line, 0);
		for (size_t c = 0; c < table->column_count; c++) {
			g_string_truncate(cell, 0);
			format_cell(cell, tn_analysis_cell_at(table,
				(size_t) r, c));
			append_cell(line, cell->str, widths[c],
				table->columns[c].type != TN_CELL_TEXT);
		}
		if (r == p->rows.selected)
			wattrset(win, focused ? A_REVERSE : A_BOLD);
		tn_tui_draw_utf8(win, l + 3, x, line->str, w - x);
		wattrset(win, A_NORMAL);
	}
	g_string_free(line, TRUE);
	g_string_free(cell, TRUE);
	g_free(widths);
}

/* Choose the analysis `step` (1 or -1) after the one chosen.  The
 * command steps from the analysis chosen when it runs, not from the
 * one this pane shows now: ] ] typed before the first is shown goes two
 * analyses on. */
static void step_analysis(struct tn_pane *pane, int step)
{
	tn_pane_run_line(pane, step > 0 ? "analysis next" :
		"analysis prev", TN_TUI_FOLLOW_BY_COMMAND);
}

static void sort(struct tn_pane *pane, int step, bool reverse)
{
	struct tn_analysis_table *table = shown_table(pane);
	size_t column;
	bool descending;

	if (!table)
		return;
	column = table->sort_column;
	descending = table->sort_descending;
	if (reverse) {
		descending = !descending;
	} else {
		/* step: -1 or 1 */
		column = (column + table->column_count + (size_t) step) %
			table->column_count;
		descending = table->columns[column].type != TN_CELL_TEXT;
	}
	tn_analysis_table_sort(table, column, descending);
	select_row(pane, 0);
}

static bool analysis_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct analysis_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&analysis_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;
	struct tn_analysis_result *result = shown_result(pane);

	if (!b)
		return false;
	if (tn_tui_rows_move(&p->rows, b->action, count, row_count(pane),
			list_lines(pane))) {
		pane->dirty = true;
		return true;
	}
	switch (b->action) {
	case AN_NEXT_ANALYSIS: step_analysis(pane, 1); break;
	case AN_PREV_ANALYSIS: step_analysis(pane, -1); break;
	case AN_NEXT_TABLE:
		if (result && result->table_count) {
			p->table = (p->table + 1) % result->table_count;
			p->rows.selected = p->rows.top = 0;
			pane->dirty = true;
		}
		break;
	case AN_SORT_NEXT: sort(pane, 1, false); break;
	case AN_SORT_PREV: sort(pane, -1, false); break;
	case AN_REVERSE: sort(pane, 0, true); break;
	}
	return true;
}

static void analysis_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct analysis_pane *p = pane->data;

	(void) x;
	tn_tui_rows_mouse(&p->rows, y - 3, wheel, row_count(pane),
		list_lines(pane));
	pane->dirty = true;
}

/* While the state pass computes the whole trace's analysis: draw its
 * progress, then ask for the result once it is done. */
static bool analysis_poll(struct tn_pane *pane)
{
	const struct analysis_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = pane->host->index;
	struct analysis_pane *p = pane->data;
	char *line;
	int percent;

	if (!pane->open || !cache || !cache->waiting || p->asked_for == cache)
		return false;
	if (index->computing_state) {
		percent = (int) (index->state_progress.fraction * 100);
		if (percent != p->drawn_percent) {
			p->drawn_percent = percent;
			pane->dirty = true;
		}
		return true;
	}
	p->asked_for = cache;
	line = g_strdup_printf("analysis %s", cache->name);
	tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
	g_free(line);
	return false;
}

static void analysis_init(struct tn_pane *pane)
{
	struct analysis_pane *p = g_new0(struct analysis_pane, 1);

	p->drawn_percent = -1;
	pane->data = p;
}

static void analysis_destroy(struct tn_pane *pane)
{
	g_free(pane->data);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_analysis = {
	.name = "analysis",
	.title = "Analysis",
	.toggle_key = 'A',
	.toggle_help = "show or hide the analysis pane (cputop, "
		"syscallstats, irqstats, schedtop of the range, or of the "
		"whole trace)",
	.layout = { TN_PANE_BOTTOM, 30, 5, 40, 0 },
	.keymap = &analysis_keys,
	.init = analysis_init,
	.destroy = analysis_destroy,
	.cursor_moved = analysis_cursor_moved,
	.cache_free = analysis_cache_free,
	.draw = analysis_draw,
	.key = analysis_key,
	.mouse = analysis_mouse,
	.poll = analysis_poll,
};
