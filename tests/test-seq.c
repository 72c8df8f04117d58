/* test-seq.c - the sequence diagram's core: the model, the pairing of
 * message ends (ids, FIFO, crossing messages, a receive before its
 * send, unpaired ends), the drawing as text (each kind of message and
 * mark, the selection and unpaired spans, the horizontal scroll, wide
 * and unsafe names), and on generated message traces the reference
 * loader (counts against the plan, each message's ends carry the same
 * sequence number, messages left unpaired by a cut), a page around a
 * position, and the search for a message. */
#include <locale.h>
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-render.h"
#include "tracenav/seq-window.h"
#include "tracenav/text.h"

/* A point at ns (the tie 0). */
static struct tn_seq_point at(int64_t ns)
{
	struct tn_seq_point p = { ns, { ns, 0 } };

	return p;
}

static bool has_end(const struct tn_seq_end *end, int64_t ns)
{
	return end->present && end->at.ns == ns;
}

/* The message of model whose first end is at ns, or NULL. */
static const struct tn_seq_message *message_at(const struct tn_seq_model *m,
		int64_t ns)
{
	for (size_t i = 0; i < tn_seq_model_get_message_count(m); i++) {
		const struct tn_seq_message *msg =
			tn_seq_model_borrow_message(m, i);

		if (tn_seq_message_first(msg)->ns == ns)
			return msg;
	}
	return NULL;
}

static bool add(struct tn_seq_pairer *p, struct tn_seq_model *m,
		bool receive, const char *from, const char *to,
		const char *signal, const char *id, int64_t ns)
{
	struct tn_seq_point point = at(ns);

	return tn_seq_pairer_add_end(p, m, receive, from, to, TN_SEQ_PROCESS,
		signal, id, &point);
}

static void test_pairing(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	struct tn_seq_pairer *p = tn_seq_pairer_create();
	const struct tn_seq_message *msg;
	bool paired;

	/* Ids: two messages of the same key cross. */
	add(p, m, false, "a", "b", "req", "1", 10);
	add(p, m, false, "a", "b", "req", "2", 20);
	tap_int_eq(tn_seq_pairer_get_pending_count(p), 2, "ids: 2 pending");
	paired = add(p, m, true, "a", "b", "req", "2", 30);
	tap_ok(paired, "ids: receive 2 pairs");
	add(p, m, true, "a", "b", "req", "1", 40);
	msg = message_at(m, 10);
	tap_ok(msg && has_end(&msg->receive, 40) && !strcmp(msg->id, "1"),
		"ids: send 1 at 10 received at 40");
	msg = message_at(m, 20);
	tap_ok(msg && has_end(&msg->receive, 30), "ids: send 2 at 20 received "
		"at 30 (the messages cross)");
	tap_int_eq(tn_seq_model_get_message_count(m), 2, "ids: 2 messages");
	tap_int_eq(tn_seq_pairer_get_pending_count(p), 0, "ids: none pending");

	/* Without ids: FIFO per sender, receiver and signal. */
	add(p, m, false, "a", "b", "ping", NULL, 50);
	add(p, m, false, "a", "b", "ping", NULL, 60);
	add(p, m, false, "b", "a", "ping", NULL, 65);
	add(p, m, true, "a", "b", "ping", NULL, 70);
	add(p, m, true, "a", "b", "ping", NULL, 80);
	tap_ok(message_at(m, 50) && has_end(&message_at(m, 50)->receive, 70),
		"fifo: the first send gets the first receive");
	tap_ok(message_at(m, 60) && has_end(&message_at(m, 60)->receive, 80),
		"fifo: the second send the second receive");
	tap_ok(message_at(m, 65) && !message_at(m, 65)->receive.present,
		"fifo: b->a is another conversation, still unpaired");
	tap_ok(message_at(m, 65) && tn_seq_message_is_unpaired(
		message_at(m, 65)), "an end alone is unpaired");

	/* A receive without a send (before the window), no id: a message
	 * of its own; a later send does not pair with it. */
	paired = add(p, m, true, "c", "d", "x", NULL, 90);
	tap_ok(!paired, "no id: a receive alone does not pair");
	paired = add(p, m, false, "c", "d", "x", NULL, 100);
	tap_ok(!paired && message_at(m, 90) && !message_at(m, 90)->send.present
		&& message_at(m, 100) &&
		!message_at(m, 100)->receive.present,
		"no id: a send after a lone receive does not pair with it");

	/* With an id, a receive before its send (skewed clocks) pairs. */
	add(p, m, true, "c", "d", "y", "9", 110);
	paired = add(p, m, false, "c", "d", "y", "9", 105);
	tap_ok(paired, "id: a send after its receive pairs");
	/* Other signals, senders or ids do not pair. */
	add(p, m, false, "e", "f", "s1", "1", 120);
	tap_ok(!add(p, m, true, "e", "f", "s2", "1", 130) &&
		!add(p, m, true, "x", "f", "s1", "1", 131) &&
		!add(p, m, true, "e", "f", "s1", "2", 132) &&
		add(p, m, true, "e", "f", "s1", "1", 133),
		"a different signal, sender or id does not pair");
	/* The send at 105 made the model out of order: sorted, it comes
	 * before the receive at 110's neighbours. */
	tn_seq_model_sort(m);
	for (size_t i = 1; i < tn_seq_model_get_message_count(m); i++)
		if (tn_position_compare(&tn_seq_message_first(
				tn_seq_model_borrow_message(m, i - 1))->pos,
				&tn_seq_message_first(
				tn_seq_model_borrow_message(m, i))->pos) > 0) {
			tap_ok(false, "sorted by first end");
			break;
		}
	msg = message_at(m, 105);
	tap_ok(msg && has_end(&msg->receive, 110), "sorted: the message of id "
		"9 starts at its send");
	tap_int_eq(tn_seq_model_get_lifeline_count(m), 7,
		"lifelines a..f and x, each once");
	tn_seq_pairer_clear(p);
	tap_int_eq(tn_seq_pairer_get_pending_count(p), 0, "clear: none "
		"pending");
	tn_seq_pairer_destroy(p);
	tn_seq_model_destroy(m);
}

