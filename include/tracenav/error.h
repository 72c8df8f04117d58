/* error.h - errors meant for the user.
 *
 * Functions of the core that can fail return a negative status and fill a
 * struct tn_error with one message saying what failed, on which file or
 * input, and what to do next.  The caller decides how to show it.
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
