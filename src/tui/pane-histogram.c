/* pane-histogram.c - the histogram strip: how many events the trace
 * holds over its time range, in bars of block characters below the
 * list, the cursor's time marked.
 *
 * It shows the checkpoint index's time bins (index.h), so it needs no
 * read of its own; before the index is there it says how far the
 * indexing got.  Zoomed (histogram in the event list, keys z and Z:
 * session->view.zoomed), it shows a span of its own in a bin per column,
 * counted exactly by tn_stats_histogram() in the list's job (once per
 * span and width), with a time axis of round ticks.  h and l move the
 * list to the next column with events, a click to the column clicked:
 * far jumps, as the scrollbar gives.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/index.h"
#include "tracenav/stats.h"
#include "tracenav/time.h"
#include "draw.h"
#include "../commands.h"
#include "pane.h"
#include "state-tree.h"
#include "strip.h"
#include "text.h"

#define FN TN_TUI_KEY_FN

/* Events per time bin over [begin_ns, end_ns]. */
struct strip_bins {
	int64_t begin_ns, end_ns;
	size_t count;		/* 0: none */
	double *counts;
	/* The filters' matches in the same bins, once counted, or NULL. */
	double *matches;
	/* The events the tracer discarded in them, or NULL. */
	double *lost;
};

static double *to_doubles(const uint64_t *values, size_t count)
{
	double *out = g_new(double, count);

	for (size_t k = 0; k < count; k++)
		out[k] = (double) values[k];
	return out;
}

/* bins as strip bins (taken); NULL gives none. */
static void set_bins(struct strip_bins *out, const uint64_t *bins,
		size_t count, int64_t begin_ns, int64_t end_ns)
{
	g_free(out->counts);
	g_free(out->matches);
	g_free(out->lost);
	*out = (struct strip_bins) { begin_ns, end_ns, 0, NULL, NULL, NULL };
	if (!bins || count == 0)
		return;
	out->count = count;
	out->counts = to_doubles(bins, count);
}

/* The filters' matches of each checkpoint interval, spread over the
 * interval's time (known to the interval, not the event). */
static double *match_bins(const struct tn_index *index,
		const struct tn_match_counts *counts)
{
	double *bins = g_new0(double, index->bin_count);

	for (size_t i = 0; i < counts->interval_count &&
			i < index->checkpoint_count; i++) {
		int64_t from = index->checkpoints[i].pos.ns;
		int64_t to = i + 1 < index->checkpoint_count ?
			index->checkpoints[i + 1].pos.ns :
			index->last_event_ns;
		uint64_t n = counts->before[i + 1] - counts->before[i];

		if (n)
			tn_strip_spread(bins, index->bin_count,
				index->begin_ns, index->end_ns, from, to,
				(double) n);
	}
	return bins;
}

/* What the strip shows once the index is there: a copy of its bins
 * (the index may go when the trace is reloaded), and the cursor's
 * time. */
struct strip_cache {
	struct strip_bins bins;
	bool has_cursor;
	int64_t cursor_ns;
	/* Zoomed: bins are the zoom span's, zoom_bins asked for, counted
	 * with index; error when they could not be (a cancel). */
	bool zoomed;
	const struct tn_index *index;
	size_t zoom_bins;
	char *error;
};

/* The pane's own state: the indexing progress drawn last, and the bins
 * counted so far while indexing (refreshed by poll). */
struct strip_pane {
	int drawn_percent;	/* -1: none drawn */
	bool drawn_building;
	struct strip_bins partial;
	gint64 partial_us;	/* when they were taken */
	/* The column h or l went to last, of cols columns: until every
	 * move asked for is shown (the idle serial changes), keys step on
	 * from it (h h typed before the first move is shown go two steps,
	 * not one twice). */
	bool has_asked;
	int asked_col, asked_cols;
	unsigned asked_serial;
};