static void test_model(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	struct tn_seq_point p5 = at(5), p1 = at(1), p30 = at(30);
	struct tn_seq_message msg = { .kind = TN_SEQ_SYNC, .signal = "call" };
	struct tn_seq_activation act = { 0 };
	struct tn_seq_model *copy;
	size_t a, b, c, index;
	uint64_t serial;

	a = tn_seq_model_lifeline(m, "a", TN_SEQ_THREAD, &p5);
	b = tn_seq_model_lifeline(m, "b", TN_SEQ_HOST, NULL);
	tap_int_eq(tn_seq_model_lifeline(m, "a", TN_SEQ_HOST, &p1), a,
		"a name names one lifeline");
	tap_ok(tn_seq_model_borrow_lifeline(m, a)->first.ns == 1 &&
		tn_seq_model_borrow_lifeline(m, a)->category == TN_SEQ_THREAD,
		"its first appearance is the earliest; its category stays");
	tap_ok(tn_seq_model_find_lifeline(m, "b", &index) && index == b &&
		!tn_seq_model_find_lifeline(m, "zz", &index),
		"find_lifeline");
	tap_str_eq(tn_seq_category_name(TN_SEQ_NODE), "node", "category name");
	tap_str_eq(tn_seq_message_kind_name(TN_SEQ_RETURN), "return",
		"kind name");
	msg.from = a;
	msg.to = b;
	msg.send.present = true;
	msg.send.at = at(10);
	serial = tn_seq_model_add_message(m, &msg);
	tap_ok(tn_seq_model_set_end(m, serial, true, &p30), "set_end");
	tap_ok(has_end(&tn_seq_model_borrow_message(m, 0)->receive, 30) &&
		!strcmp(tn_seq_model_borrow_message(m, 0)->signal, "call"),
		"the message has both ends and its signal");
	c = tn_seq_model_lifeline(m, "c", TN_SEQ_PROCESS, NULL);
	tn_seq_model_set_created(m, c, &p5);
	msg.from = msg.to = c;
	msg.send.at = at(40);
	msg.receive.present = false;
	tn_seq_model_add_message(m, &msg);
	act.lifeline = b;
	act.begin.present = true;
	act.begin.at = at(20);
	index = tn_seq_model_add_activation(m, &act);
	tn_seq_model_end_activation(m, index, &p30);
	tap_ok(tn_seq_model_borrow_activation(m, index)->end.present,
		"end_activation");

	/* The second message alone (at 40): c only, and no activation of
	 * b (from 20 to 30). */
	copy = tn_seq_model_copy_range(m, 1, 1);
	tap_int_eq(tn_seq_model_get_message_count(copy), 1, "copy: 1 message");
	tap_ok(tn_seq_model_get_lifeline_count(copy) == 1 &&
		!strcmp(tn_seq_model_borrow_lifeline(copy, 0)->name, "c") &&
		tn_seq_model_borrow_message(copy, 0)->from == 0,
		"copy: its lifeline, renumbered");
	tap_int_eq(tn_seq_model_get_activation_count(copy), 0,
		"copy: no activation of another lifeline");
	tn_seq_model_destroy(copy);
	copy = tn_seq_model_copy_range(m, 0, 2);
	tap_ok(tn_seq_model_get_lifeline_count(copy) == 3 &&
		tn_seq_model_get_activation_count(copy) == 1,
		"copy of both: 3 lifelines, the activation");
	tn_seq_model_destroy(copy);
	copy = tn_seq_model_copy_range(m, 0, 0);
	tap_int_eq(tn_seq_model_get_lifeline_count(copy), 0, "empty copy");
	tn_seq_model_destroy(copy);

	tn_seq_model_forget_messages(m);
	tap_ok(tn_seq_model_get_message_count(m) == 0 &&
		!tn_seq_model_set_end(m, serial, false, &p1) &&
		tn_seq_model_get_lifeline_count(m) == 3,
		"forget: no message, old serials name nothing, lifelines stay");
	tn_seq_model_destroy(m);
}

