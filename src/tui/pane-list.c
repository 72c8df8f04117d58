/* pane-list.c - the event list pane: one row per event, in columns
 * (time, delta, host, CPU, event name, fields), the current row
 * highlighted.
 *
 * What it shows is computed by list-rows.c when the cursor moved; here
 * the rows are laid out at the window's width: the columns left of the
 * fields stay put (frozen) while the fields scroll sideways, and they
 * make room for at least FIELDS_MIN columns of fields by narrowing the
 * event name and dropping the delta.  The fields are the payload, then
 * the contexts dimmed (c hides them).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "list.h"
#include "pane.h"
#include "text.h"

/* Columns of fields the list keeps, narrowing the other columns. */
#define FIELDS_MIN 40
#define TIME_COLS 18		/* HH:MM:SS.NNNNNNNNN */
#define DELTA_COLS 12		/* +S.NNNNNNNNN */
#define CPU_COLS 3
#define NAME_MAX_COLS 32
#define NAME_MIN_COLS 12
#define HOST_MAX_COLS 20
#define HOST_MIN_COLS 8

enum list_action {
	LIST_NONE,
	LIST_COUNT,		/* documented: digits before a key */
	LIST_PERCENT,		/* NN%: go to that fraction of the time */
	LIST_SCROLL_LEFT,
	LIST_SCROLL_RIGHT,
	LIST_CONTEXTS,		/* show or hide the contexts */
	LIST_COPY,		/* y: the current event's line, OSC 52 */
	LIST_MOUSE,		/* documented: see list_mouse */
	LIST_GOTO,		/* t: the prompt with "goto " */
	LIST_SEARCH,		/* /: the prompt for a search */
	LIST_FILTER,		/* &: the prompt for a filter-in regex */
	LIST_UNZOOM,		/* Z: histogram whole */
};

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

static const struct tn_tui_binding list_bindings[] = {
	{ { 'j', FN(KEY_DOWN), CTRL('n'), CTRL('e') }, NULL, 0,
		"down", "next event" },
	{ { 'k', FN(KEY_UP), CTRL('p'), CTRL('y') }, NULL, 0,
		"up", "previous event" },
	{ { 0 }, "N j, N k", LIST_COUNT, NULL,
		"digits before j, k, Down or Up: move N events" },
	{ { FN(KEY_NPAGE), ' ', 'f', CTRL('f') }, NULL, 0,
		"pgdn", "next page (the cursor keeps its screen row)" },
	{ { FN(KEY_PPAGE), 'b', CTRL('b') }, NULL, 0,
		"pgup", "previous page" },
	{ { 'g', FN(KEY_HOME), '<' }, NULL, 0,
		"top", "first event" },
	{ { 'G', FN(KEY_END), '>' }, NULL, 0,
		"bottom", "last event (in follow mode: follow again)" },
	{ { 'F' }, NULL, 0, "follow",
		"follow the trace as it is written (as less's F): the newest "
		"event stays in view; a move away holds the position, G or F "
		"follows again (follow off stops)" },
	{ { 0 }, "N G", LIST_COUNT, NULL,
		"digits then G: go to event number N (once indexed; with "
		"filters, once their matches are counted: match N)" },
	{ { '%' }, "NN%", LIST_PERCENT, NULL,
		"digits then %: go to NN% of the time range (50% the middle)" },
	{ { 't' }, NULL, LIST_GOTO, NULL,
		"jump to a time: the prompt with goto (a time, +10ms, -2s, "
		"begin, end, a pasted [time] or ISO 8601 date-time)" },
	{ { '/' }, NULL, LIST_SEARCH, NULL,
		"search the whole trace: type a regex, Enter goes to the "
		"first event from here whose line matches (search)" },
	{ { 'n' }, NULL, 0, "next",
		"the next match of the last search" },
	{ { 'N' }, NULL, 0, "prev",
		"the previous match of the last search" },
	{ { '&' }, NULL, LIST_FILTER, NULL,
		"filter: type a regex, Enter shows only the events whose line "
		"matches (filter-in; an empty one removes the filters)" },
	{ { 'v' }, NULL, 0, "select",
		"select a time range: from this event, move, then v again sets "
		"it as the range that statistics count (range; Esc cancels)" },
	{ { 'z' }, NULL, 0, "histogram",
		"zoom the histogram strip (opened if needed) on the selection, "
		"else the range, else the events on the screen, a bin a "
		"column, with a time axis" },
	{ { 'Z' }, NULL, LIST_UNZOOM, NULL,
		"the histogram strip over the whole trace again (histogram "
		"whole)" },
	{ { 'm' }, NULL, 0, "mark",
		"mark the selected event (* in the left column), or unmark "
		"it" },
	{ { 'u' }, NULL, 0, "next-mark",
		"the next marked event (from the last, the first)" },
	{ { 'U' }, NULL, 0, "prev-mark",
		"the previous marked event" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, 0,
		"detail", "every field of the selected event" },
	{ { 'h', FN(KEY_LEFT) }, NULL, LIST_SCROLL_LEFT, NULL,
		"scroll the fields left (time and name stay)" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, LIST_SCROLL_RIGHT, NULL,
		"scroll the fields right" },
	{ { 'c' }, NULL, LIST_CONTEXTS, NULL,
		"show or hide the contexts (dimmed, after the payload)" },
	{ { 'y' }, NULL, LIST_COPY, NULL,
		"copy the event's line, as --dump prints it, to the "
		"terminal's clipboard (OSC 52)" },
	{ { 0 }, "wheel", LIST_MOUSE, NULL,
		"mouse wheel: scroll 3 events" },
	{ { 0 }, "click", LIST_MOUSE, NULL,
		"mouse click on a row: select it" },
};

