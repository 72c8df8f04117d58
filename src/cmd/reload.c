/* reload.c - the trace opened again, with what was written to it since
 * (a trace still being written).  The command only asks: each front end
 * reloads between its commands, once nothing reads the trace
 * (tn_session_reload()).  A live session whose connection broke is
 * connected again first (in the background: its copy grows again as
 * the relay daemon answers). */
#include "cmd.h"

static int exec_reload(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_live_mirror *live = ctx->session->live;

	(void) args;
	if (live && tn_live_mirror_get_state(live, NULL, 0) ==
			TN_LIVE_MIRROR_FAILED &&
	    tn_live_mirror_reconnect(live, err))
		return -1;
	ctx->session->reload = true;
	return 0;
}

/* Not TN_CMD_READS: the event list stops its jobs, then reloads. */
const struct tn_command tn_cmd_reload = {
	"reload", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"open the trace again with what was written to it since (the "
	"current event, marks and filters stay); a live session that was "
	"disconnected is connected again",
	0, TN_COUNT_NONE, exec_reload,
};
