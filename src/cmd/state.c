/* state.c - the state of the system at the current event, one attribute
 * a line. */
#include "cmd.h"
#include "tracenav/state-history.h"
#include "tracenav/time.h"

/* The session's querier, on its snapshots as they are now (made again
 * when they appeared since). */
static struct tn_state_querier *borrow_querier(struct tn_session *session,
		struct tn_error *err)
{
	struct tn_state_querier *querier = session->state.querier;

	if (querier && tn_state_querier_borrow_snapshots(querier) ==
			session->state.snapshots)
		return querier;
	tn_state_querier_destroy(querier);
	session->state.querier = NULL;
	if (tn_state_querier_create(session->trace, session->state.snapshots,
			&session->state.querier, err))
		return NULL;
	return session->state.querier;
}

static void print_result(struct tn_output *out,
		const struct tn_state_result *result, size_t *printed)
{
	GString *line = g_string_new(NULL);

	*printed = 0;
	for (size_t i = 0; i < result->count; i++) {
		const struct tn_state_entry *entry = &result->entries[i];

		/* Containers (CPUs/3) and what is not known yet. */
		if (entry->value.type == TN_STATE_NULL)
			continue;
		g_string_printf(line, "%s = ", entry->path);
		tn_state_value_append(line, &entry->value);
		tn_output_text(out, "state", line->str);
		(*printed)++;
	}
	g_string_free(line, TRUE);
}

static int exec_state(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *glob = args->argc > 0 ? args->argv[0] : NULL;
	struct tn_state_query_options options = { 0, glob,
		session->state.symbols };
	const struct tn_row *row;
	struct tn_state_querier *querier;
	struct tn_state_result *result;
	struct tn_position pos;
	size_t printed;

	row = tn_cmd_current_row(ctx, "state", err);
	if (!row)
		return -1;
	pos = row->pos;
	if (!tn_state_service_applies(&session->state, session->trace)) {
		tn_error_set(err, "no state: the trace has no events that a "
			"state provider knows (kernel scheduler or userspace "
			"contexts)");
		return -1;
	}
	/* --batch: snapshots saved with a cached index (the event list
	 * has them from the start). */
	if (session->wait_for_index)
		tn_session_load_cached_index(session, ctx->out);
	querier = borrow_querier(session, err);
	if (!querier || tn_state_querier_query(querier, &pos, &options,
			&result, err))
		return -1;
	print_result(ctx->out, result, &printed);
	tn_state_result_destroy(result);
	if (printed == 0) {
		GString *when = g_string_new(NULL);

		tn_time_format_wall(when, pos.ns, session->view.gmt, true);
		if (glob)
			tn_error_set(err, "no attribute matches %s in the "
				"state at %s", glob, when->str);
		else
			tn_output_message(ctx->out, "nothing is known of the "
				"state at %s yet", when->str);
		g_string_free(when, TRUE);
		return glob ? -1 : 0;
	}
	return 0;
}

const struct tn_command tn_cmd_state = {
	"state", NULL, { { TN_ARG_TEXT, "GLOB", true, NULL } },
	"print the state of the system at the current event, one "
	"\"PATH = VALUE\" a line (CPUs/0/Current_thread = 42), sorted; with "
	"GLOB only the attributes whose path matches it ('*' within a "
	"name, '**' across names: 'Threads/*/Status')",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT | TN_CMD_SHOWS_CURRENT, TN_COUNT_NONE,
	exec_state,
};
