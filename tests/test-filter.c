/* test-filter.c - filters: the expression parser (every operator,
 * precedence, parentheses, numbers, strings, scopes, missing fields,
 * errors with their columns) checked on the events of generated traces
 * against their plan's counts, and the stack (regex filters in and
 * out, toggles, removal, the set of the enabled ones). */
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/filter.h"
#include "tracenav/format.h"
#include "tracenav/regex.h"
#include "tracenav/seek.h"

/* Every event of a trace, kept. */
static GArray *read_all(const struct tn_trace *trace)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return rows;
	while (tn_walk_next(walk, NULL, &row, &err) == 1)
		g_array_append_val(rows, row);
	tn_walk_destroy(walk);
	return rows;
}

static void free_rows(GArray *rows)
{
	for (guint i = 0; i < rows->len; i++)
		tn_row_release(&g_array_index(rows, struct tn_row, i));
	g_array_free(rows, TRUE);
}

/* How many of rows pass the enabled filters of stack (-1 if none). */
static int64_t count_stack(const struct tn_filter_stack *stack, GArray *rows)
{
	struct tn_filter_set *set = tn_filter_stack_snapshot(stack, true);
	struct tn_filter_matcher *matcher;
	int64_t count = 0;

	if (!set)
		return -1;
	matcher = tn_filter_matcher_new(set);
	tn_filter_set_unref(set);
	for (guint i = 0; i < rows->len; i++)
		count += tn_filter_matcher_match(matcher,
			&g_array_index(rows, struct tn_row, i).ev);
	tn_filter_matcher_free(matcher);
	return count;
}

/* How many of rows the expression keeps (-1 if it does not parse). */
static int64_t count_expr(const char *text, GArray *rows)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_error err;
	int64_t count = -1;

	if (tn_filter_stack_push(stack, TN_FILTER_EXPR, text, &err) == 0)
		count = count_stack(stack, rows);
	else
		printf("# %s: %s\n", text, err.message);
	tn_filter_stack_destroy(stack);
	return count;
}

static bool name_only(const char *text)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_set *set;
	struct tn_error err;
	bool only = false;

	if (tn_filter_stack_push(stack, TN_FILTER_EXPR, text, &err) == 0 &&
	    (set = tn_filter_stack_snapshot(stack, false))) {
		only = tn_filter_set_is_name_only(set);
		tn_filter_set_unref(set);
	}
	tn_filter_stack_destroy(stack);
	return only;
}

/* The error of text ("" if it parses). */
static char *expr_error(enum tn_filter_kind kind, const char *text)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_error err;

	tn_error_clear(&err);
	if (tn_filter_stack_push(stack, kind, text, &err) == 0)
		tn_error_clear(&err);
	tn_filter_stack_destroy(stack);
	return g_strdup(err.message);
}

static void check_error(const char *text, const char *want)
{
	char *got = expr_error(TN_FILTER_EXPR, text);
	char *full = g_strconcat("bad expression: ", want, NULL);

	if (!tap_ok(g_str_has_prefix(got, full), "'%s': \"%s\"", text,
			full))
		printf("#   got: \"%s\"\n", got);
	g_free(full);
	g_free(got);
}

/* Events of rows whose field holds, in the line's text, what pred says:
 * a count made without the expression code. */
static int64_t count_lines(GArray *rows, const char *pattern)
{
	struct tn_regex *re;
	struct tn_regex_matcher *matcher;
	struct tn_error err;
	GString *line = g_string_new(NULL);
	int64_t count = 0;

	if (tn_regex_compile(pattern, &re, &err))
		return -1;
	matcher = tn_regex_matcher_new(re);
	for (guint i = 0; i < rows->len; i++) {
		struct tn_format_state state;

		tn_format_state_init(&state, true);
		g_string_truncate(line, 0);
		tn_format_event_line(line, &g_array_index(rows, struct tn_row,
			i).ev, &state);
		count += tn_regex_matches(matcher, line->str);
	}
	tn_regex_matcher_free(matcher);
	tn_regex_destroy(re);
	g_string_free(line, TRUE);
	return count;
}

/* Events whose line matches "sched" but not a running prev_state, on
 * CPU 0: the three filters of test_stack, counted without them. */
