/* test-history.c - unit tests of src/history.c: the prompt's history is
 * bounded, holds no repeats, is private (0600 in a 0700 directory),
 * written atomically and merged with what another process added, loads
 * back, leaves an unreadable file alone, and answers Ctrl-R's search
 * and Up's prefix steps. */
#include <dirent.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "src/history.h"

/* The history's lines as "a|b|c". */
static char *joined(const struct tn_history *history)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < tn_history_count(history); i++)
		g_string_append_printf(out, "%s%s", i ? "|" : "",
			tn_history_get(history, i));
	return g_string_free(out, FALSE);
}

static void holds(const struct tn_history *history, const char *want,
		const char *what)
{
	char *got = joined(history);

	tap_str_eq(got, want, "%s", what);
	g_free(got);
}

static char *file_text(const char *path)
{
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, NULL);
	return text ? text : g_strdup("(none)");
}

static int entries_starting(const char *dir, const char *prefix)
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

static void test_default_path(void)
{
	char *path;

	setenv("XDG_STATE_HOME", "/state", 1);
	path = tn_history_default_path("history");
	tap_str_eq(path, "/state/tracenav/history",
		"$XDG_STATE_HOME/tracenav/NAME");
	g_free(path);
	setenv("XDG_STATE_HOME", "relative", 1);
	setenv("HOME", "/home/someone", 1);
	path = tn_history_default_path("history");
	tap_str_eq(path, "/home/someone/.local/state/tracenav/history",
		"a relative XDG_STATE_HOME is ignored: ~/.local/state");
	g_free(path);
	unsetenv("XDG_STATE_HOME");
	path = tn_history_default_path("search");
	tap_str_eq(path, "/home/someone/.local/state/tracenav/search",
		"no XDG_STATE_HOME: ~/.local/state/tracenav/NAME");
	g_free(path);
}

static void test_memory(void)
{
	struct tn_history *h = tn_history_create(NULL, 3);
	struct tn_error err;

	tap_int_eq(tn_history_load(h, &err), 0, "memory only: loads nothing");
	tn_history_add(h, "goto 50%", &err);
	tn_history_add(h, "  ", &err);
	tn_history_add(h, "two\nlines", &err);
	holds(h, "goto 50%", "blank lines and lines with a newline are not kept");
	tn_history_add(h, "down 5", &err);
	tn_history_add(h, "goto 50%", &err);
	holds(h, "down 5|goto 50%", "a repeat moves to the end, once");
	tn_history_add(h, "search sched", &err);
	tn_history_add(h, "print 3", &err);
	holds(h, "goto 50%|search sched|print 3",
		"bounded: the oldest goes past 3 lines");

	/* Ctrl-R: newest first, before an index, within a prefix. */
	tap_int_eq(tn_history_search(h, "", "", 3), 2,
		"search for nothing: the newest");
	tap_int_eq(tn_history_search(h, "", "o", 3), 0,
		"search o: the newest holding it (goto 50%%)");
	tn_history_add(h, "pgdn 2", &err);
	holds(h, "search sched|print 3|pgdn 2", "three again");
	tap_int_eq(tn_history_search(h, "", "d", 3), 2,
		"search d: pgdn 2");
	tap_int_eq(tn_history_search(h, "", "d", 2), 0,
		"search d again, older: search sched");
	tap_int_eq(tn_history_search(h, "", "d", 0), -1,
		"search d past the oldest: none");
	tap_int_eq(tn_history_search(h, "", "zz", 3), -1, "search zz: none");
	tap_int_eq(tn_history_search(h, "search ", "s", 3), 0,
		"search within the prefix \"search \": its pattern only");
	tap_int_eq(tn_history_search(h, "search ", "search", 3), -1,
		"the prefix itself is not searched");
	tap_int_eq(tn_history_search(h, "", "d", 99), 2,
		"an index past the end: from the newest");

	/* Up and Down: the lines that start with a prefix. */
	tap_int_eq(tn_history_step(h, "", 3, -1), 2, "Up from the end: newest");
	tap_int_eq(tn_history_step(h, "p", 3, -1), 2, "Up with p: pgdn 2");
	tap_int_eq(tn_history_step(h, "p", 2, -1), 1, "Up again: print 3");
	tap_int_eq(tn_history_step(h, "p", 1, -1), -1, "Up again: none");
	tap_int_eq(tn_history_step(h, "p", 1, 1), 2, "Down: pgdn 2");
	tap_int_eq(tn_history_step(h, "p", 2, 1), -1, "Down past the newest");
	tn_history_destroy(h);
	tn_history_destroy(NULL);
}