/* How often the bins counted so far are drawn again while indexing. */
#define PARTIAL_EVERY_US 300000

enum strip_action {
	STRIP_NONE,
	STRIP_LEFT,
	STRIP_RIGHT,
};

static const struct tn_tui_binding strip_bindings[] = {
	{ { 'h', FN(KEY_LEFT) }, NULL, STRIP_LEFT, NULL,
		"go to the first event of the previous column with events (a "
		"count before it: the count-th)" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, STRIP_RIGHT, NULL,
		"go to the first event of the next column with events" },
	{ { 0 }, "click", STRIP_NONE, NULL,
		"go to the time of the column clicked" },
};

static const struct tn_tui_keymap strip_keys = {
	"Histogram pane", strip_bindings, G_N_ELEMENTS(strip_bindings),
};

static void strip_cache_free(void *data)
{
	struct strip_cache *cache = data;

	if (!cache)
		return;
	set_bins(&cache->bins, NULL, 0, 0, 0);
	g_free(cache->error);
	g_free(cache);
}

static double *copy_doubles(const double *values, size_t count)
{
	return values ? g_memdup2(values, count * sizeof(*values)) : NULL;
}

/* The index's lost events spread over the zoom's bins (NULL: none). */
static double *zoom_lost(const struct tn_index *index,
		const struct strip_bins *bins)
{
	uint64_t width;
	double *lost = NULL;

	if (!index->discarded_events || !index->lost_bins || !bins->count)
		return NULL;
	width = ((uint64_t) index->end_ns - (uint64_t) index->begin_ns) /
		index->bin_count + 1;
	for (size_t k = 0; k < index->bin_count; k++) {
		int64_t from = (int64_t) ((uint64_t) index->begin_ns +
			k * width);
		int64_t to = (int64_t) ((uint64_t) from + width - 1);

		if (!index->lost_bins[k] || to < bins->begin_ns ||
		    from > bins->end_ns)
			continue;
		if (!lost)
			lost = g_new0(double, bins->count);
		tn_strip_spread(lost, bins->count, bins->begin_ns,
			bins->end_ns, MAX(from, bins->begin_ns),
			MIN(to, bins->end_ns), (double) index->lost_bins[k]);
	}
	return lost;
}

/* The zoom span's bins: one per column, kept from old when it counted
 * the same span at the same width with the same index. */
static void zoom_bins(struct strip_cache *cache, const struct strip_cache *old,
		const struct tn_pane_view *view)
{
	struct tn_session *session = view->session;
	const struct tn_index *index = session->indexing.index;
	int64_t begin = session->view.zoom_begin_ns;
	int64_t end = session->view.zoom_end_ns;
	size_t want = (size_t) MAX(view->cols - 1, 1), used = 0;
	uint64_t *counts;
	int64_t *starts;
	struct tn_error err;

	cache->zoomed = true;
	cache->index = index;
	cache->zoom_bins = want;
	if (old && old->zoomed && old->index == index &&
	    old->zoom_bins == want && old->bins.count &&
	    old->bins.begin_ns == begin && old->bins.end_ns == end) {
		cache->bins = old->bins;
		cache->bins.counts = copy_doubles(old->bins.counts,
			old->bins.count);
		cache->bins.matches = NULL;
		cache->bins.lost = copy_doubles(old->bins.lost,
			old->bins.count);
		return;
	}
	cache->bins.begin_ns = begin;
	cache->bins.end_ns = end;
	if (!view->may_read) {
		cache->error = g_strdup("not counted (cancelled): the next "
			"move counts it");
		return;
	}
	counts = g_new0(uint64_t, want);
	starts = g_new0(int64_t, want);
	if (tn_stats_histogram(session->trace, index, begin, end, NULL, want,
			counts, starts, &used, &err)) {
		cache->error = g_strdup(err.message);
	} else {
		set_bins(&cache->bins, counts, used, begin, end);
		cache->bins.lost = zoom_lost(index, &cache->bins);
	}
	g_free(counts);
	g_free(starts);
}

