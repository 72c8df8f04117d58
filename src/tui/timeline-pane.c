/* timeline-pane.c - what the threads and CPUs panes share (see
 * timeline-pane.h). */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/time.h"
#include "draw.h"
#include "rows.h"
#include "text.h"
#include "timeline-job.h"
#include "timeline-pane.h"

#define FN TN_TUI_KEY_FN

/* Columns of a row's label (tn_timeline_append_label()). */
#define THREAD_LABEL (8 + TN_TIMELINE_NAME_COLUMNS + 1)
#define CPU_LABEL (TN_TIMELINE_CPU_LABEL_COLUMNS + 1)

/* What the list's job notes for the pane: the span it wants shown, and
 * the current event's time. */
struct timeline_cache {
	struct tn_timeline_request request;	/* the grid wanted */
	bool has_events;
	bool too_long;			/* to read without the index */
	bool unread;			/* no index, and the span not read */
	bool zoomed, is_range;
	bool has_cursor;		/* the list's current event's time */
	int64_t cursor_ns;
	unsigned serial;		/* one per cache made */
};

enum timeline_sort { SORT_ID, SORT_NAME, SORT_ON_CPU, SORT_COUNT };

struct timeline_pane {
	enum tn_timeline_kind kind;
	struct tn_tui_rows rows;
	enum timeline_sort sort;
	bool flat;		/* the threads not as their process tree */
	GHashTable *folded;	/* int64 tids whose children are hidden */
	/* The rows of `ordered` in the order shown (flat: all at depth 0). */
	const struct tn_timeline_grid *ordered;
	struct tn_timeline_tree shown;
	int column;		/* the cell chosen with Left/Right, -1: none */
	struct tn_timeline_maker *maker;	/* makes the grids */
	struct tn_timeline_made *made;	/* the last grid made, or NULL */
	/* The serial of the cache whose grid Esc stopped (0: none). */
	unsigned stopped;
	char *making;		/* what the summary says meanwhile */
};



enum timeline_action {
	TL_DOWN = TN_ROWS_DOWN,
	TL_UP = TN_ROWS_UP,
	TL_PAGE_DOWN = TN_ROWS_PAGE_DOWN,
	TL_PAGE_UP = TN_ROWS_PAGE_UP,
	TL_FIRST = TN_ROWS_FIRST,
	TL_LAST = TN_ROWS_LAST,
	TL_ZOOM_IN,
	TL_ZOOM_OUT,
	TL_PAN_LEFT,
	TL_PAN_RIGHT,
	TL_WHOLE,
	TL_CELL_LEFT,
	TL_CELL_RIGHT,
	TL_GO,
	TL_FILTER,
	TL_FIND,
	TL_SORT,
	TL_FOLD,
	TL_UNFOLD_ALL,
	TL_TREE,
};

static const struct tn_tui_binding timeline_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, TL_DOWN, NULL, "next row" },
	{ { 'k', FN(KEY_UP) }, NULL, TL_UP, NULL, "previous row" },
	{ { FN(KEY_NPAGE) }, NULL, TL_PAGE_DOWN, NULL, "next page of rows" },
	{ { FN(KEY_PPAGE) }, NULL, TL_PAGE_UP, NULL,
		"previous page of rows" },
	{ { 'g', FN(KEY_HOME) }, NULL, TL_FIRST, NULL, "the first row" },
	{ { 'G', FN(KEY_END) }, NULL, TL_LAST, NULL, "the last row" },
	{ { 'z' }, NULL, TL_ZOOM_IN, NULL,
		"zoom in: half the span, around the current event (both "
		"timeline panes)" },
	{ { 'Z' }, NULL, TL_ZOOM_OUT, NULL, "zoom out: twice the span" },
	{ { 'h' }, NULL, TL_PAN_LEFT, NULL, "pan left (a quarter)" },
	{ { 'l' }, NULL, TL_PAN_RIGHT, NULL, "pan right (a quarter)" },
	{ { 'w' }, NULL, TL_WHOLE, NULL,
		"the whole range again (or the whole trace)" },
	{ { FN(KEY_LEFT) }, NULL, TL_CELL_LEFT, NULL,
		"choose the cell to the left (from the current event's)" },
	{ { FN(KEY_RIGHT) }, NULL, TL_CELL_RIGHT, NULL,
		"choose the cell to the right" },
	{ { '\n', '\r', FN(KEY_ENTER) }, "Enter", TL_GO, NULL,
		"move the list to the row's first event in the chosen cell "
		"(else the current event's), searching for it (n: its next)" },
	{ { 'f' }, NULL, TL_FILTER, NULL,
		"add a filter on the row's thread or CPU to the list" },
	{ { '/' }, NULL, TL_FIND, NULL, "find a row by name or number" },
	{ { 'o' }, NULL, TL_SORT, NULL,
		"sort the rows by number, name or time on a CPU (in the "
		"tree: the children of each thread)" },
	{ { ' ' }, "Space", TL_FOLD, NULL,
		"threads: hide or show the threads under this one (+ marks a "
		"folded one, - one that has threads under it)" },
	{ { '*' }, NULL, TL_UNFOLD_ALL, NULL,
		"threads: show every thread again (unfold all)" },
	{ { 't' }, NULL, TL_TREE, NULL,
		"threads: the process tree (each thread under its parent, "
		"the default) or a flat list" },
};

