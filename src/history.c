/* history.c - the lines typed at a prompt, kept across runs (see
 * history.h). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "history.h"
#include "tracenav/file.h"

/* A history file bigger than this is not one we wrote. */
#define MAX_FILE_SIZE (16 << 20)

struct tn_history {
	char *path;		/* NULL: in memory only */
	size_t max;
	GPtrArray *lines;	/* char *, oldest first, no repeats */
	bool unreadable;	/* the file could not be read: never write it */
};

char *tn_history_default_path(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (xdg && g_path_is_absolute(xdg))
		return g_build_filename(xdg, "tracenav", name, NULL);
	if (!home || !home[0])
		home = g_get_home_dir();
	return g_build_filename(home, ".local", "state", "tracenav", name,
		NULL);
}

struct tn_history *tn_history_create(const char *path, size_t max)
{
	struct tn_history *history = g_new0(struct tn_history, 1);

	history->path = g_strdup(path);
	history->max = max ? max : TN_HISTORY_DEFAULT_MAX;
	history->lines = g_ptr_array_new_with_free_func(g_free);
	return history;
}

void tn_history_destroy(struct tn_history *history)
{
	if (!history)
		return;
	g_ptr_array_free(history->lines, TRUE);
	g_free(history->path);
	g_free(history);
}

size_t tn_history_count(const struct tn_history *history)
{
	return history->lines->len;
}

const char *tn_history_get(const struct tn_history *history, size_t index)
{
	return history->lines->pdata[index];
}

/* Remove an older line equal to line, if any. */
static void remove_equal(GPtrArray *lines, const char *line)
{
	for (guint i = 0; i < lines->len; i++) {
		if (strcmp(lines->pdata[i], line) == 0) {
			g_ptr_array_remove_index(lines, i);
			return;
		}
	}
}

/* Append line, without repeats, keeping at most max lines. */
static void append(GPtrArray *lines, const char *line, size_t max)
{
	remove_equal(lines, line);
	g_ptr_array_add(lines, g_strdup(line));
	if (lines->len > max)
		g_ptr_array_remove_range(lines, 0, lines->len - (guint) max);
}

static bool is_blank_line(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

/* Put into lines (empty) what appending each line of text (size bytes)
 * in turn would leave: the newest max lines that are not blank, each
 * once, at its newest place, oldest first.  Read from the end, so that
 * a large file costs one pass (appending each line was quadratic).  A
 * line holding a NUL is no line we wrote: it is left out. */
static void parse_lines(const char *text, size_t size, size_t max,
		GPtrArray *lines)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	size_t end = size;	/* the line being read ends there */

	while (lines->len < max) {
		size_t start = end;

		while (start > 0 && text[start - 1] != '\n')
			start--;
		if (!is_blank_line(text + start, end - start) &&
		    !memchr(text + start, '\0', end - start)) {
			char *line = g_strndup(text + start, end - start);

			if (g_hash_table_contains(seen, line)) {
				g_free(line);
			} else {
				g_hash_table_add(seen, line);
				g_ptr_array_add(lines, line);
			}
		}
		if (start == 0)
			break;
		end = start - 1;	/* before the newline */
	}
	g_hash_table_destroy(seen);
	/* Newest first so far. */
	for (guint i = 0, j = lines->len; i + 1 < j; i++, j--) {
		gpointer line = lines->pdata[i];

		lines->pdata[i] = lines->pdata[j - 1];
		lines->pdata[j - 1] = line;
	}
}

/* The lines of the file at path into lines (empty; none if the file is
 * missing).  Returns 0, or -1 with err. */
static int read_lines(const char *path, size_t max, GPtrArray *lines,
		struct tn_error *err)
{
	GError *error = NULL;
	char *text;
	gsize size;

	if (!g_file_get_contents(path, &text, &size, &error)) {
		bool missing = g_error_matches(error, G_FILE_ERROR,
			G_FILE_ERROR_NOENT);

		if (!missing)
			tn_error_set(err, "cannot read the history %s: %s",
				path, error->message);
		g_error_free(error);
		return missing ? 0 : -1;
	}
	if (size > MAX_FILE_SIZE) {
		tn_error_set(err, "cannot read the history %s: too large "
			"(%zu bytes) for a history", path, (size_t) size);
		g_free(text);
		return -1;
	}
	parse_lines(text, size, max, lines);
	g_free(text);
	return 0;
}

int tn_history_load(struct tn_history *history, struct tn_error *err)
{
	g_ptr_array_set_size(history->lines, 0);
	history->unreadable = false;
	if (!history->path)
		return 0;
	if (read_lines(history->path, history->max, history->lines, err)) {
		history->unreadable = true;
		return -1;
	}
	return 0;
}

void tn_history_parse(struct tn_history *history, const char *text,
		size_t size)
{
	g_ptr_array_set_size(history->lines, 0);
	parse_lines(text, size, history->max, history->lines);
}

/* Write lines to path through a temporary file and a rename; 0 or an
 * errno. */
static int write_lines(const char *path, GPtrArray *lines)
{
	GString *text = g_string_new(NULL);
	int error;

	for (guint i = 0; i < lines->len; i++)
		g_string_append_printf(text, "%s\n", (char *) lines->pdata[i]);
	error = tn_file_replace(path, text->str, text->len);
	g_string_free(text, TRUE);
	return error;
}

/* Merge line into the file under its lock, and take the merged lines. */
static int save(struct tn_history *history, const char *line,
		struct tn_error *err)
{
	char *dir = g_path_get_dirname(history->path);
	char *lock_path = g_strconcat(history->path, ".lock", NULL);
	GPtrArray *merged = g_ptr_array_new_with_free_func(g_free);
	int lock = -1, error = 0, status = -1;

	if (g_mkdir_with_parents(dir, 0700) != 0) {
		error = errno;
		goto out;
	}
	lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock < 0 || flock(lock, LOCK_EX) != 0) {
		error = errno;
		goto out;
	}
	if (read_lines(history->path, history->max, merged, err))
		goto out;
	append(merged, line, history->max);
	error = write_lines(history->path, merged);
	if (!error) {
		g_ptr_array_free(history->lines, TRUE);
		history->lines = merged;
		merged = NULL;
		status = 0;
	}
out:
	if (error)
		tn_error_set(err, "cannot save the history in %s: %s",
			history->path, strerror(error));
	if (lock >= 0)
		close(lock);	/* and the lock goes with it */
	if (merged)
		g_ptr_array_free(merged, TRUE);
	g_free(lock_path);
	g_free(dir);
	return status;
}

int tn_history_add(struct tn_history *history, const char *line,
		struct tn_error *err)
{
	if (!line[strspn(line, " \t")] || strchr(line, '\n') ||
	    strchr(line, '\r'))
		return 0;
	append(history->lines, line, history->max);
	if (!history->path || history->unreadable)
		return 0;
	return save(history, line, err);
}

long tn_history_search(const struct tn_history *history, const char *prefix,
		const char *needle, long before)
{
	size_t skip = strlen(prefix);

	if (before > (long) history->lines->len)
		before = (long) history->lines->len;
	for (long i = before - 1; i >= 0; i--) {
		const char *line = history->lines->pdata[i];

		if (g_str_has_prefix(line, prefix) &&
		    strstr(line + skip, needle))
			return i;
	}
	return -1;
}

long tn_history_step(const struct tn_history *history, const char *prefix,
		long from, int step)
{
	long len = (long) history->lines->len;

	for (long i = from + step; i >= 0 && i < len; i += step)
		if (g_str_has_prefix(history->lines->pdata[i], prefix))
			return i;
	return -1;
}
