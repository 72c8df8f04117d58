/* pane-stats.c - the statistics pane: the events of the range (range
 * T1 T2) or of the whole trace per name (most frequent first, as `stats
 * percent` prints them), per CPU, per stream and per trace (host), with
 * their share, and the events the tracer lost: the sections of `stats
 * all`, one under the other.
 *
 * The counts come from the index (tn_stats_count(): whole checkpoint
 * intervals from its counts, the two partial ones read), in the list's
 * job when the cursor moved, and only when the index or the range
 * changed since (the old cache is kept otherwise).  Enter on a name or a
 * CPU filters the list on it; ] and [ go to the next and previous
 * section.
 */
#include <glib.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/stats.h"
#include "tracenav/time.h"
#include "draw.h"
#include "pane.h"
#include "rows.h"

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

/* What the pane shows: the counts of one range of one index. */
struct stats_cache {
	const struct tn_index *index;	/* they were counted with */
	bool has_events;		/* the range (or trace) has events */
	int64_t begin_ns, end_ns;
	bool is_range;			/* a range is set (not the trace) */
	struct tn_stats_counts *counts;	/* NULL: not counted (no index) */
	char *error;			/* why they could not be */
};

/* The sections, in the order shown: a heading line, then a line per
 * entry (the lost events: one line). */
enum section_kind { SECTION_NAMES, SECTION_CPUS, SECTION_STREAMS,
	SECTION_TRACES, SECTION_LOST };

static const struct section {
	enum section_kind kind;
	const char *title;
	size_t count_at, entries_at;	/* in struct tn_stats_counts */
} sections[] = {
	{ SECTION_NAMES, "Event names",
		offsetof(struct tn_stats_counts, name_count),
		offsetof(struct tn_stats_counts, names) },
	{ SECTION_CPUS, "CPUs", offsetof(struct tn_stats_counts, cpu_count),
		offsetof(struct tn_stats_counts, cpus) },
	{ SECTION_STREAMS, "Streams (trace/class/stream)",
		offsetof(struct tn_stats_counts, stream_count),
		offsetof(struct tn_stats_counts, streams) },
	{ SECTION_TRACES, "Traces (hosts)",
		offsetof(struct tn_stats_counts, trace_count),
		offsetof(struct tn_stats_counts, traces) },
	{ SECTION_LOST, "Lost events", 0, 0 },
};

/* The entries of a section of counts (none for the lost events). */
static size_t section_entries(const struct tn_stats_counts *counts,
		const struct section *section,
		const struct tn_stats_entry **entries)
{
	if (section->kind == SECTION_LOST) {
		*entries = NULL;
		return 1;
	}
	*entries = *(struct tn_stats_entry *const *) (const void *)
		((const char *) counts + section->entries_at);
	return *(const size_t *) (const void *) ((const char *) counts +
		section->count_at);
}

/* A line of the pane: a section's heading (entry NULL, not lost) or one
 * of its entries. */
struct line {
	const struct section *section;
	const struct tn_stats_entry *entry;	/* NULL: the heading */
	bool lost;				/* the lost events' line */
};

/* Line number row of counts into *line; false past the last. */
static bool line_at(const struct tn_stats_counts *counts, long row,
		struct line *line)
{
	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++) {
		const struct tn_stats_entry *entries;
		size_t n = section_entries(counts, &sections[i], &entries);

		if (row == 0) {
			*line = (struct line) { &sections[i], NULL, false };
			return true;
		}
		if ((size_t) row <= n) {
			*line = (struct line) { &sections[i], entries ?
				&entries[row - 1] : NULL, !entries };
			return true;
		}
		row -= (long) n + 1;
	}
	return false;
}

static long line_count(const struct tn_stats_counts *counts)
{
	long total = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++) {
		const struct tn_stats_entry *entries;

		total += (long) section_entries(counts, &sections[i],
			&entries) + 1;
	}
	return total;
}

struct stats_pane {
	struct tn_tui_rows rows;	/* of lines */
	int drawn_percent;	/* of the indexing, in the summary; -1 */
};

enum stats_action {
	STATS_DOWN = TN_ROWS_DOWN,
	STATS_UP = TN_ROWS_UP,
	STATS_PAGE_DOWN = TN_ROWS_PAGE_DOWN,
	STATS_PAGE_UP = TN_ROWS_PAGE_UP,
	STATS_FIRST = TN_ROWS_FIRST,
	STATS_LAST = TN_ROWS_LAST,
	STATS_FILTER,
	STATS_NEXT_SECTION,
	STATS_PREVIOUS_SECTION,
};