const struct tn_tui_keymap tn_timeline_pane_keys = {
	"Timeline panes (threads T, CPUs C)", timeline_bindings,
	G_N_ELEMENTS(timeline_bindings),
};

static int label_width(enum tn_timeline_kind kind)
{
	return kind == TN_TIMELINE_THREADS ? THREAD_LABEL : CPU_LABEL;
}

/* Buckets for a pane cols wide: what is left of its frame and labels. */
static unsigned buckets_for(enum tn_timeline_kind kind, int cols)
{
	int n = cols - 2 - label_width(kind);

	return (unsigned) CLAMP(n, 1, TN_TIMELINE_MAX_BUCKETS);
}

void tn_timeline_pane_cache_free(void *data)
{
	g_free(data);
}

/* The most stream bytes a span is read for without the index (from an
 * empty state at its start: partial), about a million events. */
#define PARTIAL_MAX_BYTES (32u << 20)

/* Without the index: the span shown (the range, else the trace's time
 * range) and whether it is short enough to read partially. */
static bool span_without_index(struct tn_session *session, int64_t *begin,
		int64_t *end, bool *too_long)
{
	int64_t first, last;
	double share;

	if (!tn_trace_get_time_range(session->trace, &first, &last))
		return false;
	if (!tn_view_get_range(&session->view, NULL, begin, end)) {
		*begin = first;
		*end = last;
	}
	share = last > first ? (double) (*end - *begin) / (double) (last -
		first) : 1.0;
	*too_long = share * (double) tn_trace_get_stream_bytes(
		session->trace) > PARTIAL_MAX_BYTES;
	return true;
}

/* In the list's job: the span the pane wants (the range or the zoom,
 * its columns) and the current event's time; the grid itself is made by
 * the pane's own job (poll). */
void *tn_timeline_pane_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view, enum tn_timeline_kind kind)
{
	const struct timeline_cache *old = old_cache;
	struct tn_session *session = view->session;
	const struct tn_index *index = session->indexing.index;
	struct timeline_cache *cache = g_new0(struct timeline_cache, 1);
	struct tn_timeline_request *want = &cache->request;
	static int serials;	/* the caches made so far */
	const struct tn_row *row;

	cache->serial = (unsigned) g_atomic_int_add(&serials, 1) + 1;
	want->kind = kind;
	want->index = index;
	want->snapshots = session->state.snapshots;
	want->buckets = buckets_for(kind, view->cols);
	cache->zoomed = session->view.timeline_zoomed;
	cache->is_range = session->view.has_range;
	if (index) {
		cache->has_events = tn_view_get_timeline_span(&session->view,
			index, &want->begin_ns, &want->end_ns);
	} else if (view->may_read) {
		cache->has_events = span_without_index(session,
			&want->begin_ns, &want->end_ns, &cache->too_long);
	} else if (old && old->request.kind == kind &&
		   !old->request.index && !old->unread &&
		   old->request.buckets == want->buckets) {
		/* Without the index the span is found by reading the
		 * trace's range: not on a move that may not read, which
		 * keeps the span it had. */
		cache->request = old->request;
		cache->has_events = old->has_events;
		cache->too_long = old->too_long;
	} else {
		cache->unread = true;
	}
	if (!tn_cursor_is_empty(session->cursor) &&
	    (row = tn_cursor_peek_row(session->cursor, 0))) {
		cache->has_cursor = true;
		cache->cursor_ns = row->pos.ns;
	}
	return cache;
}

