/* test-marks.c - unit tests of src/core/marks.c: marks kept in trace
 * order, toggled, found forward and back (with wrap), and their file:
 * saved and loaded again, mode 0600, written atomically, one per trace,
 * removed when there is no mark, and a damaged file or one of another
 * version moved aside, never lost. */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/marks.h"

static struct tn_position P(int64_t ns, uint64_t tie)
{
	return (struct tn_position) { ns, tie };
}

/* The marks as "ns/tie ns/tie ...". */
static char *listed(const struct tn_marks *marks)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < tn_marks_count(marks); i++)
		g_string_append_printf(out, "%s%lld/%llu", i ? " " : "",
			(long long) tn_marks_get(marks, i)->ns,
			(unsigned long long) tn_marks_get(marks, i)->tie);
	return g_string_free(out, FALSE);
}

static void is_listed(const struct tn_marks *marks, const char *want,
		const char *what)
{
	char *got = listed(marks);

	tap_str_eq(got, want, "%s", what);
	g_free(got);
}

static void test_set(void)
{
	struct tn_marks *marks = tn_marks_create();
	bool wrapped;
	struct tn_position p;

	tap_int_eq(tn_marks_count(marks), 0, "a new set is empty");
	tap_int_eq(tn_marks_find(marks, &(struct tn_position) { 5, 0 }, true,
		true, &wrapped), -1, "no mark to find in an empty set");
	tap_ok(tn_marks_toggle(marks, &(struct tn_position) { 300, 0 }),
		"toggle: marked");
	p = P(100, 2);
	tn_marks_toggle(marks, &p);
	p = P(100, 0);
	tn_marks_toggle(marks, &p);
	p = P(-50, 0);
	tn_marks_toggle(marks, &p);
	is_listed(marks, "-50/0 100/0 100/2 300/0",
		"kept in trace order: time, then tie");
	tap_ok(tn_marks_has(marks, &(struct tn_position) { 100, 2 }),
		"has 100/2");
	tap_ok(!tn_marks_has(marks, &(struct tn_position) { 100, 1 }),
		"not 100/1 (another tie)");
	tap_ok(!tn_marks_has(NULL, &p), "no set: nothing marked");
	p = P(100, 0);
	tap_ok(!tn_marks_toggle(marks, &p), "toggle again: unmarked");
	is_listed(marks, "-50/0 100/2 300/0", "100/0 is gone");

	/* Forward and back, from marks and from between them. */
	p = P(100, 2);
	tap_int_eq(tn_marks_find(marks, &p, true, false, &wrapped), 2,
		"next after a mark: the one after it");
	tap_int_eq(tn_marks_find(marks, &p, false, false, &wrapped), 0,
		"previous before a mark: the one before it");
	p = P(100, 1);
	tap_int_eq(tn_marks_find(marks, &p, true, false, &wrapped), 1,
		"next from between: 100/2");
	tap_int_eq(tn_marks_find(marks, &p, false, false, &wrapped), 0,
		"previous from between: -50/0");
	p = P(300, 0);
	tap_int_eq(tn_marks_find(marks, &p, true, false, &wrapped), -1,
		"next after the last, no wrap: none");
	tap_ok(tn_marks_find(marks, &p, true, true, &wrapped) == 0 && wrapped,
		"next after the last, wrap: the first, wrapped");
	p = P(-50, 0);
	tap_ok(tn_marks_find(marks, &p, false, true, &wrapped) == 2 && wrapped,
		"previous before the first, wrap: the last, wrapped");
	p = P(0, 0);
	tap_ok(tn_marks_find(marks, &p, true, true, &wrapped) == 1 && !wrapped,
		"next from inside: not wrapped");
	p = P(100, 2);
	tap_ok(tn_marks_remove(marks, &p), "remove a mark");
	tap_ok(!tn_marks_remove(marks, &p), "remove it again: not marked");
	tn_marks_clear(marks);
	tap_int_eq(tn_marks_count(marks), 0, "clear: none left");
	tn_marks_destroy(marks);
	tn_marks_destroy(NULL);
}

static bool file_exists(const char *path)
{
	return g_file_test(path, G_FILE_TEST_EXISTS);
}

/* Files in dir whose name starts with prefix. */
static int count_files(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (g_str_has_prefix(e->d_name, prefix))
			n++;
	if (d)
		closedir(d);
	return n;
}

