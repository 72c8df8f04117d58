/* where.c - the current event's number (once indexed) and time. */
#include <inttypes.h>

#include "cmd.h"
#include "tracenav/time.h"

static int exec_where(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, err);
	GString *line;
	uint64_t rank;
	int known;

	(void) args;
	if (!row) {
		if (!err->message[0])
			tn_error_set(err, "where: the trace has no event");
		return -1;
	}
	line = g_string_new(NULL);
	if (row->ev.has_ns)
		tn_time_format_wall(line, row->ev.ns, session->gmt, true);
	else
		g_string_append(line, "(no timestamp)");
	known = tn_cursor_get_rank(session->cursor, &rank, err);
	if (known < 0) {
		g_string_free(line, TRUE);
		return -1;
	}
	if (known && session->match_counts) {
		char *where = g_strdup_printf("match %" PRIu64 " of %" PRIu64
			" at ", rank + 1, session->match_counts->before[
				session->match_counts->interval_count]);

		g_string_prepend(line, where);
		g_free(where);
	} else if (known) {
		char *where = g_strdup_printf("event %" PRIu64 " of %" PRIu64
			" at ", rank + 1, session->index->event_count);

		g_string_prepend(line, where);
		g_free(where);
	} else {
		g_string_prepend(line, "at ");
	}
	tn_output_text(ctx->out, NULL, line->str);
	g_string_free(line, TRUE);
	return 0;
}

const struct tn_command tn_cmd_where = {
	"where", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"print the current event's number (when indexed) and time",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_where,
};
