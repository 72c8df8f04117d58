/* history.h - the lines typed at a prompt, kept across runs.
 *
 * A history has a name; its file is $XDG_STATE_HOME/tracenav/NAME (by
 * default ~/.local/state/tracenav/NAME): one line per entry, oldest
 * first, private (mode 0600, in a directory of mode 0700).  It is
 * bounded (the oldest lines go) and holds no repeats (a line typed
 * again moves to the end).  Each addition is merged with what the file
 * holds now, under a lock, and written atomically (a temporary file
 * renamed over it), so that two tracenav processes never lose or mix
 * each other's lines.  Nothing here draws: the prompt uses it.
 */
#ifndef TRACENAV_HISTORY_H
#define TRACENAV_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"

/* Lines kept when the creator does not say. */
#define TN_HISTORY_DEFAULT_MAX 1000

struct tn_history;

/* The file of the history called name: $XDG_STATE_HOME/tracenav/NAME,
 * or $HOME/.local/state/tracenav/NAME (g_free it). */
char *tn_history_default_path(const char *name);

/* An empty history of at most max lines (0: the default), kept in the
 * file at path (NULL: in memory only).  Nothing is read yet. */
struct tn_history *tn_history_create(const char *path, size_t max);
void tn_history_destroy(struct tn_history *history);

/* Read the file (a missing one holds no line).  Returns 0, or -1 with
 * err (an unreadable file: the history stays empty, and is not written
 * over until it can be read). */
int tn_history_load(struct tn_history *history, struct tn_error *err);

/* Replace the lines by those of text, size bytes holding a history
 * file (what tn_history_load() reads; no NUL needed at its end): its
 * newest lines, at most the history's max, each once at its newest
 * place, without the blank ones and the ones holding a NUL. */
void tn_history_parse(struct tn_history *history, const char *text,
		size_t size);

/* How many lines it holds; line index, 0 the oldest (index < count). */
size_t tn_history_count(const struct tn_history *history);
const char *tn_history_get(const struct tn_history *history, size_t index);

/* Add line at the end (a blank line, or one holding a newline, is not
 * kept; an equal older line goes), and save: the lines the file gained
 * meanwhile (other processes') come in too.  Returns 0, or -1 with err
 * when the file cannot be written (the line is kept in memory). */
int tn_history_add(struct tn_history *history, const char *line,
		struct tn_error *err);

/* The newest line before index `before` (count: from the newest) that
 * starts with prefix and holds needle after it (needle "" matches any);
 * -1 when there is none.  Ctrl-R's search (the prefix being the
 * prompt's command, "search " after /). */
long tn_history_search(const struct tn_history *history, const char *prefix,
		const char *needle, long before);

/* From index `from`, the nearest line in direction step (-1 older, +1
 * newer) that starts with prefix: its index, or -1 when there is none
 * that way.  Up and Down. */
long tn_history_step(const struct tn_history *history, const char *prefix,
		long from, int step);

#endif