static void test_file(void)
{
	char *trace_a = gen_trace("a", "--events 100 --cpus 1");
	char *trace_b = gen_trace("b", "--events 100 --cpus 1");
	char *dir = g_strdup_printf("%s/cache/tracenav", gen_tmpdir());
	struct tn_marks *marks = tn_marks_create();
	struct tn_marks *loaded = tn_marks_create();
	struct tn_trace *a, *b;
	char *path_a = NULL, *path_b = NULL, *again = NULL, *bad, *base;
	struct tn_error err;
	struct stat st;

	if (!tap_ok(tn_trace_open(trace_a, &a, &err) == 0 &&
		    tn_trace_open(trace_b, &b, &err) == 0, "traces open"))
		return;
	tap_ok(tn_marks_path(a, dir, &path_a, &err) == 0 &&
		tn_marks_path(b, dir, &path_b, &err) == 0 &&
		tn_marks_path(a, dir, &again, &err) == 0, "paths");
	tap_ok(g_str_has_prefix(path_a, dir) &&
		g_str_has_suffix(path_a, ".marks"),
		"the file is DIR/ID.marks (%s)", path_a);
	tap_str_eq(path_a, again, "one trace, one path");
	tap_ok(strcmp(path_a, path_b) != 0, "two traces, two paths");

	tap_int_eq(tn_marks_load(loaded, path_a, &err), 0,
		"no file yet: loads nothing, no error");
	tap_int_eq(tn_marks_count(loaded), 0, "no file: no marks");
	tn_marks_toggle(marks, &(struct tn_position) { 1700000000000034867, 0 });
	tn_marks_toggle(marks, &(struct tn_position) { 1700000000000034867, 3 });
	tn_marks_toggle(marks, &(struct tn_position) { -5, 0 });
	tap_int_eq(tn_marks_save(marks, path_a, trace_a, &err), 0,
		"save (makes the directory)");
	tap_ok(stat(path_a, &st) == 0 && (st.st_mode & 0777) == 0600,
		"the file is private (mode 0600)");
	base = g_path_get_basename(path_a);
	tap_int_eq(count_files(dir, base), 1,
		"no temporary file left beside it");
	tap_int_eq(tn_marks_load(loaded, path_a, &err), 0, "load it back");
	is_listed(loaded, "-5/0 1700000000000034867/0 1700000000000034867/3",
		"the same marks, in order");
	{
		char *text = NULL;

		g_file_get_contents(path_a, &text, NULL, NULL);
		tap_ok(text && g_str_has_prefix(text, "tracenav-marks 1\n# ") &&
			strstr(text, "\n1700000000000034867 3\n"),
			"a versioned text file, one \"NS TIE\" line a mark");
		g_free(text);
	}

	/* Damaged: moved aside, reported, the set empty. */
	bad = g_strconcat(path_a, ".bad", NULL);
	g_file_set_contents(path_a, "tracenav-marks 1\n12 0\n12 x\n", -1,
		NULL);
	tap_int_eq(tn_marks_load(loaded, path_a, &err), -1,
		"a damaged file fails to load");
	tap_ok(strstr(err.message, "is damaged (line 3: \"12 x\" is not "
		"\"NS TIE\")") && strstr(err.message, "kept as"),
		"the message says where and what (%s)", err.message);
	tap_int_eq(tn_marks_count(loaded), 0, "a damaged file: no marks");
	tap_ok(!file_exists(path_a) && file_exists(bad),
		"it was moved aside to .bad, not lost");
	g_file_set_contents(path_a, "tracenav-marks 2\n12 0\n", -1, NULL);
	tap_int_eq(tn_marks_load(loaded, path_a, &err), -1,
		"a file of another version is not read");
	tap_ok(strstr(err.message, "version 2, not 1") != NULL,
		"it says which version (%s)", err.message);
	g_file_set_contents(path_a, "GARBAGE\n", -1, NULL);
	tap_int_eq(tn_marks_load(loaded, path_a, &err), -1, "garbage fails");
	tap_ok(strstr(err.message, "not a marks file") != NULL,
		"garbage: not a marks file");
	g_file_set_contents(path_a, "tracenav-marks 1\n1 0\n\0\n", 23, NULL);
	tap_int_eq(tn_marks_load(loaded, path_a, &err), -1,
		"a NUL byte: not text");

	/* Saved anew; no mark removes the file. */
	tap_int_eq(tn_marks_save(marks, path_a, trace_a, &err), 0,
		"save after a damaged file");
	tap_int_eq(tn_marks_load(loaded, path_a, &err), 0, "loads");
	tap_int_eq(tn_marks_count(loaded), 3, "three marks");
	tn_marks_clear(marks);
	tap_int_eq(tn_marks_save(marks, path_a, trace_a, &err), 0,
		"save no mark");
	tap_ok(!file_exists(path_a), "no mark: no file");
	tap_int_eq(tn_marks_save(marks, path_a, trace_a, &err), 0,
		"save no mark again: fine");
	{
		char *ro = g_strdup_printf("%s/file", gen_tmpdir());
		char *under = g_strdup_printf("%s/sub/x.marks", ro);

		g_file_set_contents(ro, "x", 1, NULL);
		tn_marks_toggle(marks, &(struct tn_position) { 1, 0 });
		tap_int_eq(tn_marks_save(marks, under, trace_a, &err), -1,
			"a directory that cannot be made: fails");
		tap_ok(strstr(err.message, "cannot save the marks in") != NULL,
			"and says where (%s)", err.message);
		g_free(ro);
		g_free(under);
	}
	g_free(base);
	g_free(bad);
	g_free(path_a);
	g_free(path_b);
	g_free(again);
	g_free(dir);
	tn_marks_destroy(marks);
	tn_marks_destroy(loaded);
	tn_trace_destroy(a);
	tn_trace_destroy(b);
	g_free(trace_a);
	g_free(trace_b);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The text of a file (parsed from memory: no NUL after it), its text
 * again as it would be saved, and a large file in reverse order. */
static void test_parse(void)
{
	static const char text[] = "tracenav-marks 1\n# a trace\n"
		"300 0\n-50 0\n\n100 2\n300 0\n# comment\n100 0";
	const size_t count = 1000000;
	struct tn_marks *marks = tn_marks_create();
	struct tn_error err = { "" };
	GString *saved = g_string_new(NULL);
	char *cut = g_memdup2(text, sizeof(text) - 1);
	double started, took;

	tap_int_eq(tn_marks_parse(marks, cut, sizeof(text) - 1, &err), 0,
		"parse a file from memory");
	is_listed(marks, "-50/0 100/0 100/2 300/0",
		"sorted, each mark once, the last line without a newline");
	tn_marks_format(marks, "a trace", saved);
	tap_str_eq(saved->str, "tracenav-marks 1\n# a trace\n-50 0\n"
		"100 0\n100 2\n300 0\n", "format: the text save writes");
	/* A line break in the trace's path started a line of its own:
	 * the file did not load again, or had a mark more (found by
	 * tests/fuzz/fuzz-marks). */
	g_string_truncate(saved, 0);
	tn_marks_format(marks, "/t/a\n-5 0\rb", saved);
	tap_ok(strstr(saved->str, "\n# /t/a\\n-5 0\\rb\n") != NULL,
		"a line break in the path is written \\n");
	tap_ok(tn_marks_parse(marks, saved->str, saved->len, &err) == 0,
		"and the file loads again");
	is_listed(marks, "-50/0 100/0 100/2 300/0", "with the same marks");
	tap_int_eq(tn_marks_parse(marks, "tracenav-marks 1\n7 x", 20, &err),
		-1, "a bad line fails");
	tap_str_eq(err.message, "line 2: \"7 x\" is not \"NS TIE\"",
		"and says which and why, without a file name");
	tap_int_eq(tn_marks_count(marks), 0, "a bad text: no marks");
	tap_int_eq(tn_marks_parse(marks, "tracenav-marks 1\n\0", 18, &err),
		-1, "a NUL byte fails");

	/* Inserting each mark in place made this quadratic: minutes. */
	g_string_assign(saved, "tracenav-marks 1\n");
	for (size_t i = count; i > 0; i--) {
		/* Not g_string_append_printf(): a malloc a line, slow in
		 * the ASan build. */
		char line[32];
		int len = snprintf(line, sizeof(line), "%zu 0\n", i);

		g_string_append_len(saved, line, len);
	}
	started = now_s();
	tap_int_eq(tn_marks_parse(marks, saved->str, saved->len, &err), 0,
		"%zu marks in reverse order parse", count);
	took = now_s() - started;
	tap_ok(tn_marks_count(marks) == count &&
	       tn_marks_get(marks, 0)->ns == 1 &&
	       tn_marks_get(marks, count - 1)->ns == (int64_t) count,
		"all of them, sorted");
	tap_ok(took < 30, "in %.2f s (under 30 s)", took);

	g_string_free(saved, TRUE);
	g_free(cut);
	tn_marks_destroy(marks);
}

int main(void)
{
	test_set();
	test_parse();
	test_file();
	gen_cleanup();
	return tap_done();
}
