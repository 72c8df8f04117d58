/* index.c - building the checkpoint index, or stopping its build. */
#include <inttypes.h>
#include <string.h>

#include "cmd.h"

static const char *const index_choices[] = { "cancel", NULL };

static int exec_index(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;

	if (args->argc == 1) {	/* cancel (the parser checked it) */
		tn_session_cancel_index(session, ctx->out);
		return 0;
	}
	/* --batch waits for the whole preparse: the index, the state
	 * snapshots (both saved in the cache) and the diagram's pages, in
	 * one read; the event list shows its progress. */
	if (session->wait_for_index) {
		tn_session_load_cached_index(session, ctx->out);
		tn_session_start_preparse(session, TN_SESSION_PREPARSE_INDEX |
			TN_SESSION_PREPARSE_REST, ctx->out);
		tn_session_wait_preparse(session, ctx->out);
		if (tn_session_need_index(session, "index", ctx->out, err))
			return -1;
		tn_index_service_wait_save(&session->indexing, ctx->out);
	} else if (tn_session_start_index(session, ctx->out, err)) {
		return -1;
	}
	if (session->indexing.index)
		tn_output_message(ctx->out, "%" PRIu64 " events indexed",
			session->indexing.index->event_count);
	return 0;
}

const struct tn_command tn_cmd_index = {
	"index", NULL, { { TN_ARG_WORD, "cancel", true, index_choices } },
	"build the checkpoint index (event numbers, counts), the state "
	"snapshots and the diagram's pages, or stop building the index",
	TN_CMD_READS, TN_COUNT_NONE, exec_index,
};
