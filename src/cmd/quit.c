/* quit.c - leaving. */
#include "cmd.h"

static int exec_quit(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) args;
	(void) err;
	ctx->session->quit = true;
	return 0;
}

/* Not TN_CMD_READS: the event list quits at once, even while a job
 * runs (it cancels the job first). */
const struct tn_command tn_cmd_quit = {
	"quit", "q", { { TN_ARG_NONE, NULL, false, NULL } }, "quit",
	0, TN_COUNT_NONE, exec_quit,
};
