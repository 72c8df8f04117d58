/* fuzz-filter.c - libFuzzer harness of the filters' texts, through the
 * public filter API (include/tracenav/filter.h): the input as a field
 * expression (filter EXPR: src/core/filter-expr.c) and as a regex
 * (filter-in RE: src/core/regex.c's smart case, then PCRE2).
 *
 * Checks: a refused text gets "bad expression: column N: ..." (or
 * "bad regex: column N: ...") with N within the text; an accepted one
 * is kept as typed; an expression on the events' names alone is
 * evaluated on names (no trace needed) and its negation !(EXPR) gives
 * the opposite answer for each. */
#include "tests/fuzz/fuzz.h"
#include "tracenav/filter.h"

/* "PREFIX column N: ...": N is within text. */
static void check_column(const char *text, const char *message,
		const char *prefix)
{
	long column;

	if (!g_str_has_prefix(message, prefix) ||
	    !g_str_has_prefix(message + strlen(prefix), "column "))
		return;
	FUZZ_CHECK(sscanf(message + strlen(prefix), "column %ld:",
		&column) == 1 && column >= 1 &&
		column <= fuzz_chars(text) + 1, "\"%s\": %s", text, message);
}

/* The answers of an expression on a few names, and of its negation. */
static void check_names(const char *text,
		const struct tn_filter_stack *stack)
{
	const char *names[] = {
		"sched_switch", "syscall_entry_openat", "app:send", "", text,
	};
	struct tn_filter_stack *negated = tn_filter_stack_create();
	struct tn_filter_set *set = tn_filter_stack_snapshot(stack, false);
	struct tn_filter_set *negated_set;
	struct tn_filter_matcher *matcher, *negated_matcher;
	struct tn_error err;
	char *negation = g_strdup_printf("!(%s)", text);

	if (tn_filter_stack_push(negated, TN_FILTER_EXPR, negation, &err)) {
		/* Only one more level of nesting can make it fail. */
		FUZZ_CHECK(strstr(err.message, "nested too deeply"),
			"\"%s\": %s", negation, err.message);
		goto out;
	}
	negated_set = tn_filter_stack_snapshot(negated, false);
	FUZZ_CHECK(tn_filter_set_is_name_only(negated_set), "\"%s\"",
		negation);
	matcher = tn_filter_matcher_new(set);
	negated_matcher = tn_filter_matcher_new(negated_set);
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		FUZZ_CHECK(tn_filter_matcher_match_name(matcher, names[i]) !=
			tn_filter_matcher_match_name(negated_matcher,
				names[i]), "\"%s\" on \"%s\"", text, names[i]);
	tn_filter_matcher_free(matcher);
	tn_filter_matcher_free(negated_matcher);
	tn_filter_set_unref(negated_set);
out:
	tn_filter_set_unref(set);
	tn_filter_stack_destroy(negated);
	g_free(negation);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_set *set;
	struct tn_error err;
	double clock = fuzz_clock_start();
	int status = tn_filter_stack_push(stack, TN_FILTER_EXPR, text, &err);

	fuzz_clock_stop(clock);
	if (status == 0) {
		FUZZ_CHECK(tn_filter_stack_get_count(stack) == 1 &&
			strcmp(tn_filter_stack_get_text(stack, 0), text) == 0,
			"\"%s\"", text);
		set = tn_filter_stack_snapshot(stack, false);
		if (tn_filter_set_is_name_only(set))
			check_names(text, stack);
		tn_filter_set_unref(set);
	} else {
		FUZZ_CHECK(g_str_has_prefix(err.message, "bad expression: "),
			"\"%s\": %s", text, err.message);
		check_column(text, err.message, "bad expression: ");
		FUZZ_CHECK(tn_filter_stack_get_count(stack) == 0, "\"%s\"",
			text);
	}
	tn_filter_stack_clear(stack);
	clock = fuzz_clock_start();
	status = tn_filter_stack_push(stack, TN_FILTER_IN, text, &err);
	fuzz_clock_stop(clock);
	if (status == 0) {
		set = tn_filter_stack_snapshot(stack, false);
		FUZZ_CHECK(!tn_filter_set_is_name_only(set), "\"%s\"", text);
		tn_filter_set_unref(set);
	} else {
		FUZZ_CHECK(g_str_has_prefix(err.message, "bad regex: ") ||
			(!*text && g_str_has_prefix(err.message,
				"empty regex")), "\"%s\": %s", text,
			err.message);
		check_column(text, err.message, "bad regex: ");
	}
	tn_filter_stack_destroy(stack);
	g_free(text);
}