static const struct tn_tui_binding stats_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, STATS_DOWN, NULL,
		"next line" },
	{ { 'k', FN(KEY_UP) }, NULL, STATS_UP, NULL,
		"previous line" },
	{ { FN(KEY_NPAGE), CTRL('f') }, NULL, STATS_PAGE_DOWN, NULL,
		"next page" },
	{ { FN(KEY_PPAGE), CTRL('b') }, NULL, STATS_PAGE_UP, NULL,
		"previous page" },
	{ { 'g', FN(KEY_HOME) }, NULL, STATS_FIRST, NULL,
		"the first line (the most frequent name)" },
	{ { 'G', FN(KEY_END) }, NULL, STATS_LAST, NULL,
		"the last line (the lost events)" },
	{ { ']' }, NULL, STATS_NEXT_SECTION, NULL,
		"the next section (names, CPUs, streams, traces, lost events)" },
	{ { '[' }, NULL, STATS_PREVIOUS_SECTION, NULL,
		"the previous section" },
	{ { '\n', '\r' }, "Enter", STATS_FILTER, NULL,
		"show only the events of the selected name or CPU in the list "
		"(filter name == \"NAME\", filter cpu == N; :clear-filters shows "
		"them all again)" },
};

static const struct tn_tui_keymap stats_keys = {
	"Statistics pane", stats_bindings, G_N_ELEMENTS(stats_bindings),
};

static void stats_cache_free(void *data)
{
	struct stats_cache *cache = data;

	if (!cache)
		return;
	tn_stats_counts_destroy(cache->counts);
	g_free(cache->error);
	g_free(cache);
}

/* A copy of cache's counts (the old cache is freed when replaced). */
static struct stats_cache *copy_cache(const struct stats_cache *old)
{
	struct stats_cache *cache = g_memdup2(old, sizeof(*old));

	cache->error = g_strdup(old->error);
	if (old->counts)
		cache->counts = tn_stats_counts_copy(old->counts);
	return cache;
}

/* In the list's job: count again when the index or the range changed. */
static void *stats_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	const struct stats_cache *old = old_cache;
	struct tn_session *session = view->session;
	struct stats_cache *cache;
	struct tn_error err;
	int64_t begin = 0, end = 0;
	bool has_events = tn_session_get_range(session, &begin, &end);

	if (old && old->index == session->indexing.index &&
	    old->has_events == has_events && old->begin_ns == begin &&
	    old->end_ns == end && (old->counts || old->error || !old->index))
		return copy_cache(old);
	cache = g_new0(struct stats_cache, 1);
	cache->index = session->indexing.index;
	cache->has_events = has_events;
	cache->begin_ns = begin;
	cache->end_ns = end;
	cache->is_range = session->view.has_range;
	if (!session->indexing.index || !has_events || !view->may_read)
		return cache;
	if (tn_stats_count(session->trace, session->indexing.index, begin, end,
			&cache->counts, &err))
		cache->error = g_strdup(err.message);
	return cache;
}

static long row_count(const struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;

	return cache && cache->counts ? line_count(cache->counts) : 0;
}

/* Lines of counts: under the title and the summary line. */
static int list_lines(const struct tn_pane *pane)
{
	return MAX(pane->rect.h - 2, 1);
}

/* "12345 events, whole trace" or "range 1.5 ms: 12345 events". */
static char *summary(const struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = pane->host->index;
	GString *text;

	if (!cache || !cache->index) {
		if (index->building && index->progress.fraction >= 0)
			return g_strdup_printf("counted with the index: "
				"indexing %d%%",
				(int) (index->progress.fraction * 100));
		if (index->building)
			return g_strdup("counted with the index: indexing...");
		return g_strdup("The counts need the index: type :index to "
			"build it.");
	}
	if (cache->error)
		return g_strdup_printf("cannot count: %s", cache->error);
	if (!cache->has_events || !cache->counts)
		return g_strdup("no event");
	text = g_string_new(NULL);
	if (cache->is_range) {
		g_string_append(text, "range ");
		tn_time_format_seconds(text, cache->end_ns - cache->begin_ns);
		g_string_append(text, " s: ");
	}
	g_string_append_printf(text, "%" PRIu64 " events%s",
		cache->counts->event_count, cache->is_range ? "" :
		", whole trace");
	return g_string_free(text, FALSE);
}

/* "  12345  45.67% sched_switch" under "CPUs (4)". */
static char *line_text(const struct tn_stats_counts *counts,
		const struct line *line)
{
	const struct tn_stats_entry *entries;

	if (line->lost)
		return g_strdup_printf("%10" PRIu64 " lost", counts->lost);
	if (!line->entry) {
		size_t n = section_entries(counts, line->section, &entries);

		return line->section->kind == SECTION_LOST ?
			g_strdup(line->section->title) :
			g_strdup_printf("%s (%zu)", line->section->title, n);
	}
	return g_strdup_printf("%10" PRIu64 " %6.2f%% %s", line->entry->count,
		counts->event_count ? 100.0 * (double) line->entry->count /
		(double) counts->event_count : 0, line->entry->key);
}

