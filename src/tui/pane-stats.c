/* pane-stats.c - the statistics pane: the events per name of the range
 * (range T1 T2) or of the whole trace, with their share, most frequent
 * first, as `stats percent` prints them.
 *
 * The counts come from the index (tn_stats_count_names(): whole
 * checkpoint intervals from its counts, the two partial ones read), in
 * the list's job when the cursor moved, and only when the index or the
 * range changed since (the old cache is kept otherwise).  Enter filters
 * the list on the selected name.
 */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "tracenav/stats.h"
#include "tracenav/time.h"
#include "draw.h"
#include "pane.h"
#include "rows.h"
#include "tui-private.h"

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

/* What the pane shows: the counts of one range of one index. */
struct stats_cache {
	const struct tn_index *index;	/* they were counted with */
	bool has_events;		/* the range (or trace) has events */
	int64_t begin_ns, end_ns;
	bool is_range;			/* a range is set (not the trace) */
	struct tn_stats_names *names;	/* NULL: not counted (no index) */
	char *error;			/* why they could not be */
};

struct stats_pane {
	struct tn_tui_rows rows;	/* of names */
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
};

static const struct tn_tui_binding stats_bindings[] = {
	{ { 'j', FN(KEY_DOWN) }, NULL, STATS_DOWN, NULL,
		"next event name" },
	{ { 'k', FN(KEY_UP) }, NULL, STATS_UP, NULL,
		"previous event name" },
	{ { FN(KEY_NPAGE), CTRL('f') }, NULL, STATS_PAGE_DOWN, NULL,
		"next page of names" },
	{ { FN(KEY_PPAGE), CTRL('b') }, NULL, STATS_PAGE_UP, NULL,
		"previous page of names" },
	{ { 'g', FN(KEY_HOME) }, NULL, STATS_FIRST, NULL,
		"the most frequent name" },
	{ { 'G', FN(KEY_END) }, NULL, STATS_LAST, NULL,
		"the least frequent name" },
	{ { '\n', '\r' }, "Enter", STATS_FILTER, NULL,
		"show only the events of the selected name in the list (filter "
		"name == \"NAME\"; :clear-filters shows them all again)" },
};

static const struct tn_tui_keymap stats_keys = {
	"Statistics pane", stats_bindings, G_N_ELEMENTS(stats_bindings),
};

static void stats_cache_free(void *data)
{
	struct stats_cache *cache = data;

	if (!cache)
		return;
	if (cache->names)
		tn_stats_names_destroy(cache->names);
	g_free(cache->error);
	g_free(cache);
}

/* A copy of cache's counts (the old cache is freed when replaced). */
static struct stats_cache *copy_cache(const struct stats_cache *old)
{
	struct stats_cache *cache = g_memdup2(old, sizeof(*old));

	cache->error = g_strdup(old->error);
	if (old->names) {
		struct tn_stats_names *names = g_memdup2(old->names,
			sizeof(*old->names));

		names->entries = g_new(struct tn_stats_entry,
			MAX(names->entry_count, 1));
		for (size_t i = 0; i < names->entry_count; i++) {
			names->entries[i].key = g_strdup(
				old->names->entries[i].key);
			names->entries[i].count = old->names->entries[i].count;
		}
		cache->names = names;
	}
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

	if (old && old->index == session->index &&
	    old->has_events == has_events && old->begin_ns == begin &&
	    old->end_ns == end && (old->names || old->error || !old->index))
		return copy_cache(old);
	cache = g_new0(struct stats_cache, 1);
	cache->index = session->index;
	cache->has_events = has_events;
	cache->begin_ns = begin;
	cache->end_ns = end;
	cache->is_range = session->has_range;
	if (!session->index || !has_events || !view->may_read)
		return cache;
	if (tn_stats_count_names(session->trace, session->index, begin, end,
			&cache->names, &err))
		cache->error = g_strdup(err.message);
	return cache;
}

