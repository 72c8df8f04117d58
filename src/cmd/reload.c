/* reload.c - the trace opened again, with what was written to it since
 * (a trace still being written).  The command only asks: each front end
 * reloads between its commands, once nothing reads the trace
 * (tn_session_reload()). */
#include "cmd.h"

static int exec_reload(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) args;
	(void) err;
	ctx->session->reload = true;
	return 0;
}

/* Not TN_CMD_READS: the event list stops its jobs, then reloads. */
const struct tn_command tn_cmd_reload = {
	"reload", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"open the trace again with what was written to it since (the "
	"current event, marks and filters stay)",
	0, TN_COUNT_NONE, exec_reload,
};
