/* echo.c - a line of text among a script's results. */
#include "cmd.h"

static int exec_echo(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) err;
	tn_output_text(ctx->out, "echo", args->argc ? args->argv[0] : "");
	return 0;
}

/* Not TN_CMD_READS: it touches nothing of the session. */
const struct tn_command tn_cmd_echo = {
	"echo", NULL, { { TN_ARG_TEXT, "TEXT", true, NULL } },
	"print TEXT (in --batch: on standard output, among the results, to "
	"tell them apart)",
	TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_echo,
};