/* Whether cache wants a grid made (the span is known and may be). */
static bool wants_grid(const struct timeline_cache *cache)
{
	return cache && !cache->unread && cache->has_events &&
		!(!cache->request.index && cache->too_long);
}

/* Whether the grid made is the one cache wants. */
static bool made_is_wanted(const struct timeline_pane *p,
		const struct timeline_cache *cache)
{
	return p->made && cache && tn_timeline_request_equal(
		&p->made->request, &cache->request);
}

static const struct tn_timeline_grid *shown_grid(const struct tn_pane *pane)
{
	const struct timeline_pane *p = pane->data;

	return p->made ? p->made->grid : NULL;
}

/* The span of the grid shown (NULL when none is). */
static const struct tn_timeline_request *shown_span(const struct tn_pane *pane)
{
	const struct timeline_pane *p = pane->data;

	return p->made && p->made->grid ? &p->made->request : NULL;
}

/* ---- the order of the rows ---- */

/* What compare_rows() sorts by (and the folded threads). */
struct sorting {
	const struct tn_timeline_grid *grid;
	enum timeline_sort sort;
	GHashTable *folded;
};

static int compare_indexes(size_t a, size_t b, void *data)
{
	const struct sorting *by = data;
	const struct tn_timeline_row *ra = &by->grid->rows[a];
	const struct tn_timeline_row *rb = &by->grid->rows[b];
	enum timeline_sort sort = by->sort;
	/* A CPUs grid's CPUs first, then the irqs, then the softirqs. */
	int c = (ra->kind > rb->kind) - (ra->kind < rb->kind);

	if (c)
		return c;
	if (sort == SORT_NAME) {
		/* Threads without a name last. */
		c = (!ra->name || !*ra->name) - (!rb->name || !*rb->name);
		if (c == 0)
			c = g_strcmp0(ra->name, rb->name);
	}
	else if (sort == SORT_ON_CPU)
		c = (ra->on_cpu_ns < rb->on_cpu_ns) -
			(ra->on_cpu_ns > rb->on_cpu_ns);
	if (c == 0)
		c = (ra->id > rb->id) - (ra->id < rb->id);
	return c;
}

static int compare_rows(const void *a, const void *b, void *data)
{
	return compare_indexes(*(const size_t *) a, *(const size_t *) b,
		data);
}

static bool is_folded(int64_t id, void *data)
{
	const struct sorting *by = data;

	return g_hash_table_contains(by->folded, &id);
}

/* The rows of grid sorted, all at depth 0. */
static void make_flat(const struct tn_timeline_grid *grid,
		struct sorting *by, struct tn_timeline_tree *shown)
{
	size_t n = grid->row_count;

	shown->count = n;
	shown->order = g_new(size_t, n + 1);
	shown->depth = g_new0(unsigned, n + 1);
	shown->has_children = g_new0(bool, n + 1);
	shown->folded = g_new0(bool, n + 1);
	for (size_t i = 0; i < n; i++)
		shown->order[i] = i;
	g_qsort_with_data(shown->order, (gint) n, sizeof(size_t),
		compare_rows, by);
}

/* The rows in the order shown (made again for another grid or sort). */
static const size_t *row_order(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_grid *grid = shown_grid(pane);

	if (!grid)
		return NULL;
	if (p->ordered != grid) {
		struct sorting by = { grid, p->sort, p->folded };

		tn_timeline_tree_fini(&p->shown);
		if (p->kind == TN_TIMELINE_THREADS && !p->flat)
			tn_timeline_tree_make(grid, compare_indexes, is_folded,
				&by, &p->shown);
		else
			make_flat(grid, &by, &p->shown);
		p->ordered = grid;
	}
	return p->shown.order;
}

/* The rows shown (those under a folded thread are not). */
static long row_count(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;

	return row_order(pane) ? (long) p->shown.count : 0;
}

/* Lines of rows: under the title and the summary. */
static int list_lines(const struct tn_pane *pane)
{
	return MAX(pane->rect.h - 2, 1);
}

/* Show the rows again in a new order (the selection stays on its
 * thread when it is still shown). */
