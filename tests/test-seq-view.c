/* test-seq-view.c - the sequence diagram pane's view logic (seq-view.c)
 * on a hand-built page: the selection (clamped, named by its lines, a
 * message to itself over two lines), the vertical scroll (kept in view
 * with lines around it, a new page a third of the way down, never past
 * the ends), the horizontal scroll of lifelines (its bounds, a selected
 * message's ends revealed), the message the list's cursor selects in
 * the page or the need of a new page near its edges, and where the list
 * goes for a message. */
#include <string.h>

#include "src/tui/seq-view.h"
#include "tap.h"

#define MESSAGES 12

static struct tn_seq_point at(int64_t ns)
{
	struct tn_seq_point p = { ns, { ns, 0 } };

	return p;
}

/* Five lifelines a..e; message i (0-based) sent at 100 (i + 1) and
 * received 5 ns later: a->b, b->c, ... round the lifelines, message 4
 * from c to itself, message 7 from a to e, message 9 never received,
 * message 10 from d to e. */
static struct tn_seq_model *page_model(void)
{
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	struct tn_seq_model *m = tn_seq_model_create();

	for (size_t i = 0; i < 5; i++)
		tn_seq_model_lifeline(m, names[i], TN_SEQ_PROCESS, NULL);
	for (int i = 0; i < MESSAGES; i++) {
		int64_t ns = 100 * (i + 1);
		struct tn_seq_message msg = {
			.kind = TN_SEQ_ASYNC,
			.from = (size_t) i % 5,
			.to = (size_t) (i + 1) % 5,
			.signal = "sig",
			.send = { true, at(ns) },
			.receive = { i != 9, at(ns + 5) },
		};

		if (i == 4)
			msg.to = msg.from = 2;
		if (i == 7) {
			msg.from = 0;
			msg.to = 4;
		}
		if (i == 10) {
			msg.from = 3;
			msg.to = 4;
		}
		tn_seq_model_add_message(m, &msg);
	}
	return m;
}

static void style(struct tn_seq_view *view, int width)
{
	struct tn_seq_render_options options = { .width = width,
		.ascii = true };

	tn_seq_view_set_style(view, &options);
}

/* The body line where message index is drawn first, or -1. */
static long line_of(struct tn_seq_view *view, size_t index)
{
	size_t message;

	for (size_t l = 0; l < tn_seq_view_body_lines(view); l++)
		if (tn_seq_view_message_at(view, l, &message) &&
		    message == index)
			return (long) l;
	return -1;
}

static bool shows(struct tn_seq_view *view, size_t index, size_t rows)
{
	long line = line_of(view, index);

	return line >= (long) view->top && line < (long) (view->top + rows);
}

static void test_empty(void)
{
	struct tn_seq_view view;
	struct tn_position pos = { 150, 0 };
	size_t message;

	tn_seq_view_init(&view);
	tap_ok(tn_seq_view_drawing(&view) == NULL, "no page: no drawing");
	tap_int_eq(tn_seq_view_body_lines(&view), 0, "no page: no lines");
	tap_ok(!tn_seq_view_select(&view, 0), "no page: nothing to select");
	tap_ok(!tn_seq_view_follow(&view, &pos, 3, &message),
		"no page: a new one is needed");
	tn_seq_view_set_page(&view, tn_seq_model_create(), true, true, false,
		0);
	tap_ok(!tn_seq_view_select(&view, 0) && !view.has_selected,
		"an empty page: nothing to select");
	tn_seq_view_fini(&view);
}

static void test_vertical(void)
{
	struct tn_seq_view view;
	const struct tn_seq_drawing *d;
	size_t body, message;

	tn_seq_view_init(&view);
	tn_seq_view_set_page(&view, page_model(), false, false, true, 2);
	style(&view, 100);
	d = tn_seq_view_drawing(&view);
	body = tn_seq_view_body_lines(&view);
	tap_ok(d && d->header_lines == 3, "a drawing with its header");
	tap_int_eq(body, MESSAGES + 1, "a line a message, two for the loop");
	tap_int_eq(line_of(&view, 2), 2, "message 2 on body line 2");
	tap_int_eq(line_of(&view, 5), 6, "message 5 after the loop's two");
	tap_ok(tn_seq_view_message_at(&view, 5, &message) && message == 4,
		"the loop's second line is message 4's");
	tap_ok(d->has_selected_line && d->selected_line == 3 + 2,
		"the drawing marks the selected line");

	/* Down to the last: the view follows with a line around it. */
	tn_seq_view_select(&view, 11);
	tn_seq_view_keep_in_view(&view, 5);
	tap_ok(shows(&view, 11, 5), "select 11: it shows (top %zu)",
		view.top);
	tap_int_eq(view.top, body - 5, "... the view ends at the last line");
	tn_seq_view_select(&view, 6);
	tn_seq_view_keep_in_view(&view, 5);
	tap_int_eq(view.top, 6, "up to 6: one line above it (scroll-off)");
	tn_seq_view_select(&view, 4);
	tn_seq_view_keep_in_view(&view, 5);
	tap_ok(view.top <= 4 && 5 < view.top + 5,
		"the loop: both its lines show (top %zu)", view.top);
	tn_seq_view_select(&view, 99);
	tap_int_eq(view.selected, MESSAGES - 1, "select past the end: the "
		"last");

	tn_seq_view_scroll(&view, -100, 5);
	tap_int_eq(view.top, 0, "scroll up past the top: 0");
	tn_seq_view_scroll(&view, 100, 5);
	tap_int_eq(view.top, body - 5, "scroll down past the end: the last "
		"page");
	tn_seq_view_scroll(&view, 0, 100);
	tap_int_eq(view.top, 0, "more rows than lines: from the top");

	tn_seq_view_select(&view, 6);
	tn_seq_view_center(&view, 6);
	tap_int_eq(view.top, (size_t) line_of(&view, 6) - 2,
		"centered: a third of the way down");
	tn_seq_view_select(&view, 0);
	tn_seq_view_center(&view, 6);
	tap_int_eq(view.top, 0, "centered at the first: from the top");
	tn_seq_view_fini(&view);
}

