/* test-seq-rules.c - the sequence diagram's rule files: what parses
 * (rules counted, values, globs, conditions, the loaders line), the
 * exact message of each kind of error with its line and column, and
 * which loaders a rule file makes apply (the kernel loader's choice is
 * here too).  The rules applied to traces: tests/test-seq-rules.sh. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "src/core/seq-rules-private.h"
#include "tap.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-rules.h"

static struct tn_seq_rules *parse_ok(const char *text, size_t want,
		const char *what)
{
	struct tn_seq_rules *rules = NULL;
	struct tn_error err = { 0 };

	if (tn_seq_rules_parse("seq-rules", text, &rules, &err)) {
		tap_ok(false, "%s: %s", what, err.message);
		return NULL;
	}
	tap_int_eq(tn_seq_rules_get_count(rules), want, "%s: %zu rule(s)",
		what, want);
	return rules;
}

static void test_valid(void)
{
	struct tn_seq_rules *rules;
	const struct tn_seq_rule *rule;

	rules = parse_ok("", 0, "an empty file");
	tn_seq_rules_destroy(rules);
	rules = parse_ok("# only comments\n\n   # and blanks\r\n\t\n", 0,
		"comments and blank lines");
	tn_seq_rules_destroy(rules);
	rules = parse_ok(
		"send app:send from=sender to=receiver signal=signal id=seq\n"
		"receive\tapp:receive  from=sender to=receiver signal=signal\n"
		"message ros2:rcl_publish from=\"{$ctx.procname}-{$ctx.vtid}\" "
		"to=topic_name signal=\"publish\" kind=sync category=node\n"
		"lifeline sched_process_fork name=\"{child_comm}-{child_tid}\" "
		"category=thread create\n"
		"lifeline \"sched_process_*\" name=comm stop where tid > 1 && "
		"name =~ \"exit\"\n", 5, "one rule of each kind");
	if (rules) {
		rule = g_ptr_array_index(rules->rules, 2);
		tap_ok(rule->kind == TN_SEQ_RULE_MESSAGE &&
			rule->message_kind == TN_SEQ_SYNC &&
			rule->category == TN_SEQ_NODE &&
			rule->values[TN_SEQ_KEY_FROM].parts->len == 3 &&
			g_array_index(rule->values[TN_SEQ_KEY_FROM].parts,
				struct tn_seq_part, 0).scope ==
				TN_SCOPE_CONTEXTS &&
			strcmp(g_array_index(rule->values[TN_SEQ_KEY_FROM].parts,
				struct tn_seq_part, 1).text, "-") == 0,
			"a template: {$ctx.procname}, \"-\", {$ctx.vtid}");
		rule = g_ptr_array_index(rules->rules, 4);
		tap_ok(rule->stop && !rule->create && rule->where &&
			tn_seq_rule_matches_name(rule, "sched_process_exit") &&
			!tn_seq_rule_matches_name(rule, "sched_switch"),
			"a quoted glob, stop, a where condition");
		rule = g_ptr_array_index(rules->rules, 0);
		tap_ok(rule->values[TN_SEQ_KEY_ID].given &&
			rule->category == TN_SEQ_PROCESS &&
			tn_seq_rules_keep_loader(rules, "reference"),
			"an id, the default category, every loader kept");
	}
	tn_seq_rules_destroy(rules);
	rules = parse_ok("message x:* from=\"a\\\"b\\\\c\\{d\\}\" to=cpu "
		"signal=name\n", 1, "escapes, cpu and name");
	if (rules) {
		rule = g_ptr_array_index(rules->rules, 0);
		tap_str_eq(g_array_index(rule->values[TN_SEQ_KEY_FROM].parts,
			struct tn_seq_part, 0).text, "a\"b\\c{d}",
			"the escaped characters");
		tap_ok(g_array_index(rule->values[TN_SEQ_KEY_TO].parts,
			struct tn_seq_part, 0).kind == TN_SEQ_PART_CPU &&
			g_array_index(rule->values[TN_SEQ_KEY_SIGNAL].parts,
			struct tn_seq_part, 0).kind == TN_SEQ_PART_NAME,
			"cpu and name are the event's");
	}
	tn_seq_rules_destroy(rules);
	rules = parse_ok("lifeline *a* name=comm\n", 1, "a glob with stars");
	if (rules) {
		rule = g_ptr_array_index(rules->rules, 0);
		tap_ok(tn_seq_rule_matches_name(rule, "x\xe3\xde" "ab") &&
			!tn_seq_rule_matches_name(rule, "\xe3\xde" "b"),
			"an event name that is not UTF-8 is matched as its "
			"valid form");
	}
	tn_seq_rules_destroy(rules);
	rules = parse_ok("loaders kernel\n", 0, "a loaders line");
	if (rules)
		tap_ok(tn_seq_rules_keep_loader(rules, "kernel") &&
			!tn_seq_rules_keep_loader(rules, "reference"),
			"loaders kernel: the kernel loader only");
	tn_seq_rules_destroy(rules);
	rules = parse_ok("loaders none\n", 0, "loaders none");
	if (rules)
		tap_ok(!tn_seq_rules_keep_loader(rules, "kernel") &&
			!tn_seq_rules_keep_loader(rules, "reference"),
			"loaders none: no built-in loader");
	tn_seq_rules_destroy(rules);
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "# c\n\nsend app:send from=sender to=\n",
		  "seq-rules:3:30: expected a field after '=', got end of "
		  "line" },
		{ "sned app:send from=a to=b signal=c\n",
		  "seq-rules:1:1: expected send, receive, message or "
		  "lifeline, got 'sned'" },
		{ "send\n",
		  "seq-rules:1:5: expected an event name (a glob) after "
		  "'send', got end of line" },
		{ "send app:send from=a to=b\n",
		  "seq-rules:1:26: expected signal= (send needs from=, to= "
		  "and signal=), got end of line" },
		{ "lifeline x name=a from=b\n",
		  "seq-rules:1:19: expected name or category before '=', got "
		  "'from'" },
		{ "send x from=a to=b signal=c from=d\n",
		  "seq-rules:1:29: expected each key once, not from again, "
		  "got 'from'" },
		{ "message x from=a to=b signal=c kind=call\n",
		  "seq-rules:1:37: expected async, sync or return after "
		  "'kind=', got 'call'" },
		{ "lifeline x name=a category=cpu\n",
		  "seq-rules:1:28: expected thread, process, node or host "
		  "after 'category=', got 'cpu'" },
		{ "send x from=\"a{b\" to=b signal=c\n",
		  "seq-rules:1:17: expected '}' after the field, got '\"'" },
		{ "send x from=\"ab to=b signal=c\n",
		  "seq-rules:1:30: expected '\"' to end the text, got end of "
		  "line" },
		{ "send x from=\"a\\nb\" to=b signal=c\n",
		  "seq-rules:1:16: expected \\\", \\\\, \\{ or \\} (a backslash "
		  "escapes one of them), got 'nb'" },
		{ "send x from=$foo.bar to=b signal=c\n",
		  "seq-rules:1:13: expected a scope ($payload, $ctx, $cctx, "
		  "$sctx or $pctx), got '$foo.bar'" },
		{ "send x from=a..b to=b signal=c\n",
		  "seq-rules:1:15: expected a field name after '.', got "
		  "'.b'" },
		{ "send x from= a to=b signal=c\n",
		  "seq-rules:1:13: expected a field after '=', got a blank" },
		{ "send x from=a to=b signal=c where\n",
		  "seq-rules:1:34: expected a condition after 'where', got "
		  "end of line" },
		{ "send x from=a to=b signal=c where tid ==\n",
		  "seq-rules:1:41: bad condition: expected a value after "
		  "'==', not the end" },
		{ "lifeline x name=a create stop\n",
		  "seq-rules:1:26: expected create or stop once, got 'stop'" },
		{ "send x from=a to=b signal=c oops\n",
		  "seq-rules:1:29: expected KEY=VALUE (from, to, signal, id "
		  "or category) or where, got 'oops'" },
		{ "loaders reference tracecompass\n",
		  "seq-rules:1:19: expected reference, kernel, network, or "
		  "the end of the line, got 'tracecompass'" },
		{ "loaders none kernel\n",
		  "seq-rules:1:14: expected nothing after none, got "
		  "'kernel'" },
		{ "send \u00e9v\u00e9nement from=\u00e9 to=b signal=\n",
		  "seq-rules:1:35: expected a field after '=', got end of "
		  "line" },
		/* GLib aborted on these (found by tests/fuzz/fuzz-seq-rules):
		 * Latin-1 bytes, not UTF-8. */
		{ "send \xe9v\xe9nement from=a to=b signal=c\n",
		  "seq-rules:1:6: the event name is not UTF-8 (byte 0xe9): "
		  "write the rules file in UTF-8" },
		{ "lifeline \"ab*\xe3\" name=a\n",
		  "seq-rules:1:14: the event name is not UTF-8 (byte 0xe3): "
		  "write the rules file in UTF-8" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct tn_seq_rules *rules = NULL;
		struct tn_error err = { 0 };
		int status = tn_seq_rules_parse("seq-rules", cases[i].text,
			&rules, &err);

		if (status == 0) {
			tap_ok(false, "error %zu: parsed: %s", i,
				cases[i].text);
			tn_seq_rules_destroy(rules);
			continue;
		}
		tap_str_eq(err.message, cases[i].want, "error %zu: %s", i,
			cases[i].want + strlen("seq-rules:"));
	}
}