static void reorder(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_grid *grid = shown_grid(pane);
	const size_t *order = row_order(pane);
	int64_t id = 0;
	bool had = false;

	if (grid && order && p->rows.selected >= 0 &&
	    p->rows.selected < (long) p->shown.count) {
		id = grid->rows[order[p->rows.selected]].id;
		had = true;
	}
	p->ordered = NULL;
	order = row_order(pane);
	for (size_t i = 0; had && order && i < p->shown.count; i++)
		if (grid->rows[order[i]].id == id) {
			tn_tui_rows_select(&p->rows, (long) i,
				(long) p->shown.count, list_lines(pane));
			break;
		}
	pane->dirty = true;
}

/* The selected row, or NULL. */
static const struct tn_timeline_row *selected_row(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_grid *grid = shown_grid(pane);
	const size_t *order = row_order(pane);

	if (!grid || !order || p->rows.selected < 0 ||
	    p->rows.selected >= (long) p->shown.count)
		return NULL;
	return &grid->rows[order[p->rows.selected]];
}

/* ---- drawing ---- */

/* The column of the list's current event in the grid shown, or -1
 * outside its span. */
static int cursor_column(const struct tn_pane *pane)
{
	const struct timeline_cache *cache = pane->cache;
	const struct tn_timeline_request *span = shown_span(pane);

	if (!cache || !cache->has_cursor || !span ||
	    cache->cursor_ns < span->begin_ns ||
	    cache->cursor_ns > span->end_ns)
		return -1;
	return (int) tn_timeline_bucket_of(span->begin_ns, span->end_ns,
		span->buckets, cache->cursor_ns);
}

/* The column Enter acts on: the chosen one, else the cursor's. */
static int chosen_column(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_request *span = shown_span(pane);

	if (!span)
		return -1;
	if (p->column >= 0 && p->column < (int) span->buckets)
		return p->column;
	return cursor_column(pane);
}

/* "N threads, " or "N CPUs, M interrupt lines, ". */
static void append_counts(GString *text, const struct tn_timeline_grid *grid)
{
	size_t lines = 0;

	for (size_t i = 0; i < grid->row_count; i++)
		lines += grid->rows[i].kind == TN_TIMELINE_IRQS ||
			grid->rows[i].kind == TN_TIMELINE_SOFTIRQS;
	g_string_append_printf(text, "%zu %s, ", grid->row_count - lines,
		grid->kind == TN_TIMELINE_THREADS ? "threads" : "CPUs");
	if (lines)
		g_string_append_printf(text, "%zu interrupt lines, ", lines);
}

/* "RANGE (D s, C s a column...)" of the grid made, which cache
 * wants. */
static void append_span(GString *text, const struct timeline_pane *p,
		const struct timeline_cache *cache, bool gmt)
{
	const struct tn_timeline_request *span = &p->made->request;
	int64_t length = span->end_ns - span->begin_ns;

	tn_time_format_wall(text, span->begin_ns, gmt, false);
	g_string_append(text, " - ");
	tn_time_format_wall(text, span->end_ns, gmt, false);
	g_string_append(text, " (");
	tn_time_format_seconds(text, length);
	g_string_append(text, " s, ");
	tn_time_format_seconds(text, length / MAX(span->buckets, 1u));
	g_string_append_printf(text, " s a column%s)%s",
		p->made->grid->summary_ns ? ", from the summary" : "",
		cache->zoomed ? " zoomed, w: all" : cache->is_range ?
		" the range" : "");
}

static char *summary(struct tn_pane *pane)
{
	const struct timeline_pane *p = pane->data;
	const struct timeline_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = pane->host->index;
	GString *text;

	if (!cache || (!cache->request.index && !cache->unread &&
			(cache->too_long || !cache->has_events)))
		return g_strdup(index->building ? "the timelines of so long a "
			"span need the index: indexing..." : "The timelines of "
			"so long a span need the index: type :index to build it "
			"(or choose a shorter range).");
	if (!cache->unread && !cache->has_events)
		return g_strdup("no event");
	if (!made_is_wanted(p, cache)) {
		if (p->making)
			return g_strdup(p->making);
		return g_strdup(p->stopped == cache->serial ? "the timeline "
			"was cancelled (move the cursor to make it)" : "the "
			"timeline is not made yet (move the cursor)");
	}
	if (p->made->error)
		return g_strdup_printf("timeline: %s", p->made->error);
	if (p->made->grid->row_count == 0)
		return g_strdup("no scheduling events in this span: the "
			"timelines need a kernel trace's sched_switch");
	/* First, where a narrow pane shows it. */
	text = g_string_new(p->made->grid->partial ? "partial (no index "
		"yet): " : "");
	append_counts(text, p->made->grid);
	append_span(text, p, cache, pane->host->session->view.gmt);
	return g_string_free(text, FALSE);
}

