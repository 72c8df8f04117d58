/* error.h - errors meant for the user, and the return conventions of
 * every function of the core (public headers and private ones alike).
 *
 * A failure fills a struct tn_error with one message saying what failed,
 * on which file or input, and what to do next; the caller decides how
 * to show it.  What functions return:
 *
 *   - A function that can fail returns int: 0 on success, -1 on failure
 *     with err filled.  One that makes or finds something gives it
 *     through an out parameter (*out), set only on success.
 *   - A function that reads the next item (tn_reader_next(),
 *     tn_walk_next()) returns 1 with the item, 0 at the end (nothing
 *     set, err untouched), -1 on failure.  A question that may have no
 *     answer yet (tn_cursor_get_rank()) answers the same way: 1 known,
 *     0 not known, -1 failure.
 *   - A function that collects things returns how many (>= 0), or -1 on
 *     failure (tn_seek_n_events_forward()).
 *   - Richer outcomes are an enum whose failure is -1 and whose other
 *     values say what happened (tn_cache_status; tn_reader_status keeps
 *     the 1/0/-1 of reading).
 *   - A function that cannot fail returns void or its value; bool means
 *     a yes/no answer, never success or failure.  A borrowed pointer may
 *     be NULL only where its header says what NULL means.
 *   - Destroy functions accept NULL.
 *
 * Exception, kept for its callers until they move: tn_cursor_row()
 * returns NULL both at either end (err empty) and on failure (err set).
 */
#ifndef TRACENAV_ERROR_H
#define TRACENAV_ERROR_H

#include <stdarg.h>

#define TN_ERROR_MAX 1024

struct tn_error {
	char message[TN_ERROR_MAX];
};

/* Set the message of err (NULL is allowed and ignored), printf-style. */
void tn_error_set(struct tn_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Clear err so that its message is the empty string. */
void tn_error_clear(struct tn_error *err);

#endif