/* In the list's job: the bins of the index, the cursor's time. */
static void *strip_cursor_moved(const void *old_cache_data,
		const struct tn_pane_view *view)
{
	const struct strip_cache *old_cache = old_cache_data;
	const struct tn_index *index = view->session->indexing.index;
	struct strip_cache *cache = g_new0(struct strip_cache, 1);
	const struct tn_row *row;

	if (index && index->bin_count > 0 && view->session->view.zoomed) {
		zoom_bins(cache, old_cache, view);
	} else if (index && index->bin_count > 0) {
		set_bins(&cache->bins, index->bins, index->bin_count,
			index->begin_ns, index->end_ns);
		if (index->discarded_events && index->lost_bins)
			cache->bins.lost = to_doubles(index->lost_bins,
				index->bin_count);
		if (view->session->filters.set && view->session->filters.counts)
			cache->bins.matches = match_bins(index,
				view->session->filters.counts);
	}
	/* The list read the current row just before: peeking is enough. */
	if (!tn_cursor_is_empty(view->session->cursor) &&
	    (row = tn_cursor_peek_row(view->session->cursor, 0))) {
		cache->has_cursor = true;
		cache->cursor_ns = row->pos.ns;
	}
	return cache;
}

/* The columns of the bars: from x to the pane's right edge. */
static int first_column(struct tn_pane *pane)
{
	return pane->rect.x > 0 ? 2 : 1;
}

/* The strip's title line: what it waits for, or how far indexing got
 * (noted, so that poll knows when to draw again). */
static char *waiting_text(struct tn_pane *pane)
{
	struct strip_pane *p = pane->data;
	const struct tn_tui_index_status *index = pane->host->index;

	p->drawn_building = index->building;
	p->drawn_percent = -1;
	if (index->building && index->progress.fraction >= 0) {
		p->drawn_percent = (int) (index->progress.fraction * 100);
		return g_strdup_printf("indexing %d%%", p->drawn_percent);
	}
	if (index->building)
		return g_strdup("indexing...");
	if (index->has_index)
		return g_strdup("The trace has no timestamps to bin.");
	return g_strdup("The histogram needs the index: type :index to "
		"build it.");
}

/* The bottom line: the first time, and the last one or right_text;
 * the cursor's column. */
static void draw_axis(struct tn_pane *pane, WINDOW *win, int y, int x,
		int cols, const struct strip_bins *bins, const char *right_text,
		int cursor_col)
{
	GString *left = g_string_new(NULL), *right = g_string_new(right_text);
	int right_cols;

	tn_time_format_wall(left, bins->begin_ns, pane->host->session->view.gmt,
		false);
	if (!right_text)
		tn_time_format_wall(right, bins->end_ns,
			pane->host->session->view.gmt, false);
	right_cols = (int) right->len;
	if ((int) left->len + 1 + right_cols > cols)
		right_cols = 0;		/* no room for both */
	tn_tui_draw_utf8(win, y, x, left->str, cols);
	if (right_cols)
		tn_tui_draw_utf8(win, y, x + cols - right_cols, right->str,
			right_cols);
	/* Under the cursor's column, unless a time is written there (the
	 * column is drawn reversed above anyway). */
	if (cursor_col > (int) left->len && cursor_col < cols - right_cols - 1)
		mvwaddch(win, y, x + cursor_col, '^' | A_BOLD);
	g_string_free(left, TRUE);
	g_string_free(right, TRUE);
}

/* The zoomed view's axis on line y: a tick (|) at each round time the
 * plan gives, its time of day after it, as fine as the step needs. */
