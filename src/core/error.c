/* error.c - errors meant for the user. */
#include <stdio.h>

#include "tracenav/error.h"

void tn_error_set(struct tn_error *err, const char *fmt, ...)
{
	va_list args;

	if (!err)
		return;
	va_start(args, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, args);
	va_end(args);
}

void tn_error_clear(struct tn_error *err)
{
	if (err)
		err->message[0] = '\0';
}