/* The loaders a rule file makes apply. */
static void test_loaders(void)
{
	static const char *const messages[] = { "app:send", "app:receive",
		NULL };
	static const char *const fields[] = { "sender", "receiver", "signal",
		"seq", NULL };
	static const char *const kernel[] = { "sched_switch",
		"sched_waking", "sched_wakeup", NULL };
	static const char *const switches[] = { "sched_switch",
		"sched_process_fork", NULL };
	struct tn_seq_rules *app = NULL, *none = NULL, *kept = NULL;
	struct tn_error err;
	struct {
		const char *const *names;
		struct tn_seq_rules **rules;
		const char *want;
		const char *what;
	} cases[] = {
		{ messages, NULL, "reference", "a message trace" },
		{ kernel, NULL, "kernel", "a kernel trace with wake-ups" },
		{ switches, NULL, "", "sched_switch and forks alone: none" },
		{ messages, &app, "reference, rules", "rules beside" },
		{ messages, &none, "rules", "rules with loaders none" },
		{ kernel, &kept, "kernel", "rules that match no event" },
		{ kernel, &app, "kernel", "rules of other events" },
	};

	tn_seq_rules_parse("a", "send app:send from=sender to=receiver "
		"signal=signal\n", &app, &err);
	tn_seq_rules_parse("b", "loaders none\nsend app:* from=sender "
		"to=receiver signal=signal\n", &none, &err);
	tn_seq_rules_parse("c", "loaders kernel reference\nmessage nope "
		"from=a to=b signal=c\n", &kept, &err);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct tn_seq_loader_input input = {
			cases[i].names, fields,
			cases[i].rules ? *cases[i].rules : NULL,
		};
		struct tn_seq_loaders *l = tn_seq_loaders_create_for_input(
			&input);

		tap_str_eq(tn_seq_loaders_get_names(l), cases[i].want,
			"loaders: %s", cases[i].what);
		if (strcmp(cases[i].want, "kernel") == 0)
			tap_ok(tn_seq_loaders_need_state(l),
				"the kernel loader needs the state");
		tn_seq_loaders_destroy(l);
	}
	tn_seq_rules_destroy(app);
	tn_seq_rules_destroy(none);
	tn_seq_rules_destroy(kept);
}

static void test_load(void)
{
	char *dir = g_dir_make_tmp("tracenav-rules-XXXXXX", NULL);
	char *path = g_build_filename(dir, "my rules", NULL);
	struct tn_seq_rules *rules = NULL;
	struct tn_error err;
	char *want;

	g_file_set_contents(path, "message a from=b to=c signal=d\nsend\n",
		-1, NULL);
	want = g_strdup_printf("%s:2:5: expected an event name (a glob) "
		"after 'send', got end of line", path);
	tap_ok(tn_seq_rules_load(path, &rules, &err) == 0 ? false :
		strcmp(err.message, want) == 0,
		"a file's errors are named after its path");
	g_free(want);
	g_unlink(path);
	tap_ok(tn_seq_rules_load(path, &rules, &err) < 0 &&
		strstr(err.message, "cannot read the sequence diagram rules"),
		"a missing file: %s", err.message);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

int main(void)
{
	test_valid();
	test_errors();
	test_loaders();
	test_load();
	return tap_done();
}