/* Which loaders apply: the reference one needs an event named as an
 * end and the three fields. */
static void test_applies(void)
{
	static const char *const names[] = { "app:Send_Msg", "other", NULL };
	static const char *const kernel[] = { "netif_receive_skb",
		"sched_switch", NULL };
	static const char *const fields[] = { "$payload.sender", "receiver",
		"sender", "signal", NULL };
	static const char *const some[] = { "sender", "signal", NULL };
	struct {
		const char *const *names, *const *fields;
		const char *want;
		const char *what;
	} cases[] = {
		{ names, fields, "reference", "a send event and the fields" },
		{ kernel, fields, "reference", "a receive event (any case)" },
		{ names, some, "", "no receiver field: none" },
		{ kernel, NULL, "", "a kernel trace's netif_receive_skb: none" },
		{ NULL, fields, "", "no event: none" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct tn_seq_loaders *l = tn_seq_loaders_create_for_names(
			cases[i].names, cases[i].fields);

		tap_str_eq(tn_seq_loaders_get_names(l), cases[i].want,
			"loaders: %s", cases[i].what);
		tn_seq_loaders_destroy(l);
	}
}

/* ---- drawing ---- */

static char *joined(const struct tn_seq_drawing *d)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < d->line_count; i++)
		g_string_append_printf(s, "%s\n", d->lines[i].text);
	return g_string_free(s, FALSE);
}

/* The bytes of span `kind` on line `line`, as text. */
static char *span_text(const struct tn_seq_drawing *d, size_t line,
		enum tn_seq_span_kind kind, size_t nth)
{
	const struct tn_seq_line *l = &d->lines[line];

	for (size_t i = 0; i < l->span_count; i++)
		if (l->spans[i].kind == kind && nth-- == 0)
			return g_strndup(l->text + l->spans[i].start,
				l->spans[i].end - l->spans[i].start);
	return g_strdup("(none)");
}

/* A model with one of each: lifelines client, server, db (created in
 * the page, then stopped), a sync call, an async signal, a return, a
 * message to itself, a send never received, a receive never sent, an
 * activation of server. */