static void test_file(void)
{
	char *dir = g_strdup_printf("%s/state/tracenav", gen_tmpdir());
	char *path = g_strdup_printf("%s/history", dir);
	struct tn_history *a = tn_history_create(path, 4);
	struct tn_history *b = tn_history_create(path, 4);
	struct tn_error err;
	struct stat st;
	char *text;

	tap_int_eq(tn_history_load(a, &err), 0, "no file yet: fine");
	tap_int_eq(tn_history_add(a, "goto 10:00", &err), 0,
		"add: saved (the directory made)");
	tap_ok(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700,
		"the directory is private (0700)");
	tap_ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
		"the file is private (0600)");
	text = file_text(path);
	tap_str_eq(text, "goto 10:00\n", "one line a command, oldest first");
	g_free(text);

	/* Two processes: each addition merges what the other added. */
	tap_int_eq(tn_history_load(b, &err), 0, "b loads");
	holds(b, "goto 10:00", "b sees a's line");
	tn_history_add(a, "search foo", &err);
	tn_history_add(b, "down 3", &err);
	holds(b, "goto 10:00|search foo|down 3",
		"b's save merged a's line, in order");
	tn_history_add(a, "goto 10:00", &err);
	text = file_text(path);
	tap_str_eq(text, "search foo\ndown 3\ngoto 10:00\n",
		"a's repeat moved to the end, b's line kept");
	g_free(text);
	tn_history_add(b, "print 1", &err);
	tn_history_add(b, "print 2", &err);
	text = file_text(path);
	tap_str_eq(text, "down 3\ngoto 10:00\nprint 1\nprint 2\n",
		"bounded in the file too (4 lines)");
	g_free(text);
	{
		char *base = g_path_get_basename(path);
		char *tmp_prefix = g_strconcat(base, ".", NULL);
		int others = entries_starting(dir, tmp_prefix);

		/* The lock file stays; no temporary file does. */
		tap_int_eq(others, 1, "no temporary file left (only the lock)");
		g_free(tmp_prefix);
		g_free(base);
	}

	/* Reload from the file. */
	tn_history_destroy(a);
	a = tn_history_create(path, 4);
	tap_int_eq(tn_history_load(a, &err), 0, "reload");
	holds(a, "down 3|goto 10:00|print 1|print 2", "the same lines");

	/* A file written by hand, with repeats and blank lines. */
	g_file_set_contents(path, "a\n\nb\na\n  \nc\n", -1, NULL);
	tn_history_load(a, &err);
	holds(a, "b|a|c", "repeats collapse to the newest, blanks go");

	/* An unreadable file (a directory there) is never written over. */
	tn_history_destroy(b);
	unlink(path);
	g_mkdir(path, 0700);
	b = tn_history_create(path, 4);
	tap_int_eq(tn_history_load(b, &err), -1, "an unreadable file fails");
	tap_ok(strstr(err.message, "cannot read the history") != NULL,
		"and says so (%s)", err.message);
	tap_int_eq(tn_history_add(b, "x", &err), 0,
		"adding then keeps the line in memory");
	holds(b, "x", "in memory");
	tap_ok(g_file_test(path, G_FILE_TEST_IS_DIR), "the path is untouched");
	tap_int_eq(tn_history_add(a, "y", &err), -1,
		"a history whose file became a directory: the save fails");
	tap_ok(strstr(err.message, "cannot") != NULL, "with a message (%s)",
		err.message);
	tn_history_destroy(a);
	tn_history_destroy(b);
	g_free(path);
	g_free(dir);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The text of a file, as a load reads it: what appending each line in
 * turn would leave, from a large file in one pass. */
static void test_parse(void)
{
	static const char text[] = "a\nb\n  \t\nc\na\nd\0x\n\r\nb\ne";
	const size_t lines = 1500000;
	struct tn_history *h = tn_history_create(NULL, 3);
	struct tn_history *big = tn_history_create(NULL, 0);
	GString *file = g_string_new(NULL);
	char *cut = g_memdup2(text, sizeof(text) - 1);
	double started, took;

	tn_history_parse(h, cut, sizeof(text) - 1);
	holds(h, "a|b|e", "the newest 3, each at its newest place, no blank "
		"line, no line with a NUL, the last one without a newline");
	tn_history_parse(h, "", 0);
	holds(h, "", "an empty text: no line");
	tn_history_parse(h, "\n\nx\n\n", 5);
	holds(h, "x", "empty lines around one");

	/* Appending each line made this quadratic: seconds. */
	for (size_t i = 0; i < lines; i++) {
		/* Not g_string_append_printf(): a malloc a line, slow in
		 * the ASan build. */
		char line[32];
		int len = snprintf(line, sizeof(line), "goto %zu\n", i);

		g_string_append_len(file, line, len);
	}
	started = now_s();
	tn_history_parse(big, file->str, file->len);
	took = now_s() - started;
	tap_ok(tn_history_count(big) == TN_HISTORY_DEFAULT_MAX &&
	       strcmp(tn_history_get(big, 0), "goto 1499000") == 0 &&
	       strcmp(tn_history_get(big, TN_HISTORY_DEFAULT_MAX - 1),
			"goto 1499999") == 0,
		"%zu lines (%zu bytes): the newest %d", lines, file->len,
		TN_HISTORY_DEFAULT_MAX);
	tap_ok(took < 2, "in %.3f s (under 2 s)", took);

	g_string_free(file, TRUE);
	g_free(cut);
	tn_history_destroy(h);
	tn_history_destroy(big);
}

int main(void)
{
	test_default_path();
	test_memory();
	test_parse();
	test_file();
	gen_cleanup();
	return tap_done();
}