static attr_t letter_attr(const struct tn_pane *pane, char letter,
		enum tn_timeline_kind kind)
{
	switch (letter) {
	case 'U': return tn_pane_attr(pane, TN_TUI_COLOR_USER);
	case 'S': return tn_pane_attr(pane, kind == TN_TIMELINE_THREADS ?
		TN_TUI_COLOR_SYSCALL : TN_TUI_COLOR_IRQ);
	case 'I': return tn_pane_attr(pane, TN_TUI_COLOR_IRQ);
	case 'W': return tn_pane_attr(pane, TN_TUI_COLOR_SCHED);
	case 'R': return tn_pane_attr(pane, TN_TUI_COLOR_USER);
	case 'B': return A_DIM;
	default: return A_NORMAL;
	}
}

/* The columns [*from, *to] of the selection being made with v (or of
 * the range), underlined; none (from > to) outside the grid's span. */
static void selected_columns(struct tn_pane *pane, int *from, int *to)
{
	const struct tn_timeline_request *span = shown_span(pane);
	int64_t begin, end;

	*from = 0;
	*to = -1;
	if (!span || !tn_pane_selection(pane, &begin, &end) ||
	    end < span->begin_ns || begin > span->end_ns)
		return;
	/* The whole span selected is no news (a range shown whole). */
	if (begin <= span->begin_ns && end >= span->end_ns)
		return;
	*from = (int) tn_timeline_bucket_of(span->begin_ns, span->end_ns,
		span->buckets, begin);
	*to = (int) tn_timeline_bucket_of(span->begin_ns, span->end_ns,
		span->buckets, end);
}

void tn_timeline_pane_draw(struct tn_pane *pane, WINDOW *win)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_grid *grid = shown_grid(pane);
	const size_t *order = row_order(pane);
	bool focused = tn_pane_is_focused(pane);
	int h, w, x, label, cursor, chosen, sel_from = -1, sel_to = -1;
	GString *line = g_string_new(NULL);
	char *text;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	if (h < 2 || w <= x) {
		g_string_free(line, TRUE);
		return;
	}
	text = summary(pane);
	tn_tui_draw_utf8(win, 1, x, text, w - x);
	g_free(text);
	label = label_width(p->kind);
	cursor = cursor_column(pane);
	chosen = p->column >= 0 ? chosen_column(pane) : -1;
	selected_columns(pane, &sel_from, &sel_to);
	for (int l = 0; grid && order && l < list_lines(pane) && l + 2 < h;
	     l++) {
		long r = p->rows.top + l;
		const struct tn_timeline_row *row;

		if (r >= (long) p->shown.count)
			break;
		row = &grid->rows[order[r]];
		g_string_truncate(line, 0);
		tn_timeline_append_label(line, row, p->flat ||
			p->kind != TN_TIMELINE_THREADS ? NULL : &p->shown,
			(size_t) r);
		if (r == p->rows.selected)
			wattrset(win, focused ? A_REVERSE : A_BOLD);
		tn_tui_draw_utf8(win, l + 2, x, line->str, MIN(label, w - x));
		wattrset(win, A_NORMAL);
		for (int c = 0; c < (int) grid->buckets && x + label + c < w;
		     c++) {
			char letter = row->letters[c];
			attr_t attr = letter_attr(pane, letter, p->kind);

			if (c == cursor)
				attr |= A_REVERSE;
			if (c >= sel_from && c <= sel_to)
				attr |= A_UNDERLINE;
			if (c == chosen && r == p->rows.selected)
				attr |= A_UNDERLINE | A_BOLD;
			wattrset(win, attr);
			/* A CPU's running thread's name over its letters. */
			if (row->names && row->names[c] != ' ')
				letter = row->names[c];
			mvwaddch(win, l + 2, x + label + c, (chtype) (
				c == cursor && letter == TN_TIMELINE_NO_TIME ?
				'|' : letter));
		}
		wattrset(win, A_NORMAL);
	}
	g_string_free(line, TRUE);
}

