/* fuzz-history.c - libFuzzer harness of the prompt's history file
 * (src/history.c: tn_history_parse(), what tn_history_load() reads;
 * Ctrl-R's search and Up's steps on what it loaded).
 *
 * Checks: the lines loaded are what adding the file's lines one by one
 * (the prompt's own way, written again here in its simplest form)
 * keeps: at most the maximum, none blank, each once, at its newest
 * place; written back one a line, they load the same; the searches
 * answer an index of a line that fits. */
#include "tests/fuzz/fuzz.h"
#include "src/history.h"

/* What adding each line of text in turn keeps, oldest first. */
static GPtrArray *expected_lines(const uint8_t *data, size_t size,
		size_t max)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	size_t start = 0;

	for (size_t end = 0; end <= size; end++) {
		char *line;

		if (end < size && data[end] != '\n')
			continue;
		line = g_strndup((const char *) data + start, end - start);
		if (strlen(line) == end - start &&
		    line[strspn(line, " \t\r")]) {
			for (guint i = 0; i < lines->len; i++)
				if (strcmp(lines->pdata[i], line) == 0)
					g_ptr_array_remove_index(lines, i--);
			g_ptr_array_add(lines, line);
			if (lines->len > max)
				g_ptr_array_remove_index(lines, 0);
		} else {
			g_free(line);
		}
		start = end + 1;
	}
	return lines;
}

static void check_same(const struct tn_history *history,
		const GPtrArray *lines, const char *what)
{
	FUZZ_CHECK(tn_history_count(history) == lines->len, "%s: %zu lines, "
		"not %u", what, tn_history_count(history), lines->len);
	for (guint i = 0; i < lines->len; i++)
		FUZZ_CHECK(strcmp(tn_history_get(history, i),
			lines->pdata[i]) == 0, "%s: line %u", what, i);
}

static void check_search(const struct tn_history *history)
{
	long count = (long) tn_history_count(history);
	const char *newest;
	char prefix[3] = "", needle[3] = "";
	long found;

	if (count == 0)
		return;
	newest = tn_history_get(history, (size_t) count - 1);
	strncat(prefix, newest, 1);
	strncat(needle, newest + strlen(prefix), 2);
	found = tn_history_search(history, prefix, needle, count);
	FUZZ_CHECK(found == count - 1, "Ctrl-R finds the newest line");
	found = tn_history_search(history, prefix, needle, found);
	FUZZ_CHECK(found >= -1 && found < count - 1, "Ctrl-R again");
	found = tn_history_step(history, prefix, count, -1);
	FUZZ_CHECK(found == count - 1, "Up: the newest line");
	found = tn_history_step(history, prefix, found, -1);
	FUZZ_CHECK(found >= -1 && found < count - 1 && (found < 0 ||
		g_str_has_prefix(tn_history_get(history, (size_t) found),
			prefix)), "Up again");
}

static void fuzz_max(const uint8_t *data, size_t size, size_t max)
{
	struct tn_history *history = tn_history_create(NULL, max);
	GPtrArray *lines = expected_lines(data, size,
		max ? max : TN_HISTORY_DEFAULT_MAX);
	GString *text = g_string_new(NULL);
	double clock = fuzz_clock_start();

	tn_history_parse(history, (const char *) data, size);
	fuzz_clock_stop(clock);
	check_same(history, lines, "loaded");
	check_search(history);
	for (size_t i = 0; i < tn_history_count(history); i++)
		g_string_append_printf(text, "%s\n", tn_history_get(history,
			i));
	tn_history_parse(history, text->str, text->len);
	check_same(history, lines, "written and loaded again");
	g_string_free(text, TRUE);
	g_ptr_array_free(lines, TRUE);
	tn_history_destroy(history);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	fuzz_max(data, size, 4);
	fuzz_max(data, size, 0);
}