static struct tn_seq_model *sample_model(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	size_t client = tn_seq_model_lifeline(m, "client", TN_SEQ_PROCESS,
		NULL);
	size_t server = tn_seq_model_lifeline(m, "server", TN_SEQ_PROCESS,
		NULL);
	size_t db = tn_seq_model_lifeline(m, "db", TN_SEQ_PROCESS, NULL);
	struct tn_seq_point created = at(1500), stopped = at(7500);
	struct tn_seq_activation act = { .lifeline = server };
	struct {
		enum tn_seq_message_kind kind;
		size_t from, to;
		const char *signal;
		int64_t send, receive;	/* -1: missing */
	} messages[] = {
		{ TN_SEQ_SYNC, client, server, "REQUEST", 1000, 1100 },
		{ TN_SEQ_ASYNC, server, db, "query", 2000, 2100 },
		{ TN_SEQ_ASYNC, server, server, "tick", 3000, 3050 },
		{ TN_SEQ_RETURN, server, client, "REPLY", 4000, 4100 },
		{ TN_SEQ_ASYNC, client, db, "lost", 5000, -1 },
		{ TN_SEQ_ASYNC, db, client, "found", -1, 6000 },
	};

	tn_seq_model_set_created(m, db, &created);
	tn_seq_model_set_stopped(m, db, &stopped);
	act.begin.present = act.end.present = true;
	act.begin.at = at(1100);
	act.end.at = at(4000);
	tn_seq_model_add_activation(m, &act);
	for (size_t i = 0; i < G_N_ELEMENTS(messages); i++) {
		struct tn_seq_message msg = {
			.kind = messages[i].kind,
			.from = messages[i].from,
			.to = messages[i].to,
			.signal = messages[i].signal,
		};

		msg.send.present = messages[i].send >= 0;
		msg.send.at = at(messages[i].send);
		msg.receive.present = messages[i].receive >= 0;
		msg.receive.at = at(messages[i].receive);
		tn_seq_model_add_message(m, &msg);
	}
	return m;
}

static const char sample_ascii[] =
	"                    +---------+ +---------+ +---------+\n"
	"                    | client  | | server  | |   db    |\n"
	"                    +----+----+ +----+----+ +----+----+\n"
	" 00:00:00.000001000      |==REQUEST=>|\n"
	" 00:00:00.000001500      |           #           *\n"
	" 00:00:00.000002000      |           #---query-->|\n"
	">00:00:00.000003000      |           #-tick----+ |\n"
	" 00:00:00.000003050      |           #<--------+ |\n"
	" 00:00:00.000004000      |<..REPLY...#           |\n"
	" 00:00:00.000005000      |---------lost--------?>|\n"
	" 00:00:00.000006000      |<--------found--------?|\n"
	" 00:00:00.000007500      |           |           X\n";

static void test_render(void)
{
	struct tn_seq_model *m = sample_model();
	struct tn_seq_render_options opt = {
		.width = 80, .ascii = true, .gmt = true,
		.has_selected = true, .selected = 2,
	};
	struct tn_seq_drawing *d = tn_seq_render(m, &opt);
	char *text = joined(d);
	char *span;

	tap_str_eq(text, sample_ascii, "the sample drawn in ASCII");
	if (strcmp(text, sample_ascii))
		printf("# drawn:\n%s", text);
	g_free(text);
	tap_int_eq(d->header_lines, 3, "3 header lines");
	tap_ok(d->has_selected_line && d->selected_line == 6,
		"the selected message's first line");
	tap_ok(d->lines[6].has_message && d->lines[6].message == 2 &&
		d->lines[7].has_message && d->lines[7].message == 2 &&
		!d->lines[4].has_message, "lines name their messages");
	span = span_text(d, 6, TN_SEQ_SPAN_SELECTED, 0);
	tap_str_eq(span, ">", "the selected line's mark is highlighted");
	g_free(span);
	span = span_text(d, 6, TN_SEQ_SPAN_SELECTED, 1);
	tap_str_eq(span, "-tick----+", "and so is its arrow");
	g_free(span);
	span = span_text(d, 9, TN_SEQ_SPAN_UNPAIRED, 0);
	tap_str_eq(span, "?", "the missing receive's mark is highlighted");
	g_free(span);
	span = span_text(d, 10, TN_SEQ_SPAN_UNPAIRED, 0);
	tap_str_eq(span, "?", "the missing send's mark is highlighted");
	g_free(span);
	tn_seq_drawing_destroy(d);

	/* Line drawing, and the horizontal scroll: from server on, 40
	 * columns. */
	opt.ascii = false;
	opt.utf8 = true;
	opt.width = 46;
	opt.first_lifeline = 1;
	opt.has_selected = false;
	d = tn_seq_render(m, &opt);
	text = joined(d);
	tap_str_eq(text,
		" 2-3 of 3           ┌─────────┐ ┌─────────┐\n"
		"                    │ server  │ │   db    │\n"
		"                    └────┬────┘ └────┬────┘\n"
		" 00:00:00.000001000 ────▶│\n"
		" 00:00:00.000001500      ┃           *\n"
		" 00:00:00.000002000      ┃───query──>│\n"
		" 00:00:00.000003000      ┃─tick────┐ │\n"
		" 00:00:00.000003050      ┃<────────┘ │\n"
		" 00:00:00.000004000 <┄┄┄┄┃           │\n"
		" 00:00:00.000005000 ──────lost─────?>│\n"
		" 00:00:00.000006000 <─────found─────?│\n"
		" 00:00:00.000007500      │           X\n",
		"line drawing, lifelines 2 and 3 of 3");
	g_free(text);
	tap_ok(d->first_lifeline == 1 && d->shown_lifelines == 2 &&
		d->lifeline_count == 3, "shown: 2 of 3 from the second");
	tn_seq_drawing_destroy(d);
	tn_seq_model_destroy(m);
}