static int64_t count_three(GArray *rows)
{
	struct tn_regex *in_re, *out_re;
	struct tn_regex_matcher *in, *out;
	struct tn_error err;
	GString *line = g_string_new(NULL);
	int64_t count = 0;

	tn_regex_compile("sched", &in_re, &err);
	tn_regex_compile("prev_state = \\( \"TASK_RUNNING\"", &out_re, &err);
	in = tn_regex_matcher_new(in_re);
	out = tn_regex_matcher_new(out_re);
	for (guint i = 0; i < rows->len; i++) {
		const struct tn_event *ev = &g_array_index(rows,
			struct tn_row, i).ev;
		struct tn_format_state state;

		tn_format_state_init(&state, true);
		g_string_truncate(line, 0);
		tn_format_event_line(line, ev, &state);
		count += tn_regex_matches(in, line->str) &&
			!tn_regex_matches(out, line->str) &&
			tn_event_get_cpu(ev) == 0;
	}
	tn_regex_matcher_free(in);
	tn_regex_matcher_free(out);
	tn_regex_destroy(in_re);
	tn_regex_destroy(out_re);
	g_string_free(line, TRUE);
	return count;
}

static void test_errors(void)
{
	char *got;

	check_error("", "empty expression");
	check_error("   ", "empty expression");
	check_error("name ==", "column 8: expected a value after '=='");
	check_error("name = \"x\"", "column 6: '=' alone is no operator");
	check_error("(name == \"x\"", "column 13: expected ')' to close the "
		"'(' of column 1");
	check_error("name == \"x", "column 9: missing closing quote");
	check_error("name =~ \"a(b\"", "column 13: bad regex: ");
	check_error("name =~ sched", "column 9: expected a quoted regex");
	check_error("$foo.x == 1", "column 1: unknown scope");
	check_error("$payload == 1", "column 1: a scope needs a field name");
	check_error("name == \"x\" cpu == 1", "column 13: expected && or || "
		"before 'cpu'");
	check_error("name \"x\"", "column 6: expected a comparison (== != < "
		"<= > >= =~ !~) after 'name'");
	check_error("0x == 1", "column 1: 0x needs hex digits");
	check_error("12ab == 1", "column 1: not a number");
	check_error("a & b", "column 3: use && and ||");
	check_error("prev_tid == 1 ||", "column 17: expected a comparison");
	check_error("\"\\x4\" == name", "column 2: \\x needs two hex digits");
	check_error("é == 1", "column 1: unexpected 'é'");
	check_error("name == \"é\" && # == 1", "column 16: unexpected '#'");
	check_error("a..b == 1", "column 1: a field name has no empty part");
	check_error("99999999999999999999 == 1", "column 1: number too large");
	got = expr_error(TN_FILTER_IN, "a(b");
	tap_str_eq(got, "bad regex: column 4: missing closing parenthesis",
		"a bad regex filter: the regex error and its column");
	g_free(got);
	got = expr_error(TN_FILTER_OUT, "");
	tap_ok(g_str_has_prefix(got, "empty regex"), "an empty regex is "
		"refused");
	g_free(got);
	check_error("((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"(((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"(((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"(((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"name == \"x\"", "column 201: nested too deeply");
}

static int64_t plan_count(const char *path, const char *name)
{
	char *key = g_strdup_printf("event_count %s", name);
	int64_t count = gen_plan_value(path, key);

	g_free(key);
	return count < 0 ? 0 : count;
}

static void test_kernel(void)
{
	char *path = gen_trace("kernel", "--events 6000 --cpus 3 --seed 11 "
		"--hang-every 500");
	int64_t total = gen_plan_value(path, "events");
	int64_t switches = plan_count(path, "sched_switch");
	int64_t wakeups = plan_count(path, "sched_wakeup");
	int64_t irqs = plan_count(path, "irq_handler_entry");
	int64_t sched = 0;
	struct tn_trace *trace;
	struct tn_error err;
	GArray *rows;
	static const char *const sched_names[] = { "sched_switch",
		"sched_wakeup", "sched_process_fork", "sched_process_exec",
		"sched_process_exit", "sched_process_hang",
		"sched_process_free" };

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "kernel trace "
			"opens"))
		return;
	rows = read_all(trace);
	tap_int_eq(rows->len, total, "every event read");
	for (size_t i = 0; i < G_N_ELEMENTS(sched_names); i++)
		sched += plan_count(path, sched_names[i]);
	tap_ok(switches > 100 && wakeups > 100 && irqs > 100 &&
		plan_count(path, "sched_process_hang") > 5,
		"the trace has the events the checks need");

	tap_int_eq(count_expr("name == \"sched_switch\"", rows), switches,
		"==: the event name");
	tap_int_eq(count_expr("name != \"sched_switch\"", rows),
		total - switches, "!=");
	tap_int_eq(count_expr("!(name == \"sched_switch\")", rows),
		total - switches, "!");
	tap_int_eq(count_expr("!!(name == \"sched_switch\")", rows), switches,
		"!!");
	tap_int_eq(count_expr("name =~ \"^sched_\"", rows), sched,
		"=~: a regex");
	tap_int_eq(count_expr("name !~ \"^sched_\"", rows), total - sched,
		"!~");
	tap_int_eq(count_expr("name =~ \"^SCHED_\"", rows), 0,
		"=~ with an upper-case letter: case counts");
	tap_int_eq(count_expr("name =~ \"^sched_switch|wakeup$\"", rows),
		switches + wakeups, "an alternation");
	tap_int_eq(count_expr("name == \"sched_switch\" || "
		"name == 'sched_wakeup'", rows), switches + wakeups,
		"||, and single quotes");
	tap_int_eq(count_expr("name == \"sched\\x5fswitch\"", rows), switches,
		"\\xNN in a string");
	tap_int_eq(count_expr("name == \"sched_switch\" || name == "
		"\"sched_wakeup\" && cpu == 99", rows), switches,
		"&& binds tighter than ||");
	tap_int_eq(count_expr("(name == \"sched_switch\" || name == "
		"\"sched_wakeup\") && cpu == 99", rows), 0, "parentheses");
	tap_int_eq(count_expr("cpu < 1", rows) + count_expr("cpu >= 1", rows),
		total, "< and >= split the events");
	tap_int_eq(count_expr("cpu <= 1", rows) + count_expr("cpu > 1", rows),
		total, "<= and > split the events");
	tap_int_eq(count_expr("cpu == 0", rows) + count_expr("cpu == 1", rows)
		+ count_expr("cpu == 2", rows), total, "cpu: three CPUs");
	tap_int_eq(count_expr("cpu == 1", rows), count_expr("$pctx.cpu_id "
		"== 1", rows), "cpu is the packet context's cpu_id");
	tap_int_eq(count_expr("cpu == 1", rows), count_lines(rows,
		"cpu_id = 1 }"), "cpu == 1: as the lines say");
	tap_int_eq(count_expr("prev_tid == 0x10", rows),
		count_expr("prev_tid == 16", rows), "hex numbers");
	tap_int_eq(count_expr("prev_tid == 16", rows), count_lines(rows,
		"prev_tid = 16,"), "a payload field: as the lines say");
	tap_int_eq(count_expr("$payload.prev_tid == 16", rows),
		count_expr("prev_tid == 16", rows), "$payload.");
	tap_int_eq(count_expr("prev_tid > 15.5 && prev_tid < 16.5", rows),
		count_expr("prev_tid == 16", rows), "numbers with a fraction");
	tap_int_eq(count_expr("prev_prio < 0", rows) +
		count_expr("prev_prio >= 0", rows), switches,
		"a signed field around 0");
	tap_int_eq(count_expr("prev_prio >= -100", rows), switches,
		"negative numbers");
	tap_int_eq(count_expr("prev_prio > -0x64", rows) +
		count_expr("prev_prio == -100", rows), switches,
		"negative hex numbers");
	tap_int_eq(count_expr("prev_state == \"TASK_RUNNING\"", rows),
		count_expr("prev_state == 0", rows), "an enumeration by its "
		"label and by its value");
	tap_int_eq(count_expr("prev_state == \"TASK_RUNNING\"", rows),
		count_lines(rows, "prev_state = \\( \"TASK_RUNNING\" : "
		"container = 0 \\)"), "an enumeration: as the lines say");
	tap_int_eq(count_expr("prev_state =~ \"^TASK_(RUNNING|DEAD)$\"", rows),
		count_expr("prev_state == 0 || prev_state == 128", rows),
		"=~ on an enumeration's labels");
	tap_int_eq(count_expr("prev_state != \"TASK_RUNNING\"", rows),
		switches - count_expr("prev_state == 0", rows),
		"!= on an enumeration's labels");
	tap_int_eq(count_expr("$payload.name =~ \"\"", rows), irqs,
		"$payload.name is the payload's field, name the event's");
	tap_int_eq(count_expr("next_comm =~ \"\"", rows), switches,
		"=~ on a string field");
	tap_int_eq(count_expr("next_comm == next_comm", rows), switches,
		"a field against a field");
	tap_int_eq(count_expr("prev_tid == next_tid", rows),
		count_lines(rows, "prev_tid = (\\d+),.*next_tid = \\1,"),
		"two fields compared");

	tap_int_eq(count_expr("nosuchfield == 1", rows), 0,
		"a missing field: == is false");
	tap_int_eq(count_expr("nosuchfield != 1", rows), 0,
		"a missing field: != is false too");
	tap_int_eq(count_expr("nosuchfield !~ \"x\"", rows), 0,
		"a missing field: !~ is false too");
	tap_int_eq(count_expr("!(nosuchfield == 1)", rows), total,
		"! of a missing field's comparison is true");
	tap_int_eq(count_expr("name == 5", rows), 0, "a string against a "
		"number is false");
	tap_int_eq(count_expr("prev_tid == \"16\"", rows), 0,
		"a number against a string is false");
	tap_int_eq(count_expr("prev_tid =~ \"16\"", rows), 0,
		"=~ on a number is false");
	tap_int_eq(count_expr("$payload.cpu_id == 0", rows), 0,
		"a field of another scope is not found");
	tap_int_eq(count_expr("$ctx.vtid >= 0", rows), 0, "no context: "
		"$ctx. finds nothing");
	tap_int_eq(count_expr("name == \"sched_switch\" && prev_tid == 16",
		rows), count_expr("prev_tid == 16", rows), "&& of two");

	tap_ok(name_only("name == \"x\""), "name alone: name-only");
	tap_ok(name_only("!(name =~ \"^a\" || name == \"b\") && name != "
		"\"c\""), "names with && || !: name-only");
	tap_ok(!name_only("name == \"x\" && cpu == 1"), "with cpu: not "
		"name-only");
	tap_ok(!name_only("comm == \"x\""), "a field: not name-only");
	free_rows(rows);
	tn_trace_destroy(trace);
	g_free(path);
}

static void test_ust(void)
{
	char *path = gen_trace("ust", "--events 3000 --domain ust --seed 4");
	int64_t total = gen_plan_value(path, "events");
	struct tn_trace *trace;
	struct tn_error err;
	GArray *rows;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "ust trace "
			"opens"))
		return;
	rows = read_all(trace);
	tap_ok(count_expr("$ctx.vtid > 0", rows) > 0, "$ctx.vtid: the "
		"common context (LTTng's added contexts)");
	tap_int_eq(count_expr("$ctx.vtid > 0", rows), count_expr("$cctx.vtid "
		"> 0", rows), "$cctx. is the common context");
	tap_int_eq(count_expr("vtid == 1000", rows), count_lines(rows,
		"vtid = 1000 }"), "a bare name finds a context field");
	tap_int_eq(count_expr("$sctx.vtid >= 0", rows), 0,
		"$sctx.: no specific context here");
	tap_int_eq(count_expr("procname =~ \"^\"", rows), total,
		"a string context field");
	tap_int_eq(count_expr("$payload.procname =~ \"\"", rows), 0,
		"but not in the payload");
	free_rows(rows);
	tn_trace_destroy(trace);
	g_free(path);
}

static void test_stack(void)
{
	char *path = gen_trace("stack", "--events 3000 --cpus 2 --seed 3");
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_trace *trace;
	struct tn_error err;
	int64_t in, out, both, total;
	GArray *rows;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "trace opens"))
		return;
	rows = read_all(trace);
	total = rows->len;
	tap_ok(tn_filter_stack_snapshot(stack, false) == NULL,
		"an empty stack: no set (every event passes)");
	tap_ok(tn_filter_stack_push(stack, TN_FILTER_IN, "sched", &err) == 0,
		"filter-in pushed");
	in = count_stack(stack, rows);
	tap_int_eq(in, count_lines(rows, "sched"), "filter-in keeps the "
		"lines that match");
	tap_int_eq(count_lines(rows, "\\(\\+"), total, "(the lines have "
		"deltas)");
	tn_filter_stack_clear(stack);
	tn_filter_stack_push(stack, TN_FILTER_IN, "\\(\\+", &err);
	tap_int_eq(count_stack(stack, rows), 0, "a regex filter does not see "
		"the delta");
	tn_filter_stack_clear(stack);
	tn_filter_stack_push(stack, TN_FILTER_IN, "^\\[\\d\\d:\\d\\d:\\d\\d\\."
		"\\d{9}\\] host sched_", &err);
	tap_int_eq(count_stack(stack, rows), count_expr("name =~ \"^sched_\"",
		rows), "it sees '[time] host name: ...'");
	tn_filter_stack_clear(stack);
	tn_filter_stack_push(stack, TN_FILTER_OUT, "prev_state = \\( "
		"\"TASK_RUNNING\"", &err);
	out = count_stack(stack, rows);
	tap_int_eq(out, total - count_lines(rows, "prev_state = \\( "
		"\"TASK_RUNNING\""), "filter-out hides the lines that match");
	tn_filter_stack_push(stack, TN_FILTER_IN, "sched", &err);
	both = count_stack(stack, rows);
	tap_int_eq(both, in - count_lines(rows, "prev_state = \\( "
		"\"TASK_RUNNING\""), "two filters: both must pass");
	tn_filter_stack_push(stack, TN_FILTER_EXPR, "cpu == 0", &err);
	tap_int_eq(tn_filter_stack_get_count(stack), 3, "three on the stack");
	tap_int_eq(count_stack(stack, rows), count_three(rows),
		"three filters");
	tn_filter_stack_set_enabled(stack, 2, false);
	tap_int_eq(tn_filter_stack_get_enabled_count(stack), 2,
		"one disabled");
	tap_int_eq(count_stack(stack, rows), both, "a disabled filter does "
		"nothing");
	tn_filter_stack_set_enabled(stack, 2, true);
	tn_filter_stack_remove(stack, 0);
	tap_int_eq(tn_filter_stack_get_count(stack), 2, "one removed");
	tap_str_eq(tn_filter_stack_get_text(stack, 0), "sched",
		"the others move up");
	tap_ok(tn_filter_stack_get_kind(stack, 1) == TN_FILTER_EXPR,
		"in their order");
	tap_int_eq(count_stack(stack, rows), count_expr("cpu == 0", rows) -
		count_expr("cpu == 0 && !(name =~ \"sched\")", rows),
		"what is left of them");
	tap_ok(tn_filter_stack_push(stack, TN_FILTER_EXPR, "cpu ==", &err),
		"a bad filter is refused");
	tap_int_eq(tn_filter_stack_get_count(stack), 2, "and not pushed");
	tn_filter_stack_set_enabled(stack, 0, false);
	tn_filter_stack_set_enabled(stack, 1, false);
	tap_ok(tn_filter_stack_snapshot(stack, false) == NULL,
		"all disabled: no set");
	tn_filter_stack_clear(stack);
	tap_int_eq(tn_filter_stack_get_count(stack), 0, "cleared");
	tn_filter_stack_destroy(stack);
	free_rows(rows);
	tn_trace_destroy(trace);
	g_free(path);
}