static const struct tn_tui_keymap list_keys = {
	"Event list", list_bindings, G_N_ELEMENTS(list_bindings),
};

/* The pane's own state (the UI thread's). */
struct list_state {
	int hscroll;		/* columns of fields scrolled off */
	bool hide_contexts;
	bool several_hosts;	/* a host column is worth it */
	int host_cols;		/* the longest host name, capped */
	int name_cols;		/* the longest event name, capped */
	/* The screen row a click moved the cursor to: until every move
	 * asked for is shown (the idle serial changes), a click counts
	 * its move from there, not from the row shown as current. */
	bool has_clicked;
	int clicked_row;
	unsigned clicked_serial;
};

/* Where the columns go at some width (0: not shown).  The gutter, left
 * of the time, shows the marks (*) while there are any, as vim's sign
 * column does. */
struct columns {
	int gutter;
	int time, delta, host, cpu, name;
	int fields_x;		/* first column of the fields */
};

static int text_columns(const char *s)
{
	GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int w = tn_tui_text_decode(tmp, s ? s : "", -1, -1);

	g_array_free(tmp, TRUE);
	return w;
}

static int fixed_width(const struct columns *c)
{
	const int cols[] = { c->time, c->delta, c->host, c->cpu, c->name };
	int sum = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(cols); i++)
		sum += cols[i] ? cols[i] + 1 : 0;
	return sum + c->gutter;
}

/* The columns for width: all of them when they leave FIELDS_MIN columns
 * of fields; otherwise a narrower name, then no delta, then a narrower
 * host, then a narrower name still. */
static void plan_columns(const struct list_state *state,
		const struct list_cache *cache, int width, struct columns *c)
{
	int lack;

	*c = (struct columns) { cache && cache->has_marks ? 1 : 0,
		TIME_COLS, DELTA_COLS,
		state->several_hosts ? state->host_cols : 0,
		cache && cache->has_cpu ? CPU_COLS : 0, state->name_cols, 0 };
	lack = FIELDS_MIN - (width - fixed_width(c));
	if (lack > 0)
		c->name = MAX(MIN(NAME_MIN_COLS, c->name), c->name - lack);
	if (FIELDS_MIN > width - fixed_width(c))
		c->delta = 0;
	lack = FIELDS_MIN - (width - fixed_width(c));
	if (lack > 0 && c->host)
		c->host = MAX(MIN(HOST_MIN_COLS, c->host), c->host - lack);
	lack = FIELDS_MIN - (width - fixed_width(c));
	if (lack > 0)
		c->name = MAX(MIN(8, c->name), c->name - lack);
	c->fields_x = fixed_width(c);
}