/* Names with wide characters, controls and a bidi override: each line
 * takes at most the width in columns, and holds no control character
 * nor override. */
static void test_unsafe_names(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	struct tn_seq_pairer *p = tn_seq_pairer_create();
	struct tn_seq_render_options opt = { .width = 160, .gmt = true,
		.utf8 = true };
	struct tn_seq_drawing *d;
	bool safe = true, fits = true;

	add(p, m, false, "节点-2", "esc\033[31mred", "温度", NULL, 1);
	add(p, m, false, "rtl\xe2\x80\xae" "evil", "node😀", "line\nbreak", NULL,
		2);
	add(p, m, false, "a-very-long-lifeline-name-that-goes-on", "节点-2",
		"🚀 launch", NULL, 3);
	d = tn_seq_render(m, &opt);
	for (size_t i = 0; i < d->line_count; i++) {
		const char *s = d->lines[i].text;
		GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
		int cols = tn_text_decode(chars, s, -1, -1, true);

		g_array_free(chars, TRUE);
		if (cols > opt.width)
			fits = false;
		for (const char *c = s; *c; c++)
			if ((unsigned char) *c < 0x20 || *c == 0x7f)
				safe = false;
		if (strstr(s, "\xe2\x80\xae"))
			safe = false;
	}
	tap_ok(fits, "wide names: no line is wider than 160 columns");
	tap_ok(safe, "no control character or bidi override is drawn");
	tap_ok(d->line_count > 1 && strstr(d->lines[1].text, "节点-2") &&
		strstr(d->lines[1].text, "esc\\x1b[31mred") &&
		strstr(d->lines[1].text, "rtl\\u202Eevil") &&
		strstr(d->lines[1].text, " a-very-long-lifeline-n~ "),
		"names kept (CJK), escaped (ESC, U+202E), cut with '~'");
	tap_ok(strstr(d->lines[4].text, "line\\nbreak") != NULL,
		"a newline in a signal is escaped");
	tn_seq_drawing_destroy(d);
	opt.utf8 = false;
	d = tn_seq_render(m, &opt);
	tap_ok(strstr(d->lines[1].text, "\\u8282\\u70B9-2") != NULL,
		"without UTF-8, non-ASCII names are escaped");
	tn_seq_drawing_destroy(d);
	tn_seq_pairer_destroy(p);
	tn_seq_model_destroy(m);
}

/* ---- on generated traces ---- */

/* What the test knows of each message event of a trace. */
struct end_ref {
	struct tn_position pos;
	bool receive;
	uint64_t seq;
	char *signal, *sender, *receiver;
};

static char *field_string(const struct tn_event *ev, const char *name)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, name, &v) ||
	    v.type != TN_VALUE_STRING)
		return NULL;
	return g_strdup(v.string);
}

struct trace_ref {
	GArray *ends;		/* struct end_ref, in trace order */
	GArray *all;		/* struct tn_position of every event */
};

/* Read the trace, feeding the first `limit` events to loaders and
 * model (all of them with G_MAXUINT64). */
static void read_trace(const struct tn_trace *trace, uint64_t limit,
		struct tn_seq_loaders *loaders, struct tn_seq_model *model,
		struct trace_ref *ref)
{
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;
	uint64_t n = 0;

	ref->ends = g_array_new(FALSE, FALSE, sizeof(struct end_ref));
	ref->all = g_array_new(FALSE, FALSE, sizeof(struct tn_position));
	if (tn_walk_open(trace, INT64_MIN, &walk, &err)) {
		tap_ok(false, "open a walk: %s", err.message);
		return;
	}
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		const char *name = tn_event_get_name(&row.ev);
		struct tn_field_value v;