static long name_count(const struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;

	return cache && cache->names ? (long) cache->names->entry_count : 0;
}

/* Lines of names: under the title and the summary line. */
static int list_lines(const struct tn_pane *pane)
{
	return MAX(pane->rect.h - 2, 1);
}

/* "12345 events, whole trace" or "range 1.5 ms: 12345 events". */
static char *summary(const struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	const struct tn_tui_index_status *index = &pane->tui->index;
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
	if (!cache->has_events || !cache->names)
		return g_strdup("no event");
	text = g_string_new(NULL);
	if (cache->is_range) {
		g_string_append(text, "range ");
		tn_time_format_seconds(text, cache->end_ns - cache->begin_ns);
		g_string_append(text, " s: ");
	}
	g_string_append_printf(text, "%" PRIu64 " events%s",
		cache->names->event_count, cache->is_range ? "" :
		", whole trace");
	return g_string_free(text, FALSE);
}

static void stats_draw(struct tn_pane *pane, WINDOW *win)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	bool focused = tn_panes_focused(&pane->tui->panes) == pane;
	int h, w, x;
	char *text;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	if (h < 2 || w <= x)
		return;
	p->drawn_percent = pane->tui->index.building ?
		(int) (pane->tui->index.progress.fraction * 100) : -1;
	text = summary(pane);
	tn_tui_draw_utf8(win, 1, x, text, w - x);
	g_free(text);
	for (int line = 0; line < list_lines(pane) && line + 2 < h; line++) {
		long row = p->rows.top + line;
		const struct tn_stats_entry *e;
		double share;
		char *row_text;

		if (row >= name_count(pane))
			break;
		e = &cache->names->entries[row];
		share = cache->names->event_count ? 100.0 * (double) e->count /
			(double) cache->names->event_count : 0;
		row_text = g_strdup_printf("%10" PRIu64 " %6.2f%% %s",
			e->count, share, e->key);
		if (row == p->rows.selected)
			wattrset(win, focused ? A_REVERSE : A_BOLD);
		tn_tui_draw_utf8(win, line + 2, x, row_text, w - x);
		wattrset(win, A_NORMAL);
		g_free(row_text);
	}
}

/* filter name == "NAME", the name quoted for the filter's parser. */
static void filter_selected(struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	GString *line;

	if (p->rows.selected >= name_count(pane))
		return;
	line = g_string_new("filter name == \"");
	for (const char *c = cache->names->entries[p->rows.selected].key; *c; c++) {
		if (*c == '"' || *c == '\\')
			g_string_append_c(line, '\\');
		g_string_append_c(line, *c);
	}
	g_string_append_c(line, '"');
	tn_tui_run_line(pane->tui, line->str, TN_TUI_FOLLOW_BY_COMMAND);
	g_string_free(line, TRUE);
}

static bool stats_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	struct stats_pane *p = pane->data;
	const struct tn_tui_binding *b = tn_tui_keymap_find(&stats_keys,
		key->key);
	long count = key->has_count ? MAX(key->count, 1) : 1;

	if (!b)
		return false;
	if (b->action == STATS_FILTER)
		filter_selected(pane);
	else
		tn_tui_rows_move(&p->rows, b->action, count, name_count(pane),
			list_lines(pane));
	pane->dirty = true;
	return true;
}

static void stats_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	struct stats_pane *p = pane->data;

	(void) x;
	tn_tui_rows_mouse(&p->rows, y - 2, wheel, name_count(pane),
		list_lines(pane));
	pane->dirty = true;
}

/* Draw again while the index is built (the summary says how far). */
static bool stats_poll(struct tn_pane *pane)
{
	const struct stats_cache *cache = pane->cache;
	struct stats_pane *p = pane->data;
	const struct tn_tui_index_status *index = &pane->tui->index;

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
		"name of the range, or of the whole trace)",
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