static void stats_draw(struct tn_pane *pane, WINDOW *win)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	bool focused = tn_pane_is_focused(pane);
	int h, w, x;
	char *text;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	if (h < 2 || w <= x)
		return;
	p->drawn_percent = pane->host->index->building ?
		(int) (pane->host->index->progress.fraction * 100) : -1;
	text = summary(pane);
	tn_tui_draw_utf8(win, 1, x, text, w - x);
	g_free(text);
	for (int y = 0; y < list_lines(pane) && y + 2 < h; y++) {
		long row = p->rows.top + y;
		struct line line;
		char *row_text;

		if (row >= row_count(pane) ||
		    !line_at(cache->counts, row, &line))
			break;
		row_text = line_text(cache->counts, &line);
		if (row == p->rows.selected)
			wattrset(win, focused ? A_REVERSE : A_BOLD);
		else if (!line.entry && !line.lost)
			wattrset(win, A_BOLD | A_UNDERLINE);
		tn_tui_draw_utf8(win, y + 2, x, row_text, w - x);
		wattrset(win, A_NORMAL);
		g_free(row_text);
	}
}

/* filter name == "NAME" (quoted for the filter's parser), or filter
 * cpu == N, for the selected line. */
static void filter_selected(struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	struct line line;
	GString *text;

	if (p->rows.selected >= row_count(pane) ||
	    !line_at(cache->counts, p->rows.selected, &line) || !line.entry)
		return;
	if (line.section->kind == SECTION_CPUS &&
	    strcmp(line.entry->key, "-") != 0) {
		text = g_string_new(NULL);
		g_string_printf(text, "filter cpu == %s", line.entry->key);
	} else if (line.section->kind == SECTION_NAMES) {
		text = g_string_new("filter name == \"");
		for (const char *c = line.entry->key; *c; c++) {
			if (*c == '"' || *c == '\\')
				g_string_append_c(text, '\\');
			g_string_append_c(text, *c);
		}
		g_string_append_c(text, '"');
	} else {
		tn_pane_message(pane, true, "Enter filters the list on "
			"an event name or a CPU: choose one of those lines");
		return;
	}
	tn_pane_run_line(pane, text->str, TN_TUI_FOLLOW_BY_COMMAND);
	g_string_free(text, TRUE);
}

/* The heading of the section after (step 1) or before (step -1) the
 * selected line's, or -1. */
static long section_row(const struct tn_pane *pane, int step)
{
	const struct stats_cache *cache = pane->cache;
	const struct stats_pane *p = pane->data;
	long count = row_count(pane);
	long row = p->rows.selected;
	struct line line;

	/* Back from an entry: its own heading first, as vim's [[ does. */
	for (row += step; row >= 0 && row < count; row += step) {
		if (line_at(cache->counts, row, &line) && !line.entry &&
		    !line.lost)
			return row;
	}
	return -1;
}

static bool stats_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct stats_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&stats_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;

	if (!b)
		return false;
	if (b->action == STATS_FILTER) {
		filter_selected(pane);
	} else if (b->action == STATS_NEXT_SECTION ||
		   b->action == STATS_PREVIOUS_SECTION) {
		long row = section_row(pane,
			b->action == STATS_NEXT_SECTION ? 1 : -1);

		/* The section's heading at the top: as much of it as
		 * fits shows. */
		if (row >= 0) {
			p->rows.top = MIN(row, MAX(row_count(pane) -
				list_lines(pane), 0));
			tn_tui_rows_select(&p->rows, row, row_count(pane),
				list_lines(pane));
		}
	} else {
		tn_tui_rows_move(&p->rows, b->action, count, row_count(pane),
			list_lines(pane));
	}
	pane->dirty = true;
	return true;
}

static void stats_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct stats_pane *p = pane->data;

	(void) x;
	tn_tui_rows_mouse(&p->rows, y - 2, wheel, row_count(pane),
		list_lines(pane));
	pane->dirty = true;
}

/* Draw again while the index is built (the summary says how far). */
static bool stats_poll(struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	const struct tn_tui_index_status *index = pane->host->index;

	if (!pane->open || (cache && cache->index))
		return false;
	if ((index->building ? (int) (index->progress.fraction * 100) : -1) !=
	    p->drawn_percent)
		pane->dirty = true;
	return index->building;
}

static void stats_init(struct tn_pane *pane)
{
	struct stats_pane *p = g_new0(struct stats_pane, 1);

	p->drawn_percent = -1;
	pane->data = p;
}

static void stats_destroy(struct tn_pane *pane)
{
	g_free(pane->data);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_stats = {
	.name = "stats",
	.title = "Statistics",
	.toggle_key = 'S',
	.toggle_help = "show or hide the statistics pane (the events per "
		"name, CPU, stream and trace of the range, or of the whole "
		"trace, and the lost events)",
	.layout = { TN_PANE_RIGHT, 24, 3, 36, 0 },
	.keymap = &stats_keys,
	.init = stats_init,
	.destroy = stats_destroy,
	.cursor_moved = stats_cursor_moved,
	.cache_free = stats_cache_free,
	.draw = stats_draw,
	.key = stats_key,
	.mouse = stats_mouse,
	.poll = stats_poll,
};