		g_array_append_val(ref->all, row.pos);
		if (!strcmp(name, "app:send") || !strcmp(name, "app:receive")) {
			struct end_ref end = {
				.pos = row.pos,
				.receive = !strcmp(name, "app:receive"),
				.signal = field_string(&row.ev, "signal"),
				.sender = field_string(&row.ev, "sender"),
				.receiver = field_string(&row.ev, "receiver"),
			};

			if (tn_event_find_field(&row.ev, TN_SCOPE_PAYLOAD,
					"seq", &v))
				end.seq = v.u;
			g_array_append_val(ref->ends, end);
		}
		if (n++ < limit &&
		    tn_seq_loaders_handle(loaders, model, &row.ev, &row.pos,
				NULL, &err))
			tap_ok(false, "handle: %s", err.message);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	tn_seq_loaders_finish(loaders, model);
	tn_seq_model_sort(model);
}

static void free_trace_ref(struct trace_ref *ref)
{
	for (guint i = 0; i < ref->ends->len; i++) {
		struct end_ref *e = &g_array_index(ref->ends, struct end_ref,
			i);

		g_free(e->signal);
		g_free(e->sender);
		g_free(e->receiver);
	}
	g_array_free(ref->ends, TRUE);
	g_array_free(ref->all, TRUE);
}

static const struct end_ref *find_end(const struct trace_ref *ref,
		const struct tn_position *pos)
{
	for (guint i = 0; i < ref->ends->len; i++) {
		const struct end_ref *e = &g_array_index(ref->ends,
			struct end_ref, i);

		if (tn_position_compare(&e->pos, pos) == 0)
			return e;
	}
	return NULL;
}

static void test_reference(const char *path)
{
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_seq_loaders *loaders;
	struct tn_seq_model *model = tn_seq_model_create();
	struct trace_ref ref;
	int64_t sends = 0, receives = 0, orphans = 0, bad = 0, crossed = 0;
	size_t count;

	if (tn_trace_open(path, &trace, &err)) {
		tap_ok(false, "open %s: %s", path, err.message);
		return;
	}
	loaders = tn_seq_loaders_create(trace);
	tap_str_eq(tn_seq_loaders_get_names(loaders), "reference",
		"the reference loader applies to a message trace");
	read_trace(trace, G_MAXUINT64, loaders, model, &ref);
	count = tn_seq_model_get_message_count(model);
	for (size_t i = 0; i < count; i++) {
		const struct tn_seq_message *msg =
			tn_seq_model_borrow_message(model, i);
		const struct end_ref *s = msg->send.present ?
			find_end(&ref, &msg->send.at.pos) : NULL;
		const struct end_ref *r = msg->receive.present ?
			find_end(&ref, &msg->receive.at.pos) : NULL;

		if (s && r) {
			sends++;
			if (s->receive || !r->receive || s->seq != r->seq ||
			    strcmp(s->signal, msg->signal) ||
			    strcmp(r->signal, msg->signal) ||
			    tn_position_compare(&s->pos, &r->pos) >= 0)
				bad++;
		} else if (r) {
			orphans++;
		} else {
			receives++;	/* a send alone: counted to fail */
		}
		/* Crossing: received after a message sent later. */
		if (i + 1 < count && s && r) {
			const struct tn_seq_message *next =
				tn_seq_model_borrow_message(model, i + 1);

			if (next->receive.present && next->send.present &&
			    tn_position_compare(&next->receive.at.pos,
				&msg->receive.at.pos) < 0)
				crossed++;
		}
	}
	tap_int_eq(sends, gen_plan_value(path, "event_count app:send"),
		"every send is paired (as many as the plan's sends)");
	tap_int_eq(receives, 0, "no send is left unpaired");
	tap_int_eq(orphans, gen_plan_value(path, "orphan_receives"),
		"the receives without a send: the plan's orphan receives");
	tap_int_eq(bad, 0, "each message's ends carry the same seq and signal, "
		"the send first");
	tap_ok(crossed > 0, "messages cross (%" G_GINT64_FORMAT " times) and "
		"still pair by id", crossed);
	tap_int_eq(tn_seq_model_get_lifeline_count(model), 6,
		"the 6 lifelines of the generator");
	tn_seq_model_destroy(model);

	/* A cut: the first half of the events.  The sends whose receive is
	 * in the second half stay unpaired. */
	{
		guint half = ref.all->len / 2;
		const struct tn_position *cut = &g_array_index(ref.all,
			struct tn_position, half);
		GHashTable *received = g_hash_table_new(g_int64_hash,
			g_int64_equal);
		int64_t want = 0, got = 0;
		struct trace_ref again;

		for (guint i = 0; i < ref.ends->len; i++) {
			struct end_ref *e = &g_array_index(ref.ends,
				struct end_ref, i);

			if (e->receive &&
			    tn_position_compare(&e->pos, cut) < 0)
				g_hash_table_add(received, &e->seq);
		}
		for (guint i = 0; i < ref.ends->len; i++) {
			struct end_ref *e = &g_array_index(ref.ends,
				struct end_ref, i);

			if (!e->receive &&
			    tn_position_compare(&e->pos, cut) < 0 &&
			    !g_hash_table_contains(received, &e->seq))
				want++;
		}
		model = tn_seq_model_create();
		tn_seq_loaders_reset(loaders);
		read_trace(trace, half, loaders, model, &again);
		for (size_t i = 0; i < tn_seq_model_get_message_count(model);
		     i++)
			if (!tn_seq_model_borrow_message(model,
					i)->receive.present)
				got++;
		tap_ok(want > 0, "the cut leaves %" G_GINT64_FORMAT
			" messages in flight", want);
		tap_int_eq(got, want, "a cut: the sends in flight are unpaired");
		free_trace_ref(&again);
		g_hash_table_destroy(received);
		tn_seq_model_destroy(model);
	}
	free_trace_ref(&ref);
	tn_seq_loaders_destroy(loaders);
	tn_trace_destroy(trace);
}