/* The frozen part of a row (or of the header), after the gutter's
 * mark when it shows. */
static void compose_fixed(const struct columns *c, const char *const *cols,
		bool marked, GArray *line)
{
	const int widths[] = { c->time, c->delta, c->host, c->cpu, c->name };

	if (c->gutter)
		tn_tui_text_decode(line, marked ? "*" : " ", -1, -1);

	for (size_t i = 0; i < G_N_ELEMENTS(widths); i++) {
		if (!widths[i])
			continue;
		tn_tui_text_append_cut(line, cols[i], widths[i]);
		tn_tui_text_append_spaces(line, 1);
	}
}

/* The colour of an event name, by its kind: scheduling, system calls,
 * interrupts and timers, userspace (provider:event); 0 for the rest. */
static enum tn_tui_color name_color(const char *name)
{
	static const struct {
		const char *prefix;
		enum tn_tui_color color;
	} kinds[] = {
		{ "sched_", TN_TUI_COLOR_SCHED },
		{ "lttng_statedump_", TN_TUI_COLOR_SCHED },
		{ "syscall_", TN_TUI_COLOR_SYSCALL },
		{ "compat_syscall_", TN_TUI_COLOR_SYSCALL },
		{ "irq_", TN_TUI_COLOR_IRQ },
		{ "softirq_", TN_TUI_COLOR_IRQ },
		{ "hrtimer_", TN_TUI_COLOR_IRQ },
		{ "timer_", TN_TUI_COLOR_IRQ },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (g_str_has_prefix(name, kinds[i].prefix))
			return kinds[i].color;
	return strchr(name, ':') ? TN_TUI_COLOR_USER : 0;
}

/* Change the attributes of n cells from (y, x), keeping their text. */
static void paint(WINDOW *win, int y, int x, int n, attr_t attr)
{
	if (n > 0)
		mvwchgat(win, y, x, n, attr & ~A_COLOR,
			(short) PAIR_NUMBER(attr), NULL);
}

/* Paint fields columns [from, to) as they show after the scroll. */
static void paint_fields(WINDOW *win, int y, const struct columns *c,
		int hscroll, int width, int from, int to, attr_t attr)
{
	int left = MAX(from, hscroll), right = MIN(to, hscroll + width -
		c->fields_x);

	paint(win, y, c->fields_x + left - hscroll, right - left, attr);
}

/* The columns that the first bytes of text take. */
static int prefix_columns(const char *text, size_t bytes)
{
	GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int w = tn_tui_text_decode(tmp, text, (gssize) bytes, -1);

	g_array_free(tmp, TRUE);
	return w;
}

/* Light the parts of the last search's matches in row y: in the frozen
 * columns (cut to their widths) and in the fields as they scroll.  The
 * fields are the lost count (lost_cols), the payload (to payload_cols)
 * and the contexts after ", ". */
static void paint_matches(struct tn_pane *pane, WINDOW *win,
		const struct columns *c, const struct list_row *row, int y,
		attr_t base, int lost_cols, int payload_cols)
{
	const struct list_state *state = pane->data;
	attr_t attr = base | tn_pane_attr(pane, TN_TUI_COLOR_MATCH);
	const char *const texts[LIST_CELL_COUNT] = { row->time, row->delta,
		row->host, row->name, row->payload, row->contexts };
	/* The frozen columns, from the fields leftwards. */
	int name_x = c->fields_x - c->name - 1;
	int host_x = name_x - (c->cpu ? c->cpu + 1 : 0) -
		(c->host ? c->host + 1 : 0);
	int delta_x = host_x - (c->delta ? c->delta + 1 : 0);
	int time_x = delta_x - (c->time ? c->time + 1 : 0);
	const int xs[] = { time_x, delta_x, host_x, name_x };
	const int widths[] = { c->time, c->delta, c->host, c->name };
	int width = getmaxx(win);

	for (guint i = 0; row->matches && i < row->matches->len; i++) {
		const struct list_match *m = &g_array_index(row->matches,
			struct list_match, i);
		const char *text = texts[m->cell];
		int from = prefix_columns(text, m->start);
		int to = prefix_columns(text, m->end);
		int shift;

		if (m->cell < LIST_CELL_PAYLOAD) {
			to = MIN(to, widths[m->cell]);
			if (from < to)
				paint(win, y, xs[m->cell] + from, to - from,
					attr);
			continue;
		}
		if (m->cell == LIST_CELL_CONTEXTS && state->hide_contexts)
			continue;
		shift = m->cell == LIST_CELL_PAYLOAD ? lost_cols :
			payload_cols + (row->payload[0] ? 2 : 0);
		paint_fields(win, y, c, state->hscroll, width, shift + from,
			shift + to, attr);
	}
}

static void draw_header(struct tn_pane *pane, WINDOW *win,
		const struct columns *c, int width, bool focused)
{
	static const char *const titles[] = {
		"Time", "Delta", "Host", "CPU", "Event",
	};
	const struct list_state *state = pane->data;
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));

	compose_fixed(c, titles, false, line);
	tn_tui_text_decode(line, state->hide_contexts ?
		"Fields (c: contexts hidden)" : "Fields", -1, -1);
	wattrset(win, tn_pane_attr(pane, focused ? TN_TUI_COLOR_HEADER :
		TN_TUI_COLOR_PANE));
	tn_tui_draw_wide(win, 0, 0, (wchar_t *) line->data, line->len, 0,
		width);
	g_array_free(line, TRUE);
}