static void test_horizontal(void)
{
	struct tn_seq_view view;
	const struct tn_seq_drawing *d;
	int moves = 0;

	tn_seq_view_init(&view);
	tn_seq_view_set_page(&view, page_model(), false, false, true, 0);
	/* 1 + label + 1, then 12 columns a lifeline: three of them. */
	style(&view, 2 + 18 + 3 * 12 + 4);
	d = tn_seq_view_drawing(&view);
	tap_ok(d && d->shown_lifelines == 3 && d->lifeline_count == 5,
		"3 of 5 lifelines show (%zu)", d ? d->shown_lifelines : 0);
	tap_ok(!tn_seq_view_scroll_lifelines(&view, -1), "left of the first: "
		"no move");
	while (tn_seq_view_scroll_lifelines(&view, 1))
		moves++;
	tap_ok(moves == 2 && view.first_lifeline == 2,
		"right: twice, until e shows (from %zu)", view.first_lifeline);
	d = tn_seq_view_drawing(&view);
	tap_ok(d->first_lifeline == 2 && d->shown_lifelines == 3,
		"the drawing from c");
	tap_ok(tn_seq_view_scroll_lifelines(&view, -10) &&
		view.first_lifeline == 0, "left by 10: back to a");

	/* Selecting reveals the message's ends. */
	tn_seq_view_select(&view, 10);	/* d -> e */
	tap_int_eq(view.first_lifeline, 2, "select d->e: from c, both show");
	tn_seq_view_select(&view, 0);	/* a -> b */
	tap_int_eq(view.first_lifeline, 0, "select a->b: from a");
	tn_seq_view_select(&view, 7);	/* a -> e: too wide */
	tap_int_eq(view.first_lifeline, 0, "select a->e: its sender shows");
	tn_seq_view_fini(&view);
}

static void test_follow(void)
{
	struct tn_seq_view view;
	struct tn_position pos = { 0, 0 };
	size_t message = 99;

	tn_seq_view_init(&view);
	tn_seq_view_set_page(&view, page_model(), false, false, true, 5);
	pos.ns = 605;		/* message 5's receive */
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) && message == 5,
		"at a receive: its message");
	pos.ns = 650;
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) && message == 6,
		"between two: the next");
	pos.ns = 400;
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) && message == 3,
		"message 3, 3 after the first: still in the page");
	pos.ns = 300;
	tap_ok(!tn_seq_view_follow(&view, &pos, 3, &message),
		"message 2: too close to the first, a new page");
	pos.ns = 50;
	tap_ok(!tn_seq_view_follow(&view, &pos, 0, &message),
		"before the page: a new page");
	pos.ns = 1000;
	tap_ok(!tn_seq_view_follow(&view, &pos, 3, &message),
		"message 9: too close to the last");
	pos.ns = 900;
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) && message == 8,
		"message 8: 3 from the last, still in the page");
	pos.ns = 5000;
	tap_ok(!tn_seq_view_follow(&view, &pos, 0, &message),
		"after the page: a new page");

	/* A page that holds the trace's first or last messages. */
	tn_seq_view_set_page(&view, page_model(), true, true, true, 5);
	pos.ns = 50;
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) && message == 0,
		"the trace's first page: before it, its first message");
	pos.ns = 5000;
	tap_ok(tn_seq_view_follow(&view, &pos, 3, &message) &&
		message == MESSAGES - 1, "its last page: after it, the last");

	/* Where the list goes. */
	tap_ok(tn_seq_view_message_end(&view, 3, false, &pos) &&
		pos.ns == 400, "message 3's send");
	tap_ok(tn_seq_view_message_end(&view, 3, true, &pos) && pos.ns == 405,
		"message 3's receive");
	tap_ok(!tn_seq_view_message_end(&view, 9, true, &pos),
		"message 9 has no receive");
	tap_ok(!tn_seq_view_message_end(&view, MESSAGES, false, &pos),
		"no message past the last");
	tn_seq_view_fini(&view);
}

int main(void)
{
	test_empty();
	test_vertical();
	test_horizontal();
	test_follow();
	return tap_done();
}
