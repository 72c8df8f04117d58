/* command-run.c - the dispatcher: a command line parsed and run, a
 * script of them (see commands.h). */
#include <stdio.h>
#include <string.h>

#include "commands.h"

/* Follow mode: a move away from the end holds the position; the last
 * event (G, follow) follows again. */
static void note_follow(struct tn_session *session,
		const struct tn_command *command,
		const struct tn_command_args *args)
{
	if (session->follow == TN_FOLLOW_OFF)
		return;
	if ((command->flags & TN_CMD_GOES_TO_END) && !args->has_count)
		session->follow = TN_FOLLOW_END;
	else if (command->flags & (TN_CMD_MOVES_LINES | TN_CMD_MOVES_PAGES |
			TN_CMD_JUMPS))
		session->follow = TN_FOLLOW_HOLD;
}

int tn_command_exec(struct tn_command_context *ctx,
		const struct tn_parsed_command *parsed, struct tn_error *err)
{
	const struct tn_command *command = parsed->command;
	struct tn_session *session = ctx->session;
	uint64_t fallbacks;
	int status;

	tn_error_clear(err);
	ctx->command = command;
	if (parsed->args.has_count && command->count == TN_COUNT_NONE) {
		tn_error_set(err, "%s takes no count", command->name);
		return -1;
	}
	/* A command that does not read touches nothing of the session
	 * (the event list runs it while a job has the cursor). */
	if (!(command->flags & TN_CMD_READS))
		return command->exec(ctx, &parsed->args, err);
	tn_lease_check(&session->lease, command->name);
	if ((command->flags & TN_CMD_NEEDS_INDEX) &&
	    tn_session_need_index(session, command->name, ctx->out, err))
		return -1;
	fallbacks = tn_cursor_get_fallback_count(session->cursor);
	status = command->exec(ctx, &parsed->args, err);
	if (status == 0)
		note_follow(session, command, &parsed->args);
	if (tn_cursor_get_fallback_count(session->cursor) != fallbacks)
		tn_output_message(ctx->out, "a fast seek did not land on its "
			"checkpoint: read the trace from its start instead");
	return status;
}

int tn_command_run(struct tn_command_context *ctx, const char *line,
		struct tn_error *err)
{
	struct tn_parsed_command parsed;
	int status = tn_command_parse(line, &parsed, err);

	if (status <= 0)
		return status;
	status = tn_command_exec(ctx, &parsed, err);
	tn_parsed_command_clear(&parsed);
	return status;
}

int tn_command_run_script(struct tn_command_context *ctx, const char *script,
		struct tn_error *err)
{
	char **lines = tn_command_split_script(script);
	int status = 0;

	for (char **line = lines; *line && !ctx->session->quit; line++) {
		/* reload asks; here, between commands, nothing else reads
		 * the trace. */
		if (tn_command_run(ctx, *line, err) ||
		    (tn_session_wants_reload(ctx->session) &&
		     tn_session_reload(ctx->session, ctx->out, err))) {
			char message[TN_ERROR_MAX];

			snprintf(message, sizeof(message), "%s", err->message);
			tn_error_set(err, "\"%s\": %s", g_strstrip(*line),
				message);
			status = -1;
			break;
		}
	}
	g_strfreev(lines);
	return status;
}