/* The first message start (a send, or a receive without a send: seq 0
 * in the generator) after index `from` (or from the start up to it,
 * when wrapping) whose signal, sender or receiver contains word. */
static int expected_find(const struct trace_ref *ref,
		const struct tn_position *from, const char *word, bool *wrapped)
{
	for (int pass = 0; pass < 2; pass++) {
		for (guint i = 0; i < ref->ends->len; i++) {
			const struct end_ref *e = &g_array_index(ref->ends,
				struct end_ref, i);
			int order = tn_position_compare(&e->pos, from);

			if ((pass == 0 && order <= 0) ||
			    (pass == 1 && order > 0))
				continue;
			if (e->receive && e->seq != 0)
				continue;
			if (strstr(e->signal, word) ||
			    strstr(e->sender, word) ||
			    strstr(e->receiver, word)) {
				*wrapped = pass == 1;
				return (int) i;
			}
		}
	}
	return -1;
}

/* The end of the message a page at pos selects: the end at pos, else
 * the first message start after it; NULL: none (the last message). */
static const struct end_ref *expected_selected(const struct trace_ref *ref,
		const struct tn_position *pos)
{
	const struct end_ref *at = find_end(ref, pos);

	if (at)
		return at;
	for (guint i = 0; i < ref->ends->len; i++) {
		const struct end_ref *e = &g_array_index(ref->ends,
			struct end_ref, i);

		if (tn_position_compare(&e->pos, pos) > 0 &&
		    (!e->receive || e->seq == 0))
			return e;
	}
	return NULL;
}