static void draw_row(struct tn_pane *pane, WINDOW *win,
		const struct columns *c, const struct list_row *row,
		bool focused)
{
	const struct list_state *state = pane->data;
	const char *cols[] = { row->time, row->delta, row->host, row->cpu,
		row->name };
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	GString *fields = g_string_new(NULL);
	int width = getmaxx(win), y = 1 + row->screen_row;
	int lost_cols = 0, payload_cols;
	int64_t sel_begin, sel_end;
	attr_t base = row->notice ? tn_pane_attr(pane, TN_TUI_COLOR_NOTICE) :
		A_NORMAL;
	enum tn_tui_color color = row->notice ? 0 : name_color(row->name);

	if (row->current)
		base |= focused ? A_REVERSE : A_UNDERLINE | A_BOLD;
	if (row->lost_before) {
		g_string_printf(fields, "(%" PRIu64 " lost before) ",
			row->lost_before);
		lost_cols = text_columns(fields->str);
	}
	g_string_append(fields, row->payload);
	payload_cols = text_columns(fields->str);
	if (!state->hide_contexts && row->contexts[0])
		g_string_append_printf(fields, "%s%s",
			row->payload[0] ? ", " : "", row->contexts);

	wattrset(win, base);
	compose_fixed(c, cols, row->marked, line);
	tn_tui_draw_wide(win, y, 0, (wchar_t *) line->data, line->len, 0,
		c->fields_x);
	g_array_set_size(line, 0);
	tn_tui_text_decode(line, fields->str, -1, -1);
	tn_tui_draw_wide(win, y, c->fields_x, (wchar_t *) line->data,
		line->len, state->hscroll, width - c->fields_x);
	if (color)
		paint(win, y, c->fields_x - c->name - 1, c->name,
			base | tn_pane_attr(pane, color));
	if (row->marked && c->gutter)
		paint(win, y, 0, 1, base | A_BOLD |
			tn_pane_attr(pane, TN_TUI_COLOR_NOTICE));
	/* In the selection or the range: the time reversed. */
	if (c->time && tn_pane_selection(pane, &sel_begin, &sel_end) &&
	    row->pos.ns >= sel_begin && row->pos.ns <= sel_end && !row->notice)
		paint(win, y, c->gutter, c->time, (base | A_REVERSE) ^
			(row->current && focused ? A_REVERSE : 0));
	if (lost_cols)
		paint_fields(win, y, c, state->hscroll, width, 0, lost_cols,
			base | tn_pane_attr(pane, TN_TUI_COLOR_LOST));
	if (!state->hide_contexts)
		paint_fields(win, y, c, state->hscroll, width, payload_cols,
			(int) line->len + width, base | A_DIM);
	paint_matches(pane, win, c, row, y, base, lost_cols, payload_cols);
	g_string_free(fields, TRUE);
	g_array_free(line, TRUE);
}

