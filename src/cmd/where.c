/* where.c - the current event's number (once indexed) and time. */
#include <inttypes.h>

#include "cmd.h"
#include "tracenav/time.h"

const struct tn_row *tn_cmd_current_row(struct tn_command_context *ctx,
		const char *what, struct tn_error *err)
{
	const struct tn_row *row = tn_cursor_row(ctx->session->cursor, 0,
		err);

	if (row || err->message[0])
		return row;
	if (ctx->session->filters.set)
		tn_error_set(err, "%s: no event passes the filters (filters "
			"lists them, clear-filters removes them)", what);
	else
		tn_error_set(err, "%s: the trace has no event", what);
	return NULL;
}

static int exec_where(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row = tn_cmd_current_row(ctx, "where", err);
	GString *line;
	uint64_t rank;
	int known;

	(void) args;
	if (!row)
		return -1;
	line = g_string_new(NULL);
	if (row->ev.has_ns)
		tn_time_format_wall(line, row->ev.recorded_ns,
			session->view.gmt, true);
	else
		g_string_append(line, "(no timestamp)");
	known = tn_cursor_get_rank(session->cursor, &rank, err);
	if (known < 0) {
		g_string_free(line, TRUE);
		return -1;
	}
	if (known && session->filters.counts) {
		char *where = g_strdup_printf("match %" PRIu64 " of %" PRIu64
			" at ", rank + 1, session->filters.counts->before[
				session->filters.counts->interval_count]);

		g_string_prepend(line, where);
		g_free(where);
	} else if (known) {
		char *where = g_strdup_printf("event %" PRIu64 " of %" PRIu64
			" at ", rank + 1, session->indexing.index->event_count);

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