/* ---- keys ---- */

static void select_row(struct tn_pane *pane, long row)
{
	struct timeline_pane *p = pane->data;

	tn_tui_rows_select(&p->rows, row, row_count(pane), list_lines(pane));
	pane->dirty = true;
}

/* Hide or show the threads under the selected one. */
static void fold(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_row *row = selected_row(pane);
	long r = p->rows.selected;

	if (p->kind != TN_TIMELINE_THREADS || p->flat) {
		tn_pane_message(pane, true, p->flat ? "no tree to fold (t "
			"shows it)" : "the CPUs have no tree");
		return;
	}
	if (!row || !p->shown.has_children[r]) {
		tn_pane_message(pane, true, "no thread under this one");
		return;
	}
	if (!g_hash_table_remove(p->folded, &row->id))
		g_hash_table_add(p->folded, g_memdup2(&row->id,
			sizeof(row->id)));
	reorder(pane);
}

/* The field of a row's events: a thread's tid (and prev_ and next_),
 * a CPU's cpu_id, an irq's irq, a softirq's vec. */
static const char *row_field(const struct tn_timeline_row *row)
{
	switch (row->kind) {
	case TN_TIMELINE_THREADS: return "tid";
	case TN_TIMELINE_CPUS: return "cpu_id";
	case TN_TIMELINE_IRQS: return "irq";
	default: return "vec";
	}
}

/* The regex of the events of the row's thread, CPU or interrupt line,
 * for search. */
static char *entity_regex(const struct tn_timeline_row *row)
{
	return g_strdup_printf("\\b%s%s = %" PRId64 "\\b",
		row->kind == TN_TIMELINE_THREADS ? "(prev_|next_|)" : "",
		row_field(row), row->id);
}

/* Move the list to the first event of the selected row's thread, CPU or line
 * from the start of the chosen column (else the cursor's). */
static void go_to_cell(struct tn_pane *pane)
{
	const struct tn_timeline_request *span = shown_span(pane);
	const struct tn_timeline_row *row = selected_row(pane);
	int column = chosen_column(pane);
	char line[64];
	char *regex, *search;
	int64_t t;

	if (!row || !span) {
		tn_pane_message(pane, true, "no row to go to");
		return;
	}
	if (column >= 0) {
		t = tn_timeline_bucket_begin(span->begin_ns, span->end_ns,
			span->buckets, (unsigned) column);
		snprintf(line, sizeof(line), "goto %" PRId64 ".%09" PRId64,
			t / 1000000000, t % 1000000000);
		tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
	}
	regex = entity_regex(row);
	search = g_strdup_printf("search %s", regex);
	tn_pane_run_line(pane, search, TN_TUI_FOLLOW_BY_COMMAND);
	g_free(search);
	g_free(regex);
}

static void filter_on_row(struct tn_pane *pane)
{
	const struct tn_timeline_row *row = selected_row(pane);
	char *line;

	if (!row) {
		tn_pane_message(pane, true, "no row to filter on");
		return;
	}
	if (row->kind == TN_TIMELINE_THREADS)
		line = g_strdup_printf("filter tid == %" PRId64 " || prev_tid "
			"== %" PRId64 " || next_tid == %" PRId64, row->id,
			row->id, row->id);
	else
		line = g_strdup_printf("filter %s == %" PRId64, row_field(row),
			row->id);
	tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
	g_free(line);
}

static void move_column(struct tn_pane *pane, int step, long count)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_request *span = shown_span(pane);
	int column = chosen_column(pane);

	if (!span)
		return;
	if (column < 0)
		column = step > 0 ? -1 : (int) span->buckets;
	column += step * (int) MIN(count, (long) span->buckets);
	p->column = CLAMP(column, 0, (int) span->buckets - 1);
	pane->dirty = true;
}

