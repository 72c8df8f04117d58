/* test-regex.c - the patterns of search and filters: smart case, match
 * ranges, invalid UTF-8 in the text, errors with their column, and one
 * compiled pattern matched from several threads at once. */
#include <glib.h>
#include <string.h>

#include "tap.h"
#include "tracenav/regex.h"

/* Whether pattern matches text, compiled for this check. */
static bool matches(const char *pattern, const char *text)
{
	struct tn_regex *re;
	struct tn_regex_matcher *m;
	struct tn_error err;
	bool found;

	if (tn_regex_compile(pattern, &re, &err))
		return false;
	m = tn_regex_matcher_new(re);
	found = tn_regex_matches(m, text);
	tn_regex_matcher_free(m);
	tn_regex_destroy(re);
	return found;
}

static bool caseless(const char *pattern)
{
	struct tn_regex *re;
	struct tn_error err;
	bool result;

	if (tn_regex_compile(pattern, &re, &err))
		return false;
	result = tn_regex_is_caseless(re);
	tn_regex_destroy(re);
	return result;
}

static void test_smart_case(void)
{
	tap_ok(matches("sched_switch", "SCHED_SWITCH"),
		"lower-case pattern: case ignored");
	tap_ok(!matches("Sched", "sched_switch"),
		"pattern with an upper-case letter: case matters");
	tap_ok(matches("Sched", "x Sched y"), "... and it matches itself");
	tap_ok(caseless("\\S+\\W\\D"), "escapes \\S \\W \\D are no upper case");
	tap_ok(caseless("\\p{Lu}x"), "\\p{Lu} is no upper case");
	tap_ok(!caseless("\\p{Lu}X"), "... but a letter after it is");
	tap_ok(!caseless("été É"), "a non-ASCII upper-case letter counts");
	tap_ok(matches("été", "ÉTÉ"), "non-ASCII case folding");
}

static void test_ranges(void)
{
	struct tn_regex *re;
	struct tn_regex_matcher *m;
	struct tn_error err;
	size_t start = 0, end = 0;
	const char *text = "prev_tid = 42, next_tid = 43";

	tap_ok(tn_regex_compile("tid = \\d+", &re, &err) == 0, "compiles");
	m = tn_regex_matcher_new(re);
	tap_ok(tn_regex_find(m, text, strlen(text), 0, &start, &end) &&
		start == 5 && end == 13, "first match range [5, 13)");
	tap_ok(tn_regex_find(m, text, strlen(text), end, &start, &end) &&
		start == 20 && end == 28, "next match from its end [20, 28)");
	tap_ok(!tn_regex_find(m, text, strlen(text), end, &start, &end),
		"no third match");
	tap_ok(!tn_regex_find(m, text, 3, 10, NULL, NULL),
		"an offset past the end: no match");
	tap_str_eq(tn_regex_get_pattern(re), "tid = \\d+", "keeps its pattern");
	tn_regex_matcher_free(m);
	tn_regex_destroy(re);
	tap_ok(matches("abc", "x\xff\xfe abc"), "invalid UTF-8 in the text: "
		"still searched");
	tap_ok(matches("^$", ""), "an empty text can match");
}

static void test_errors(void)
{
	struct tn_regex *re = NULL;
	struct tn_error err;

	tap_ok(tn_regex_compile("ab(c", &re, &err) == -1 && !re,
		"unbalanced parenthesis refused");
	tap_ok(strstr(err.message, "bad regex: column 5:") != NULL,
		"... with its column: %s", err.message);
	tap_ok(tn_regex_compile("é[", &re, &err) == -1 &&
		strstr(err.message, "column 3:") != NULL,
		"columns count characters, not bytes: %s", err.message);
	tap_ok(tn_regex_compile("*x", &re, &err) == -1 &&
		strstr(err.message, "column 1:") != NULL,
		"nothing to repeat at column 1: %s", err.message);
	/* PCRE2 stops inside the second ǩ: the column was counted in
	 * bytes then, past the end (found by tests/fuzz/fuzz-filter). */
	tap_ok(tn_regex_compile("\"p\u01e9\\p\u01e9", &re, &err) == -1 &&
		strstr(err.message, "bad regex: column 6: malformed") != NULL,
		"an error inside a character: the column of that character: "
		"%s", err.message);
	/* The smart case's scan read past the end of these (found by
	 * tests/fuzz/fuzz-filter): a backslash, then the first byte of a
	 * character of 2 or 4 bytes, then the end. */
	tap_ok(tn_regex_compile("\\\xc6", &re, &err) == -1 && !re &&
		strstr(err.message, "bad regex: column 2: UTF-8 error") != NULL,
		"a backslash and a cut character: refused, not read past the "
		"end: %s", err.message);
	tap_ok(tn_regex_compile("a\\\xf0", &re, &err) == -1 &&
		strstr(err.message, "UTF-8 error") != NULL,
		"a backslash and the first of 4 bytes: refused: %s",
		err.message);
}

struct thread_args {
	const struct tn_regex *re;
	int found;
};

static gpointer match_many(gpointer data)
{
	struct thread_args *args = data;
	struct tn_regex_matcher *m = tn_regex_matcher_new(args->re);
	char line[64];

	for (int i = 0; i < 20000; i++) {
		snprintf(line, sizeof(line), "syscall_entry_read: { fd = %d }", i);
		if (tn_regex_matches(m, line))
			args->found++;
	}
	tn_regex_matcher_free(m);
	return NULL;
}

static void test_threads(void)
{
	struct tn_regex *re;
	struct tn_error err;
	struct thread_args args[4];
	GThread *threads[4];
	bool all = true;

	tn_regex_compile("fd = 1\\d{3} ", &re, &err);
	for (int t = 0; t < 4; t++) {
		args[t] = (struct thread_args) { re, 0 };
		threads[t] = g_thread_new("match", match_many, &args[t]);
	}
	for (int t = 0; t < 4; t++) {
		g_thread_join(threads[t]);
		all = all && args[t].found == 1000;
	}
	tap_ok(all, "four threads share one pattern: 1000 matches each");
	tn_regex_destroy(re);
}

int main(void)
{
	test_smart_case();
	test_ranges();
	test_errors();
	test_threads();
	return tap_done();
}