static void draw_zoom_axis(struct tn_pane *pane, WINDOW *win, int y, int x,
		int cols, const struct strip_bins *bins)
{
	struct tn_strip_axis axis;
	GString *label = g_string_new(NULL);

	tn_strip_axis_plan(bins->begin_ns, bins->end_ns, (size_t) cols, &axis);
	for (int64_t t = axis.first; t <= bins->end_ns && t >= axis.first;
	     t += axis.step) {
		int col = tn_strip_column_of(t, bins->begin_ns, bins->end_ns,
			(size_t) cols);
		char *point;

		if (col < 0)
			break;
		g_string_truncate(label, 0);
		tn_time_format_wall(label, t, pane->host->session->view.gmt,
			false);
		/* "HH:MM:SS.NNNNNNNNN" to the decimals the step needs. */
		if ((point = strchr(label->str, '.')))
			g_string_truncate(label, (gsize) (point - label->str) +
				(axis.digits ? (gsize) axis.digits + 1 : 0));
		mvwaddch(win, y, x + col, '|');
		if (col + 1 + (int) label->len <= cols)
			tn_tui_draw_utf8(win, y, x + col + 1, label->str,
				cols - col - 1);
		if (t > INT64_MAX - axis.step)
			break;
	}
	g_string_free(label, TRUE);
}

/* On the title line, right: what the zoomed view spans. */
static void draw_zoom_title(WINDOW *win, int w,
		const struct strip_cache *cache)
{
	GString *text = g_string_new(" zoom: ");
	int cols;

	tn_state_tree_append_duration(text, cache->bins.end_ns -
		cache->bins.begin_ns + 1);
	if (cache->bins.count)
		g_string_append(text, ", ");
	if (cache->bins.count)
		tn_state_tree_append_duration(text, (cache->bins.end_ns -
			cache->bins.begin_ns) / (int64_t) cache->bins.count +
			1);
	g_string_append(text, cache->bins.count ? " a column (Z: whole "
		"trace) " : " (Z: whole trace) ");
	cols = (int) text->len;
	if (cols < w - 24)
		tn_tui_draw_utf8(win, 0, w - cols, text->str, cols);
	g_string_free(text, TRUE);
}

/* Bars of bins in rows 1 .. rows of win, from column x, cols wide. */
static void draw_bars(const struct tn_pane *pane, WINDOW *win, int rows,
		int x, int cols, const struct strip_bins *bins, int cursor_col,
		bool ascii)
{
	int64_t sel_begin, sel_end;
	int sel_from = cols, sel_to = -1;	/* columns of the selection */
	double *columns = g_new(double, cols), max = 0;
	int *heights = g_new(int, cols), *matched = g_new0(int, cols);

	tn_strip_columns(bins->counts, bins->count, columns, cols);
	tn_strip_heights(columns, cols, rows, heights);
	for (int c = 0; c < cols; c++)
		max = MAX(max, columns[c]);
	if (bins->matches) {
		tn_strip_columns(bins->matches, bins->count, columns, cols);
		tn_strip_heights_scaled(columns, cols, rows, max, matched);
	}
	if (bins->lost)
		tn_strip_columns(bins->lost, bins->count, columns, cols);
	/* The selection (or the range): its columns underlined. */
	if (tn_pane_selection(pane, &sel_begin, &sel_end)) {
		sel_from = tn_strip_column_of(MAX(sel_begin, bins->begin_ns),
			bins->begin_ns, bins->end_ns, cols);
		sel_to = tn_strip_column_of(MIN(sel_end, bins->end_ns),
			bins->begin_ns, bins->end_ns, cols);
		if (sel_from < 0 || sel_to < 0)
			sel_to = -1;
	}
	for (int c = 0; c < cols; c++) {
		attr_t attr = (c == cursor_col ? A_REVERSE : A_NORMAL) |
			(c >= sel_from && c <= sel_to ? A_UNDERLINE : 0);

		for (int r = 0; r < rows; r++) {
			/* The events' bar, its cells up to the matches'
			 * height in the match colour. */
			bool match = matched[c] > r * 8;

			wattrset(win, attr | (match ? tn_pane_attr(pane,
				TN_TUI_COLOR_MATCH) : 0));
			tn_tui_draw_utf8(win, rows - r, x + c,
				tn_strip_glyph(heights[c], r, ascii), 1);
		}
		/* Lost events: a ! on top of the column. */
		if (bins->lost && columns[c] > 0) {
			wattrset(win, attr | tn_pane_attr(pane,
				TN_TUI_COLOR_LOST));
			mvwaddch(win, 1, x + c, '!');
		}
	}
	wattrset(win, A_NORMAL);
	g_free(columns);
	g_free(heights);
	g_free(matched);
}