static void list_draw(struct tn_pane *pane, WINDOW *win)
{
	const struct list_cache *cache = pane->cache;
	bool focused = tn_pane_is_focused(pane);
	int width = getmaxx(win);
	struct columns c;

	werase(win);
	plan_columns(pane->data, cache, width, &c);
	draw_header(pane, win, &c, width, focused);
	wattrset(win, A_NORMAL);
	if (!cache) {
		tn_tui_draw_utf8(win, 1, 0, "(reading...)", width);
		return;
	}
	if (cache->empty)
		tn_tui_draw_utf8(win, 1, 0, cache->filtered ?
			"(no event passes the filters)" :
			"(the trace has no events)", width);
	for (guint i = 0; i < cache->rows->len; i++)
		draw_row(pane, win, &c, &g_array_index(cache->rows,
			struct list_row, i), focused);
	wattrset(win, A_NORMAL);
}

/* ---- keys and the mouse ---- */

/* The widest fields shown, for the scroll's limit. */
static int widest_fields(const struct list_cache *cache)
{
	int widest = 0;

	for (guint i = 0; cache && i < cache->rows->len; i++) {
		const struct list_row *row = &g_array_index(cache->rows,
			struct list_row, i);

		/* Bytes for columns: close enough to bound the scroll. */
		widest = MAX(widest, (int) MIN(strlen(row->payload) +
			strlen(row->contexts) + 32, (size_t) G_MAXINT / 2));
	}
	return widest;
}

static void scroll_columns(struct tn_pane *pane, int direction)
{
	struct list_state *state = pane->data;
	struct columns c;
	int width, step, limit, hscroll;

	plan_columns(state, pane->cache, pane->rect.w, &c);
	width = pane->rect.w - c.fields_x;
	step = MAX(8, width / 2);
	/* Right: until the widest fields end mid-way. */
	limit = MAX(0, widest_fields(pane->cache) - width / 2);
	hscroll = CLAMP(state->hscroll + direction * step, 0,
		MAX(limit, state->hscroll));
	if (direction > 0 && hscroll == state->hscroll)
		tn_pane_message(pane, false,
			"(no more fields to the right)");
	state->hscroll = hscroll;
	pane->dirty = true;
}

static void toggle_contexts(struct tn_pane *pane)
{
	struct list_state *state = pane->data;

	state->hide_contexts = !state->hide_contexts;
	pane->dirty = true;
	tn_pane_message(pane, false, state->hide_contexts ?
		"contexts hidden (c shows them)" :
		"contexts shown, dimmed, after the payload");
}

static void copy_line(struct tn_pane *pane)
{
	const struct list_cache *cache = pane->cache;

	if (!cache || !cache->current_line) {
		tn_pane_message(pane, true, "no event to copy here");
		return;
	}
	tn_pane_copy(pane, cache->current_line);
}

static bool list_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	const struct tn_tui_binding *b = tn_tui_keymap_find(&list_keys,
		key->key);
	char line[64];

	if (!b)
		return false;
	if (b->command) {
		tn_pane_run_command(pane, b->command, key);
		return true;
	}
	switch (b->action) {
	case LIST_PERCENT:
		if (!key->has_count) {
			tn_pane_message(pane, true, "type the digits "
				"first, then %: 50% goes to the middle");
			break;
		}
		snprintf(line, sizeof(line), "goto %ld%%", key->count);
		tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
		break;
	case LIST_SCROLL_LEFT: scroll_columns(pane, -1); break;
	case LIST_SCROLL_RIGHT: scroll_columns(pane, 1); break;
	case LIST_CONTEXTS: toggle_contexts(pane); break;
	case LIST_COPY: copy_line(pane); break;
	case LIST_GOTO: tn_pane_open_prompt(pane, "goto "); break;
	case LIST_SEARCH:
		tn_pane_open_prompt_for(pane, "/", "search", "next");
		break;
	case LIST_FILTER:
		tn_pane_open_prompt_for(pane, "&", "filter-in",
			"clear-filters");
		break;
	case LIST_UNZOOM:
		tn_pane_run_line(pane, "histogram whole",
			TN_TUI_FOLLOW_BY_COMMAND);
		break;
	default: break;
	}
	return true;
}

