/* test-seq-hide.c - the sequence diagram's hide patterns on hand-built
 * models: sets made by adding and removing (the old set unchanged, a
 * pattern once, a bad regex refused), what a set hides (a lifeline by
 * name, with its messages; a message by signal; smart case), the model
 * without them (lifelines, messages, marks and activations renumbered,
 * the order kept), and the message a position selects. */
#include <string.h>

#include "tap.h"
#include "tracenav/seq-hide.h"

static struct tn_seq_point at(int64_t ns)
{
	struct tn_seq_point p = { ns, { ns, 0 } };

	return p;
}

/* A message from -> to with its send at ns and its receive at ns + 1
 * (no receive when receive is false). */
static void message(struct tn_seq_model *m, const char *from, const char *to,
		const char *signal, int64_t ns, bool receive)
{
	struct tn_seq_point send = at(ns), recv = at(ns + 1);
	struct tn_seq_message msg = {
		.kind = TN_SEQ_ASYNC,
		.from = tn_seq_model_lifeline(m, from, TN_SEQ_PROCESS, &send),
		.to = tn_seq_model_lifeline(m, to, TN_SEQ_PROCESS, &recv),
		.signal = signal,
		.send = { true, send },
		.receive = { receive, recv },
	};

	tn_seq_model_add_message(m, &msg);
}

/* "from>to:signal" of each message of m, joined by spaces. */
static char *messages_of(const struct tn_seq_model *m)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < tn_seq_model_get_message_count(m); i++) {
		const struct tn_seq_message *msg =
			tn_seq_model_borrow_message(m, i);

		g_string_append_printf(out, "%s%s>%s:%s", i ? " " : "",
			tn_seq_model_borrow_lifeline(m, msg->from)->name,
			tn_seq_model_borrow_lifeline(m, msg->to)->name,
			msg->signal);
	}
	return g_string_free(out, FALSE);
}

static void test_sets(void)
{
	struct tn_seq_hide *a = NULL, *b = NULL, *c = NULL, *none;
	struct tn_error err;

	tap_int_eq(tn_seq_hide_get_count(NULL), 0, "NULL is the empty set");
	tap_int_eq(tn_seq_hide_add(NULL, "ack", &a, &err), 1, "add ack");
	tap_int_eq(tn_seq_hide_add(a, "ack", &b, &err), 0,
		"ack again: already there");
	tap_ok(b == NULL, "... and no new set");
	tap_int_eq(tn_seq_hide_add(a, "^node", &b, &err), 1, "add ^node");
	tap_int_eq(tn_seq_hide_get_count(a), 1, "the old set is unchanged");
	tap_int_eq(tn_seq_hide_get_count(b), 2, "the new one has both");
	tap_str_eq(tn_seq_hide_get_pattern(b, 1), "^node",
		"in the order added");
	tap_int_eq(tn_seq_hide_add(b, "(bad", &c, &err), -1,
		"a bad regex is refused");
	tap_ok(strstr(err.message, "bad regex") != NULL,
		"... saying so: %s", err.message);
	tap_ok(!tn_seq_hide_equal(a, b) && tn_seq_hide_equal(b, b) &&
		tn_seq_hide_equal(NULL, NULL), "equal");
	tap_int_eq(tn_seq_hide_remove(b, "nope", &c), 0, "remove nope: none");
	tap_ok(tn_seq_hide_equal(b, c), "... the same patterns");
	tn_seq_hide_unref(c);
	tap_int_eq(tn_seq_hide_remove(b, "ack", &c), 1, "remove ack");
	tap_ok(tn_seq_hide_get_count(c) == 1 &&
		strcmp(tn_seq_hide_get_pattern(c, 0), "^node") == 0,
		"... ^node is left");
	tap_int_eq(tn_seq_hide_remove(b, NULL, &none), 2, "remove all");
	tap_ok(none == NULL, "... the empty set is NULL");
	/* A reference outlives the set's first owner. */
	tn_seq_hide_ref(c);
	tn_seq_hide_unref(c);
	tap_int_eq(tn_seq_hide_get_count(c), 1, "a reference keeps it");
	tn_seq_hide_unref(a);
	tn_seq_hide_unref(b);
	tn_seq_hide_unref(c);
}