bool tn_timeline_pane_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct timeline_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(
		&tn_timeline_pane_keys, key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;
	static const char *const zooms[] = {
		[TL_ZOOM_IN] = "timeline-zoom in",
		[TL_ZOOM_OUT] = "timeline-zoom out",
		[TL_PAN_LEFT] = "timeline-zoom left",
		[TL_PAN_RIGHT] = "timeline-zoom right",
		[TL_WHOLE] = "timeline-zoom reset",
	};

	if (!b)
		return false;
	row_order(pane);
	if (tn_tui_rows_move(&p->rows, b->action, count, row_count(pane),
			list_lines(pane))) {
		pane->dirty = true;
		return true;
	}
	switch (b->action) {
	case TL_ZOOM_IN:
	case TL_ZOOM_OUT:
	case TL_PAN_LEFT:
	case TL_PAN_RIGHT:
	case TL_WHOLE:
		p->column = -1;
		tn_pane_run_line(pane, zooms[b->action],
			TN_TUI_FOLLOW_BY_COMMAND);
		break;
	case TL_CELL_LEFT: move_column(pane, -1, count); break;
	case TL_CELL_RIGHT: move_column(pane, 1, count); break;
	case TL_GO: go_to_cell(pane); break;
	case TL_FILTER: filter_on_row(pane); break;
	case TL_FIND: tn_pane_open_own_prompt(pane, "row: ", "timeline");
		break;
	case TL_FOLD: fold(pane); break;
	case TL_UNFOLD_ALL:
	case TL_TREE:
		if (p->kind != TN_TIMELINE_THREADS) {
			tn_pane_message(pane, true, "the CPUs have no tree");
			break;
		}
		if (b->action == TL_TREE)
			p->flat = !p->flat;
		else
			g_hash_table_remove_all(p->folded);
		reorder(pane);
		tn_pane_message(pane, false, b->action == TL_UNFOLD_ALL ?
			"every thread shown" : p->flat ? "the threads as a "
			"flat list" : "the threads as their process tree");
		break;
	case TL_SORT:
		p->sort = (p->sort + 1) % SORT_COUNT;
		if (p->kind == TN_TIMELINE_CPUS && p->sort == SORT_NAME)
			p->sort = SORT_ON_CPU;
		p->ordered = NULL;
		select_row(pane, 0);
		tn_pane_message(pane, false, p->sort == SORT_ID ? "rows by "
			"number" : p->sort == SORT_NAME ? "rows by name" :
			"rows by time on a CPU, most first");
		break;
	}
	return true;
}

/* Whether row's name or number holds want (casefolded). */
static bool row_has(const struct tn_timeline_row *row, const char *want)
{
	char *name = g_utf8_casefold(row->name ? row->name : "", -1);
	char *id = g_strdup_printf("%" PRId64, row->id);
	bool found = strstr(name, want) || strstr(id, want);

	g_free(name);
	g_free(id);
	return found;
}

/* Unfold the threads above row (its parent's chain; a circle ends). */
static void unfold_above(struct timeline_pane *p,
		const struct tn_timeline_grid *grid,
		const struct tn_timeline_row *row)
{
	for (size_t steps = 0; row->ppid > 0 && steps < grid->row_count;
	     steps++) {
		const struct tn_timeline_row *parent = NULL;

		g_hash_table_remove(p->folded, &row->ppid);
		for (size_t i = 0; i < grid->row_count && !parent; i++)
			if (grid->rows[i].id == row->ppid)
				parent = &grid->rows[i];
		if (!parent)
			break;
		row = parent;
	}
}

/* Find the next row (after the selected one, round) whose name or
 * number holds text, case aside; else one under a folded thread. */
void tn_timeline_pane_prompt_done(struct tn_pane *pane, const char *text)
{
	struct timeline_pane *p = pane->data;
	const struct tn_timeline_grid *grid = shown_grid(pane);
	const size_t *order = row_order(pane);
	char *want = g_utf8_casefold(text, -1);
	long count = row_count(pane);

	for (long i = 1; grid && order && *want && i <= count; i++) {
		long r = (p->rows.selected + i) % count;

		if (row_has(&grid->rows[order[r]], want)) {
			select_row(pane, r);
			g_free(want);
			return;
		}
	}
	/* Under a folded thread: shown, its ancestors unfolded. */
	for (size_t i = 0; grid && *want && i < grid->row_count; i++) {
		if (!row_has(&grid->rows[i], want))
			continue;
		unfold_above(p, grid, &grid->rows[i]);
		p->ordered = NULL;
		order = row_order(pane);
		for (size_t s = 0; s < p->shown.count; s++)
			if (order[s] == i)
				select_row(pane, (long) s);
		g_free(want);
		return;
	}
	tn_pane_message(pane, true, *want ? "no row has that name or "
		"number" : "give a name or a number to find");
	g_free(want);
}