/* The wheel scrolls, keeping the cursor's screen row; a click on a row
 * selects it (a move by the difference of rows). */
static void list_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	const struct list_cache *cache = pane->cache;
	struct list_state *state = pane->data;
	char line[64];
	int row = y - 1;	/* under the header */
	int from;

	(void) x;
	if (wheel) {
		snprintf(line, sizeof(line), "%s %d", wheel > 0 ? "down" : "up",
			abs(wheel));
		tn_pane_run_line(pane, line, TN_TUI_FOLLOW_KEEP_ROW);
		return;
	}
	if (!cache)
		return;
	from = state->has_clicked && state->clicked_serial ==
		tn_pane_idle_serial(pane) ? state->clicked_row : cache->top;
	for (guint i = 0; i < cache->rows->len; i++) {
		const struct list_row *text = &g_array_index(cache->rows,
			struct list_row, i);

		if (text->screen_row != row || row == from)
			continue;
		snprintf(line, sizeof(line), "%s %d", row > from ?
			"down" : "up", abs(row - from));
		state->has_clicked = true;
		state->clicked_row = row;
		state->clicked_serial = tn_pane_idle_serial(pane);
		/* The move may end at once and replace the cache. */
		tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
		return;
	}
}

/* ---- what the rest of the TUI asks the list ---- */

static bool list_status(const struct tn_pane *pane,
		struct tn_pane_status *status)
{
	const struct list_cache *cache = pane->cache;

	memset(status, 0, sizeof(*status));
	if (!cache)
		return false;
	status->top = cache->top;
	status->shown = (int) cache->rows->len;
	status->incomplete = cache->incomplete;
	status->has_current_ns = cache->has_current_ns;
	status->current_ns = cache->current_ns;
	status->has_rank = cache->has_rank;
	status->rank = cache->rank;
	for (guint i = 0; i < cache->rows->len; i++) {
		const struct list_row *row = &g_array_index(cache->rows,
			struct list_row, i);

		if (row->current && !row->notice) {
			status->has_current_pos = true;
			status->current_pos = row->pos;
		}
		if (row->notice)
			continue;
		if (!status->has_shown_span)
			status->shown_begin_ns = row->pos.ns;
		status->has_shown_span = true;
		status->shown_end_ns = row->pos.ns;
	}
	status->error = cache->error;
	status->current_time = cache->current_time;
	status->has_span = cache->has_span;
	status->span_exact = cache->span_exact;
	status->span_begin = cache->span_begin;
	status->span_end = cache->span_end;
	status->span_pending = cache->span_pending;
	return true;
}

/* The widths that the metadata gives: the longest event name, and the
 * hosts when there are several. */
static void list_init(struct tn_pane *pane)
{
	const struct tn_trace *trace = pane->host->session->trace;
	struct list_state *state = g_new0(struct list_state, 1);
	const char *const *names = tn_trace_get_event_names(trace);
	const char *first_host = NULL;

	state->name_cols = NAME_MIN_COLS;
	for (size_t i = 0; names[i]; i++)
		state->name_cols = MAX(state->name_cols,
			MIN(text_columns(names[i]), NAME_MAX_COLS));
	state->host_cols = (int) strlen("Host");
	for (size_t i = 0; i < tn_trace_get_info_count(trace); i++) {
		const struct tn_trace_info *info =
			tn_trace_borrow_info(trace, i);
		const char *host = info->hostname ? info->hostname : info->name;

		if (!host)
			continue;
		if (first_host && strcmp(first_host, host) != 0)
			state->several_hosts = true;
		first_host = first_host ? first_host : host;
		state->host_cols = MAX(state->host_cols,
			MIN(text_columns(host), HOST_MAX_COLS));
	}
	pane->data = state;
}

static void list_destroy(struct tn_pane *pane)
{
	g_free(pane->data);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_list = {
	.name = "list",
	.title = "Event list",
	.layout = { TN_PANE_MAIN, 40, 8, 100, 0 },
	.keymap = &list_keys,
	.init = list_init,
	.destroy = list_destroy,
	.cursor_moved = tn_list_cursor_moved,
	.cache_free = tn_list_cache_free,
	.draw = list_draw,
	.key = list_key,
	.mouse = list_mouse,
	.status = list_status,
};