static void test_filter(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	struct tn_seq_hide *set = NULL, *more = NULL;
	struct tn_seq_hide_matcher *matcher;
	struct tn_seq_model *shown;
	struct tn_seq_point p = at(15);
	struct tn_seq_activation act = { 0 };
	struct tn_error err;
	size_t node, index;
	char *text;

	message(m, "client", "server", "REQUEST", 10, true);
	message(m, "server", "node-1", "ack", 20, true);
	message(m, "client", "server", "Ack", 30, false);
	message(m, "node-1", "client", "data", 40, true);
	message(m, "server", "client", "REPLY", 50, true);
	node = tn_seq_model_lifeline(m, "node-1", TN_SEQ_PROCESS, NULL);
	tn_seq_model_set_created(m, node, &p);
	act.lifeline = node;
	tn_seq_model_add_activation(m, &act);
	act.lifeline = 0;
	tn_seq_model_add_activation(m, &act);

	matcher = tn_seq_hide_matcher_create(NULL);
	tap_ok(tn_seq_hide_matcher_is_empty(matcher), "no set: empty");
	shown = tn_seq_hide_filter(matcher, m);
	text = messages_of(shown);
	tap_str_eq(text, "client>server:REQUEST server>node-1:ack "
		"client>server:Ack node-1>client:data server>client:REPLY",
		"nothing hidden: every message");
	g_free(text);
	tn_seq_model_destroy(shown);
	tn_seq_hide_matcher_destroy(matcher);

	tn_seq_hide_add(NULL, "ack", &set, &err);
	matcher = tn_seq_hide_matcher_create(set);
	tap_ok(tn_seq_hide_message(matcher, m,
		tn_seq_model_borrow_message(m, 2)), "ack hides Ack (smart case)");
	tap_ok(!tn_seq_hide_lifeline(matcher, "client"), "not the lifeline "
		"client");
	shown = tn_seq_hide_filter(matcher, m);
	text = messages_of(shown);
	tap_str_eq(text, "client>server:REQUEST node-1>client:data "
		"server>client:REPLY", "ack: the acks go");
	g_free(text);
	tap_int_eq(tn_seq_model_get_lifeline_count(shown), 3,
		"... every lifeline stays");
	tn_seq_model_destroy(shown);
	tn_seq_hide_matcher_destroy(matcher);

	tn_seq_hide_add(set, "^node", &more, &err);
	matcher = tn_seq_hide_matcher_create(more);
	tap_ok(tn_seq_hide_lifeline(matcher, "node-1"), "^node hides node-1");
	tap_ok(tn_seq_hide_lifeline(matcher, "node-1"), "... asked again");
	shown = tn_seq_hide_filter(matcher, m);
	text = messages_of(shown);
	tap_str_eq(text, "client>server:REQUEST server>client:REPLY",
		"ack and ^node: node-1's messages go too");
	g_free(text);
	tap_ok(tn_seq_model_get_lifeline_count(shown) == 2 &&
		!tn_seq_model_find_lifeline(shown, "node-1", &index),
		"... and node-1");
	tap_int_eq(tn_seq_model_get_activation_count(shown), 1,
		"... with its activation");
	tap_int_eq(tn_seq_model_borrow_activation(shown, 0)->lifeline, 0,
		"client's stays, renumbered");
	tn_seq_model_destroy(shown);
	tn_seq_hide_matcher_destroy(matcher);
	tn_seq_hide_unref(set);
	tn_seq_hide_unref(more);
	tn_seq_model_destroy(m);
}

static void test_select(void)
{
	struct tn_seq_model *m = tn_seq_model_create();
	struct tn_position pos = { 0, 0 };
	size_t index = 99;

	tap_ok(!tn_seq_model_select(m, &pos, &index), "no message: none");
	message(m, "a", "b", "one", 10, true);		/* 10, 11 */
	message(m, "b", "a", "two", 20, true);		/* 20, 21 */
	message(m, "a", "b", "three", 30, false);	/* 30 */
	pos.ns = 21;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 1,
		"at a receive: its message");
	pos.ns = 10;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 0,
		"at a send: its message");
	pos.ns = 25;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 2,
		"between: the next message");
	pos.ns = 5;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 0,
		"before them all: the first");
	pos.ns = 99;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 2,
		"after them all: the last");
	pos.ns = 30;
	pos.tie = 1;
	tap_ok(tn_seq_model_select(m, &pos, &index) && index == 2,
		"the tie counts: after the last first end, the last");
	tn_seq_model_destroy(m);
}

int main(void)
{
	test_sets();
	test_filter();
	test_select();
	return tap_done();
}