static void test_window(const char *path)
{
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_seq_loaders *loaders;
	struct tn_seq_model *model = tn_seq_model_create();
	struct trace_ref ref;
	static const char *const words[] = { "ack", "gateway", "节点",
		"launch", NULL };

	if (tn_trace_open(path, &trace, &err)) {
		tap_ok(false, "open %s: %s", path, err.message);
		return;
	}
	loaders = tn_seq_loaders_create(trace);
	read_trace(trace, G_MAXUINT64, loaders, model, &ref);
	tn_seq_model_destroy(model);
	tn_seq_loaders_destroy(loaders);

	/* Pages around the first and last events, two message ends, and
	 * an event that is none (an app:flush). */
	guint flush = ref.all->len / 2;

	while (flush + 1 < ref.all->len && find_end(&ref,
			&g_array_index(ref.all, struct tn_position, flush)))
		flush++;
	for (int k = 0; k < 5; k++) {
		guint i = k == 0 ? 0 : k == 1 ? ref.all->len - 1 :
			k == 2 ? ref.ends->len / 2 : k == 3 ?
			ref.ends->len / 3 : flush;
		const struct tn_position *pos = k < 2 || k == 4 ?
			&g_array_index(ref.all, struct tn_position, i) :
			&g_array_index(ref.ends, struct end_ref, i).pos;
		struct tn_seq_page page;
		const struct tn_seq_message *sel;
		const struct end_ref *want;
		size_t count;
		bool ok;

		if (tn_seq_page_load(trace, pos, &tn_seq_default_limits, NULL,
				&page, &err)) {
			tap_ok(false, "page %d: %s", k, err.message);
			continue;
		}
		count = tn_seq_model_get_message_count(page.model);
		tap_ok(page.has_selected && count <= 32 &&
			page.selected <= 8 &&
			(page.selected == 8 || page.from_start) &&
			(count - page.selected == 24 || page.to_end),
			"page %d: %zu messages, the selected one %zu: 8 before "
			"it and 24 from it, but at the ends", k, count,
			page.selected);
		if (!page.has_selected) {
			tn_seq_page_fini(&page);
			continue;
		}
		sel = tn_seq_model_borrow_message(page.model, page.selected);
		want = expected_selected(&ref, pos);
		if (want)
			ok = (sel->send.present && tn_position_compare(
				&sel->send.at.pos, &want->pos) == 0) ||
				(sel->receive.present && tn_position_compare(
				&sel->receive.at.pos, &want->pos) == 0);
		else
			ok = page.to_end && page.selected == count - 1;
		tap_ok(ok, "page %d: the selected message (%s)", k,
			!want ? "the last one" : tn_position_compare(
			&want->pos, pos) == 0 ? "an end at the position" :
			"the first after the position");
		tn_seq_page_fini(&page);
	}

	/* The page as a job: the same page as loaded in place. */
	{
		struct tn_seq_page_request *req = g_new0(
			struct tn_seq_page_request, 1);
		struct tn_seq_page page;
		struct tn_job *job;
		struct tn_job_progress progress;

		req->trace = trace;
		req->pos = g_array_index(ref.ends, struct end_ref,
			ref.ends->len / 2).pos;
		req->limits = tn_seq_default_limits;
		if (tn_job_start(&tn_seq_page_job, req, &job, &err)) {
			tap_ok(false, "start the page job: %s", err.message);
			g_free(req);
		} else {
			tn_job_wait(job);
			tn_job_get_progress(job, &progress);
			tn_seq_page_load(trace, &req->pos,
				&tn_seq_default_limits, NULL, &page, &err);
			tap_ok(progress.state == TN_JOB_DONE && req->page.model &&
				tn_seq_model_get_message_count(
				req->page.model) == tn_seq_model_get_message_count(
				page.model) && req->page.selected == page.selected,
				"the page job gives the page");
			tn_seq_page_fini(&page);
			tn_job_destroy(job);
		}
	}

	/* Find, from a few positions, each word. */
	for (size_t w = 0; words[w]; w++) {
		struct tn_regex *re;

		if (tn_regex_compile(words[w], &re, &err))
			continue;
		for (int k = 0; k < 3; k++) {
			guint i = k == 0 ? 0 : k == 1 ? ref.all->len / 2 :
				ref.all->len - 1;
			struct tn_seq_find_request req = {
				.trace = trace, .regex = re, .wrap = true,
				.from = g_array_index(ref.all,
					struct tn_position, i),
			};
			struct tn_seq_find_result result;
			bool wrapped = false;
			int want = expected_find(&ref, &req.from, words[w],
				&wrapped);

			if (tn_seq_find(&req, &result, &err)) {
				tap_ok(false, "find %s: %s", words[w],
					err.message);
				continue;
			}
			tap_ok(want >= 0 ? result.found && result.wrapped ==
				wrapped && tn_position_compare(&result.pos,
				&g_array_index(ref.ends, struct end_ref,
				want).pos) == 0 : !result.found,
				"find /%s/ from event %u: %s", words[w], i,
				want < 0 ? "nothing" : wrapped ?
				"wrapped to the first" : "the next message");
		}
		tn_regex_destroy(re);
	}
	free_trace_ref(&ref);
	tn_trace_destroy(trace);
}

int main(void)
{
	char *path;

	test_pairing();
	test_model();
	test_applies();
	if (!setlocale(LC_CTYPE, "C.UTF-8") || !tn_text_locale_is_utf8()) {
		printf("# no C.UTF-8 locale: the drawing is not tested\n");
	} else {
		test_render();
		test_unsafe_names();
	}
	path = gen_trace("messages", "--domain ust --events 6000 --cpus 3 "
		"--seed 7");
	test_reference(path);
	test_window(path);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