static void strip_draw(struct tn_pane *pane, WINDOW *win)
{
	const struct strip_cache *cache = pane->cache;
	struct strip_pane *p = pane->data;
	const struct strip_bins *bins = NULL;
	bool ascii = pane->host->ascii || !tn_tui_text_locale_is_utf8();
	char *waiting = NULL;
	int h, w, x, cols, rows, cursor_col = -1;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	cols = w - x;
	if (h < 2 || cols < 1)
		return;
	if (cache && cache->zoomed) {
		draw_zoom_title(win, w, cache);
		if (!cache->bins.count) {
			tn_tui_draw_utf8(win, 1, x, cache->error ?
				cache->error : "counting...", cols);
			return;
		}
		bins = &cache->bins;
	} else if (cache && cache->bins.count) {
		bins = &cache->bins;
	} else {
		/* While indexing: what it counted so far, if anything. */
		waiting = waiting_text(pane);
		if (p->partial.count)
			bins = &p->partial;
	}
	if (!bins) {
		tn_tui_draw_utf8(win, 1, x, waiting, cols);
		g_free(waiting);
		return;
	}
	/* Bars above the time axis, or alone in a pane of two lines. */
	rows = h > 2 ? h - 2 : 1;
	if (cache && cache->has_cursor)
		cursor_col = tn_strip_column_of(cache->cursor_ns,
			bins->begin_ns, bins->end_ns, cols);
	draw_bars(pane, win, rows, x, cols, bins, cursor_col, ascii);
	if (h > 2 && cache && cache->zoomed)
		draw_zoom_axis(pane, win, h - 1, x, cols, bins);
	else if (h > 2)
		draw_axis(pane, win, h - 1, x, cols, bins, waiting,
			cursor_col);
	g_free(waiting);
}

/* Move the list to the first event at or after column col's time. */
static void go_to_column(struct tn_pane *pane, long col)
{
	const struct strip_cache *cache = pane->cache;
	int cols = pane->rect.w - first_column(pane);
	struct tn_position pos = { 0, 0 };
	char line[64];

	if (!cache || !cache->bins.count || cols < 1)
		return;
	col = CLAMP(col, 0, cols - 1);
	pos.ns = tn_strip_time_of((size_t) col, cache->bins.begin_ns,
		cache->bins.end_ns, (size_t) cols);
	if (pos.ns < 0) {
		tn_pane_goto_position(pane, &pos);
		return;
	}
	/* As seconds: the first event at or after that time, without the
	 * note that a position (@NS:TIE) with no event there gets. */
	snprintf(line, sizeof(line), "goto %" PRId64 ".%09" PRId64,
		pos.ns / 1000000000, pos.ns % 1000000000);
	tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
}

/* The count-th column with events from col on, one step at a time
 * (step -1 or 1), or the last one found before the edge; -1 if none. */
static int busy_column(const struct strip_cache *cache, int cols, int col,
		int step, long count)
{
	double *columns = g_new(double, cols);
	int found = -1;

	tn_strip_columns(cache->bins.counts, cache->bins.count, columns, cols);
	for (int c = col + step; c >= 0 && c < cols && count > 0; c += step) {
		if (columns[c] > 0) {
			found = c;
			count--;
		}
	}
	g_free(columns);
	return found;
}

