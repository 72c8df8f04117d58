/* test-panes.c - the pane registry and the focus (src/tui/panes.c), and
 * the event list pane's cursor_moved: what it caches for a position of
 * the cursor, reading the trace or (after a cancel) only what the cursor
 * holds. */
#include "gen.h"
#include "tap.h"
#include "src/tui/list.h"
#include "src/tui/tui-private.h"

/* A window pointer for panes that are "on screen": the focus only goes
 * to those.  Never drawn into; cleared before the panes are freed. */
static WINDOW *on_screen = (WINDOW *) &on_screen;

static void test_focus(struct tn_session *session)
{
	struct tn_tui tui = { .session = session };
	struct tn_panes *panes = &tui.panes;
	struct tn_pane *list, *state, *seq;
	size_t count;
	const struct tn_pane_class *const *classes = tn_pane_classes(&count);

	tap_ok(count >= 3 && classes[0]->toggle_key == 0 &&
		classes[0]->layout.place == TN_PANE_MAIN,
		"the registry starts with the main pane, which has no toggle");
	tn_tui_host_init(&tui);
	tn_panes_init(panes, &tui.host);
	tap_int_eq(panes->count, count, "one pane per class");
	list = tn_panes_main(panes);
	state = tn_panes_find_toggle(panes, 's');
	seq = tn_panes_find_toggle(panes, 'd');
	tap_ok(state && !strcmp(state->cls->name, "state") && seq &&
		!strcmp(seq->cls->name, "seq"), "s and d find their panes");
	tap_ok(!tn_panes_find_toggle(panes, 'x'), "x toggles nothing");
	tap_ok(list->open && !state->open && !seq->open,
		"at first only the list is open");
	list->win = on_screen;
	tn_panes_move_focus(panes, 1);
	tap_ok(tn_panes_focused(panes) == list, "Tab with the list alone: "
		"the focus stays");
	tn_panes_toggle(panes, state);
	state->win = on_screen;
	tn_panes_move_focus(panes, 1);
	tap_ok(tn_panes_focused(panes) == state, "Tab: to the state pane");
	tn_panes_move_focus(panes, 1);
	tap_ok(tn_panes_focused(panes) == list, "Tab: back to the list");
	tn_panes_toggle(panes, seq);
	tn_panes_move_focus(panes, 1);
	tn_panes_move_focus(panes, 1);
	tap_ok(tn_panes_focused(panes) == list, "a pane that did not fit "
		"(no window) is skipped");
	seq->win = on_screen;
	tn_panes_move_focus(panes, -1);
	tap_ok(tn_panes_focused(panes) == seq, "Shift-Tab from the list: the "
		"last pane");
	tn_panes_toggle(panes, seq);
	tap_ok(tn_panes_focused(panes) == list, "closing the focused pane "
		"gives the focus back to the list");
	tn_panes_toggle(panes, list);
	tap_ok(list->open, "the list cannot be closed");
	for (size_t i = 0; i < panes->count; i++)
		panes->panes[i].win = NULL;
	tn_panes_fini(panes);
}

static struct tn_pane_view view_of(struct tn_session *session, bool read,
		enum tn_tui_follow follow)
{
	return (struct tn_pane_view) { session, read, 11, 100, follow, 0 };
}

/* The list's cache for the cursor: computed as a job would, swapped in,
 * then read back as the status bar reads it. */
static void move_list(struct tn_pane *list, struct tn_session *session,
		bool read, enum tn_tui_follow follow, struct tn_pane_status *st)
{
	struct tn_pane_view view = view_of(session, read, follow);

	tn_pane_set_cache(list, list->cls->cursor_moved(list->cache, &view));
	tn_pane_get_status(list, st);
}

static void test_list(struct tn_session *session, int64_t first)
{
	struct tn_tui tui = { .session = session };
	struct tn_pane_status st;
	struct tn_error err;
	struct tn_pane *list;

	tn_tui_host_init(&tui);
	tn_panes_init(&tui.panes, &tui.host);
	list = tn_panes_main(&tui.panes);
	tap_ok(!tn_pane_get_status(list, &st), "no cache at first");
	move_list(list, session, true, TN_TUI_FOLLOW_KEEP_ROW, &st);
	tap_ok(st.has_current_ns && st.current_ns == first && st.top == 0 &&
		st.shown == 10, "first view: the first event on the first of "
		"10 rows");
	tap_ok(st.current_time && st.current_time[0], "the current event's "
		"time, for the prompt (goto's Tab; the field names come from "
		"the metadata)");
	tn_cursor_move(session->cursor, 3, NULL, &err);
	move_list(list, session, true, TN_TUI_FOLLOW_SCROLL, &st);
	tap_int_eq(st.top, 3, "down 3: the view stays, the cursor is on row 4");
	tn_cursor_move(session->cursor, 20, NULL, &err);
	move_list(list, session, true, TN_TUI_FOLLOW_SCROLL, &st);
	tap_int_eq(st.top, 9, "down 20: the view scrolls just enough (last "
		"row)");
	tn_cursor_move(session->cursor, 10, NULL, &err);
	move_list(list, session, true, TN_TUI_FOLLOW_KEEP_ROW, &st);
	tap_int_eq(st.top, 9, "a page: the cursor keeps its row");
	tn_cursor_seek_fraction(session->cursor, 0.5, &err);
	move_list(list, session, true, TN_TUI_FOLLOW_JUMP, &st);
	tap_ok(st.top == 5 && st.shown == 10, "a jump: the cursor in the "
		"middle, rows above it read");
	/* After a cancel the list shows what the cursor holds, reading
	 * nothing: the current event, below the rows that the seek kept
	 * from before its target. */
	tn_cursor_seek_fraction(session->cursor, 0.8, &err);
	move_list(list, session, false, TN_TUI_FOLLOW_JUMP, &st);
	tap_ok(st.has_current_ns && st.shown >= 1 &&
		tn_cursor_peek_row(session->cursor, -(int64_t) st.top),
		"reading nothing: the current event, below the %d rows the "
		"cursor holds above it (%d rows)", st.top, st.shown);
	tn_panes_fini(&tui.panes);
}

