/* session.c - what the front ends share. */
#include <string.h>

#include "session.h"

int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, void (*output)(struct tn_session *session,
			enum tn_output_kind kind, const char *title,
			const char *text), struct tn_error *err)
{
	memset(session, 0, sizeof(*session));
	session->trace = trace;
	session->gmt = gmt;
	session->page_rows = 1;
	session->output = output;
	return tn_cursor_create(trace, NULL, &session->cursor, err);
}

void tn_session_fini(struct tn_session *session)
{
	tn_cursor_destroy(session->cursor);
	session->cursor = NULL;
}
