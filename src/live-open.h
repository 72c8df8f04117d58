/* live-open.h - a live URL opened in the event list or by --batch: the
 * session chosen, then copied as it records into a trace directory
 * (tracenav/live-mirror.h) that the list follows. */
#ifndef TRACENAV_LIVE_OPEN_H
#define TRACENAV_LIVE_OPEN_H

#include <stdbool.h>

#include "tracenav/live-mirror.h"

/* What live_open() did. */
enum live_open_status {
	LIVE_OPEN_OK,
	LIVE_OPEN_FAILED,	/* said on stderr */
	LIVE_OPEN_QUIT,		/* the user quit the session picker */
};

/* Open the live URL text: its session, or, when it names a relay
 * daemon only, its only session, or one picked from a numbered list
 * when pick (a terminal to ask on; else the sessions are said and
 * none is taken).  The session is copied into dir (NULL: a private
 * directory).  With wait_end, returns once the session ended (or the
 * connection broke: said, what came is kept); else once its first
 * packet arrived (the trace then opens).  *name: the session's name,
 * for the status bar (g_free it). */
enum live_open_status live_open(const char *text, const char *dir,
		bool pick, bool wait_end, struct tn_live_mirror **mirror,
		char **name);

#endif