/* The positions of the rows the list's cache shows, by screen row. */
static GArray *shown_rows(const struct tn_pane *list)
{
	const struct list_cache *cache = list->cache;
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct tn_position));

	for (guint i = 0; i < cache->rows->len; i++) {
		const struct list_row *row = &g_array_index(cache->rows,
			struct list_row, i);

		g_array_set_size(rows, MAX(rows->len,
			(guint) row->screen_row + 1));
		g_array_index(rows, struct tn_position, row->screen_row) =
			row->pos;
	}
	return rows;
}

/* What a computation of the list has read: its rows, and their deltas
 * (the previous event's time may need a read of its own). */
static guint read_so_far(const struct list_cache *cache)
{
	guint known = cache->rows->len;

	for (guint i = 0; i < cache->rows->len; i++)
		if (strcmp(g_array_index(cache->rows, struct list_row,
				i).delta, "+?.?????????"))
			known++;
	return known;
}

static bool same_positions(GArray *a, GArray *b)
{
	return a->len == b->len && !memcmp(a->data, b->data,
		a->len * sizeof(struct tn_position));
}

/* A read budget too short for anything: each computation of the list
 * reads one thing more (the nearest row it lacks, or a row's previous
 * time for its delta) and says the screen is incomplete, the rows
 * already read in their places; computed again (as the front end does)
 * until complete, the screen is the one that no budget gives. */
static void test_budget(struct tn_session *session)
{
	struct tn_tui tui = { .session = session };
	struct tn_pane_view view = view_of(session, true, TN_TUI_FOLLOW_JUMP);
	const struct list_cache *cache;
	struct tn_pane_status st;
	GArray *want, *got;
	struct tn_error err;
	struct tn_pane *list;
	int passes = 0;
	bool grew = true;
	guint before = 0;

	/* A tall list: a jump's walk holds some rows; most are read. */
	view.lines = 61;
	tn_tui_host_init(&tui);
	tn_panes_init(&tui.panes, &tui.host);
	list = tn_panes_main(&tui.panes);
	tn_cursor_seek_fraction(session->cursor, 0.9, &err);
	tn_pane_set_cache(list, list->cls->cursor_moved(list->cache, &view));
	tn_cursor_seek_fraction(session->cursor, 0.3, &err);
	tn_pane_set_cache(list, list->cls->cursor_moved(list->cache, &view));
	tn_pane_get_status(list, &st);
	tap_ok(!st.incomplete && st.shown == 60 && st.top == 30,
		"no budget: a jump's screen, complete");
	want = shown_rows(list);
	/* Again from afar, with the budget. */
	tn_cursor_seek_fraction(session->cursor, 0.9, &err);
	tn_pane_set_cache(list, list->cls->cursor_moved(list->cache, &view));
	tn_cursor_seek_fraction(session->cursor, 0.3, &err);
	view.read_budget_us = 1;
	do {
		tn_pane_set_cache(list, list->cls->cursor_moved(list->cache,
			&view));
		cache = list->cache;
		grew = grew && (passes == 0 || read_so_far(cache) > before);
		before = read_so_far(cache);
		view.follow = TN_TUI_FOLLOW_KEEP_ROW;
		passes++;
	} while (cache->incomplete && passes < 200);
	tap_ok(passes > 2 && passes <= 120 && grew, "a budget of 1 us: %d "
		"computations (at most two a row), each one reading more",
		passes);
	got = shown_rows(list);
	tn_pane_get_status(list, &st);
	tap_ok(!st.incomplete && st.top == 30 && same_positions(got, want),
		"then complete: the rows and the cursor's row of the screen "
		"without budget");
	g_array_free(want, TRUE);
	g_array_free(got, TRUE);
	tn_panes_fini(&tui.panes);
}

int main(void)
{
	char *path = gen_trace("panes", "--events 2000 --cpus 2 "
		"--packet-size 4096 --seed 9");
	struct tn_session session;
	struct tn_trace *trace;
	struct tn_error err;

	if (tap_ok(tn_trace_open(path, &trace, &err) == 0, "trace opens") &&
	    tap_ok(tn_session_init(&session, trace, true, &err) == 0,
		    "session")) {
		test_focus(&session);
		test_list(&session, gen_plan_value(path, "first_ns"));
		test_budget(&session);
		tn_session_fini(&session);
		tn_trace_destroy(trace);
	}
	g_free(path);
	gen_cleanup();
	return tap_done();
}