/* A chain of 80 000 comparisons: parsed from the left into a tree as
 * deep, it overflowed the stack when evaluated or freed (50 000 did in
 * an optimised build; a rule file's `where` of a million crashed
 * tracenav).  Now the tree is balanced; the answers are the same, the
 * order of evaluation too.  The terms compare the name with numbers
 * (never equal, and cheap to parse in the sanitizer builds). */
static void test_long_chain(void)
{
	const int terms = 80000;
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_matcher *matcher;
	struct tn_filter_set *set;
	GString *expr = g_string_new("name == \"b\" && name == 0 || "
		"name == \"a\"");
	struct tn_error err;

	for (int i = 1; i < terms; i++) {
		char term[32];
		int len = snprintf(term, sizeof(term), " %s name == %d",
			i % 1000 ? "||" : "&&", i);

		g_string_append_len(expr, term, len);
	}
	g_string_append(expr, " || name == \"z\"");
	if (!tap_ok(tn_filter_stack_push(stack, TN_FILTER_EXPR, expr->str,
			&err) == 0, "a chain of %d comparisons parses", terms))
		goto out;
	set = tn_filter_stack_snapshot(stack, false);
	matcher = tn_filter_matcher_new(set);
	/* && binds tighter: "b" && 0 is one term of the ||. */
	tap_ok(tn_filter_matcher_match_name(matcher, "a") &&
		tn_filter_matcher_match_name(matcher, "z") &&
		!tn_filter_matcher_match_name(matcher, "b") &&
		!tn_filter_matcher_match_name(matcher, "none"),
		"and evaluates to its end, with the precedence of && over ||");
	tn_filter_matcher_free(matcher);
	tn_filter_set_unref(set);
out:
	tn_filter_stack_destroy(stack);
	g_string_free(expr, TRUE);
}

int main(void)
{
	test_errors();
	test_long_chain();
	test_kernel();
	test_ust();
	test_stack();
	gen_cleanup();
	return tap_done();
}
