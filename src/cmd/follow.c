/* follow.c - follow mode, as less's F: the event list goes to the last
 * event and stays on the newest one as the trace grows (it watches the
 * trace's files and reloads it, src/tui/follow-mode.c).  A move away
 * holds the position (TN_FOLLOW_HOLD, command-run.c); follow or G goes
 * back to the end. */
#include <string.h>

#include "cmd.h"

static const char *const follow_choices[] = { "on", "off", NULL };

static int exec_follow(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;

	if (args->argc > 0 && strcmp(args->argv[0], "off") == 0) {
		if (session->follow != TN_FOLLOW_OFF && ctx->has_screen)
			tn_output_message(ctx->out, "follow off: the trace "
				"stays as it was read (:reload reads what was "
				"written since)");
		session->follow = TN_FOLLOW_OFF;
		return 0;
	}
	session->follow = TN_FOLLOW_END;
	return tn_cursor_seek_last(session->cursor, err);
}

const struct tn_command tn_cmd_follow = {
	"follow", NULL, {
		{ TN_ARG_WORD, "on|off", true, follow_choices },
	},
	"follow the trace as it is written (as less's F): the list stays on "
	"the newest event, a move away holds the position while the status "
	"bar counts the new events, follow or G goes back; off stops "
	"watching (in --batch: the last event)",
	TN_CMD_JUMPS | TN_CMD_READS | TN_CMD_GOES_TO_END, TN_COUNT_NONE,
	exec_follow,
};