/* Go to column col, and step on from it until that move is shown. */
static void ask_column(struct tn_pane *pane, int col)
{
	struct strip_pane *p = pane->data;

	p->has_asked = true;
	p->asked_col = col;
	p->asked_cols = pane->rect.w - first_column(pane);
	p->asked_serial = tn_pane_idle_serial(pane);
	go_to_column(pane, col);
}

static bool strip_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	const struct strip_cache *cache = pane->cache;
	struct strip_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&strip_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;
	int cols = pane->rect.w - first_column(pane);
	int col;

	if (!b || b->action == STRIP_NONE)
		return false;
	if (!cache || !cache->bins.count || !cache->has_cursor || cols < 1)
		return true;
	if (p->has_asked && p->asked_cols == cols &&
	    p->asked_serial == tn_pane_idle_serial(pane))
		col = p->asked_col;
	else
		col = tn_strip_column_of(cache->cursor_ns, cache->bins.begin_ns,
			cache->bins.end_ns, (size_t) cols);
	col = busy_column(cache, cols, col,
		b->action == STRIP_LEFT ? -1 : 1, count);
	if (col >= 0)
		ask_column(pane, col);
	return true;
}

static void strip_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	int cols = pane->rect.w - first_column(pane);

	(void) y;
	if (wheel == 0 && x >= first_column(pane) && cols >= 1)
		ask_column(pane, MIN(x - first_column(pane), cols - 1));
}

/* While indexing: take the bins counted so far now and then, and draw
 * again when they or the progress changed. */
static bool strip_poll(struct tn_pane *pane)
{
	struct strip_pane *p = pane->data;
	const struct strip_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = pane->host->index;
	gint64 now = g_get_monotonic_time();
	int percent;

	if (cache && cache->bins.count && p->partial.counts)
		set_bins(&p->partial, NULL, 0, 0, 0);
	if (!pane->open || (cache && cache->bins.count))
		return false;
	percent = index->building && index->progress.fraction >= 0 ?
		(int) (index->progress.fraction * 100) : -1;
	if (percent != p->drawn_percent || index->building != p->drawn_building)
		pane->dirty = true;
	/* The session is the command job's while one runs. */
	if (index->building && !tn_pane_command_running(pane) &&
	    now - p->partial_us >= PARTIAL_EVERY_US) {
		int64_t begin_ns = 0, end_ns = 0;
		uint64_t *bins = NULL;
		size_t count = tn_session_get_partial_bins(pane->host->session,
			&begin_ns, &end_ns, &bins);

		set_bins(&p->partial, bins, count, begin_ns, end_ns);
		g_free(bins);
		p->partial_us = now;
		pane->dirty = true;
	}
	return index->building;
}

static void strip_init(struct tn_pane *pane)
{
	struct strip_pane *p = g_new0(struct strip_pane, 1);

	p->drawn_percent = -1;
	pane->data = p;
}

static void strip_destroy(struct tn_pane *pane)
{
	struct strip_pane *p = pane->data;

	if (!p)
		return;
	set_bins(&p->partial, NULL, 0, 0, 0);
	g_free(p);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_histogram = {
	.name = "histogram",
	.title = "Histogram",
	.toggle_key = 'i',
	.toggle_help = "show or hide the histogram strip (events over the "
		"trace's time range, or the span z zoomed it on, the cursor's "
		"time marked)",
	.layout = { TN_PANE_BOTTOM, 20, 3, 20, 0 },
	.keymap = &strip_keys,
	.shown_by = TN_CMD_SHOWS_HISTOGRAM,
	.init = strip_init,
	.destroy = strip_destroy,
	.cursor_moved = strip_cursor_moved,
	.cache_free = strip_cache_free,
	.draw = strip_draw,
	.key = strip_key,
	.mouse = strip_mouse,
	.poll = strip_poll,
};