void tn_timeline_pane_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct timeline_pane *p = pane->data;
	int first = (pane->rect.x > 0 ? 2 : 1) + label_width(p->kind);

	row_order(pane);
	tn_tui_rows_mouse(&p->rows, y - 2, wheel, row_count(pane),
		list_lines(pane));
	pane->dirty = true;
	if (wheel == 0 && y >= 2 && x >= first && shown_grid(pane)) {
		p->column = x - first;
		go_to_cell(pane);
	}
}

/* ---- the grid, made by the pane's own job ---- */

/* Take the grid of the job that ended (a cancelled one leaves the last
 * grid shown). */
static void take_made(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	struct tn_timeline_made *made;

	if (tn_timeline_maker_finish(p->maker, &made) == 0)
		return;
	pane->dirty = true;
	if (!made)
		return;
	tn_timeline_made_free(p->made);
	p->made = made;
	/* The grid is new: its rows' order is made again. */
	p->ordered = NULL;
	if (p->column >= (int) made->request.buckets)
		p->column = -1;
}

/* What the summary says while a grid is made ("making the timeline:
 * 40%..."); true when it changed. */
static bool note_making(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	struct tn_job_progress progress;
	char *text = NULL;
	bool changed;

	if (tn_timeline_maker_running(p->maker, &progress)) {
		text = progress.fraction >= 0 ? g_strdup_printf("making the "
			"timeline: %d%%... (Esc stops)", (int) (
			progress.fraction * 100)) : g_strdup("making the "
			"timeline... (Esc stops)");
	}
	changed = g_strcmp0(text, p->making) != 0;
	g_free(p->making);
	p->making = text;
	return changed;
}

bool tn_timeline_pane_poll(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct timeline_cache *cache = pane->cache;
	const struct tn_timeline_request *running;
	bool waiting = false;
	struct tn_error err;

	take_made(pane);
	running = tn_timeline_maker_running(p->maker, NULL);
	if (!pane->open || !pane->win) {
		/* Closed: nothing to make; the grid made stays for when it
		 * opens again. */
		tn_timeline_maker_cancel(p->maker);
	} else if (wants_grid(cache) && !made_is_wanted(p, cache)) {
		if (running) {
			/* The span changed: only the newest one. */
			if (!tn_timeline_request_equal(running,
					&cache->request))
				tn_timeline_maker_cancel(p->maker);
		} else if (p->stopped == cache->serial) {
			/* Esc stopped it: the next move makes it. */
		} else if (tn_pane_command_running(pane)) {
			/* The list's command first (it may change the
			 * span). */
			waiting = true;
		} else if (tn_timeline_maker_start(p->maker, &cache->request,
				&err)) {
			p->stopped = cache->serial;
			tn_pane_message(pane, true, err.message);
		}
	}
	if (note_making(pane))
		pane->dirty = true;
	return waiting || tn_timeline_maker_running(p->maker, NULL);
}

bool tn_timeline_pane_cancel(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;
	const struct timeline_cache *cache;

	if (!tn_timeline_maker_running(p->maker, NULL))
		return false;
	tn_timeline_maker_cancel(p->maker);
	cache = pane->cache;
	p->stopped = cache ? cache->serial : 0;
	pane->dirty = true;
	return true;
}

void tn_timeline_pane_init(struct tn_pane *pane, enum tn_timeline_kind kind)
{
	struct timeline_pane *p = g_new0(struct timeline_pane, 1);

	p->kind = kind;
	p->column = -1;
	p->folded = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
		NULL);
	p->maker = tn_timeline_maker_create(pane->host->session->trace);
	pane->data = p;
}

void tn_timeline_pane_destroy(struct tn_pane *pane)
{
	struct timeline_pane *p = pane->data;

	if (p) {
		/* The job first: it reads the trace. */
		tn_timeline_maker_destroy(p->maker);
		tn_timeline_made_free(p->made);
		g_free(p->making);
		tn_timeline_tree_fini(&p->shown);
		g_hash_table_destroy(p->folded);
	}
	g_free(p);
	pane->data = NULL;
}
