/* print.c - events as --dump prints them. */
#include "cmd.h"
#include "tracenav/format.h"

static int exec_print(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	GString *line = g_string_new(NULL);
	int64_t n = tn_cmd_count(args);

	for (int64_t i = 0; i < n; i++) {
		const struct tn_row *row = tn_cursor_row(session->cursor, i,
			err);
		struct tn_format_state state;

		if (!row)
			break;
		/* The delta is from the event before it in the trace, as
		 * --dump prints it. */
		tn_format_state_init(&state, session->view.gmt);
		state.has_last = row->has_prev;
		state.last_ns = row->prev_ns;
		g_string_truncate(line, 0);
		tn_format_event_line(line, &row->ev, &state);
		tn_output_line(ctx->out, "print", line->str);
	}
	g_string_free(line, TRUE);
	return err->message[0] ? -1 : 0;
}

const struct tn_command tn_cmd_print = {
	"print", "p", { { TN_ARG_COUNT, "N", true, NULL } },
	"print N events (1) from the current one, as --dump does",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_REPEAT, exec_print,
};
