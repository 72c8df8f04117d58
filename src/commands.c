/* commands.c - the one command table and the dispatcher (see
 * commands.h).  Each command lives in a file of its topic in src/cmd/. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

/* The table, in the order of the help: one line a command (each is
 * defined in the file of its topic in src/cmd/). */
#define COMMANDS(COMMAND) \
	COMMAND(tn_cmd_goto) \
	COMMAND(tn_cmd_down) \
	COMMAND(tn_cmd_up) \
	COMMAND(tn_cmd_pgdn) \
	COMMAND(tn_cmd_pgup) \
	COMMAND(tn_cmd_top) \
	COMMAND(tn_cmd_bottom) \
	COMMAND(tn_cmd_search) \
	COMMAND(tn_cmd_next) \
	COMMAND(tn_cmd_prev) \
	COMMAND(tn_cmd_filter_in) \
	COMMAND(tn_cmd_filter_out) \
	COMMAND(tn_cmd_filter) \
	COMMAND(tn_cmd_filters) \
	COMMAND(tn_cmd_filter_toggle) \
	COMMAND(tn_cmd_filter_remove) \
	COMMAND(tn_cmd_clear_filters) \
	COMMAND(tn_cmd_count_events) \
	COMMAND(tn_cmd_range) \
	COMMAND(tn_cmd_select) \
	COMMAND(tn_cmd_stats) \
	COMMAND(tn_cmd_histogram) \
	COMMAND(tn_cmd_analysis) \
	COMMAND(tn_cmd_cputop) \
	COMMAND(tn_cmd_syscallstats) \
	COMMAND(tn_cmd_irqstats) \
	COMMAND(tn_cmd_schedtop) \
	COMMAND(tn_cmd_print) \
	COMMAND(tn_cmd_detail) \
	COMMAND(tn_cmd_state) \
	COMMAND(tn_cmd_where) \
	COMMAND(tn_cmd_mark) \
	COMMAND(tn_cmd_unmark) \
	COMMAND(tn_cmd_marks) \
	COMMAND(tn_cmd_next_mark) \
	COMMAND(tn_cmd_prev_mark) \
	COMMAND(tn_cmd_write) \
	COMMAND(tn_cmd_seqdiag) \
	COMMAND(tn_cmd_seqdiag_find) \
	COMMAND(tn_cmd_seqdiag_list) \
	COMMAND(tn_cmd_seq_hide) \
	COMMAND(tn_cmd_seq_unhide) \
	COMMAND(tn_cmd_seq_hidden) \
	COMMAND(tn_cmd_index) \
	COMMAND(tn_cmd_traces) \
	COMMAND(tn_cmd_reload) \
	COMMAND(tn_cmd_echo) \
	COMMAND(tn_cmd_help) \
	COMMAND(tn_cmd_quit)

#define DECLARE(entry) extern const struct tn_command entry;
COMMANDS(DECLARE)
#define ENTRY(entry) &entry,
static const struct tn_command *const table[] = { COMMANDS(ENTRY) };

const struct tn_command *const *tn_commands(size_t *count)
{
	*count = G_N_ELEMENTS(table);
	return table;
}

const struct tn_command *tn_command_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
		if (strcmp(table[i]->name, name) == 0 ||
		    (table[i]->alias && strcmp(table[i]->alias, name) == 0))
			return table[i];
	return NULL;
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
	if ((command->flags & TN_CMD_NEEDS_INDEX) &&
	    tn_session_need_index(session, command->name, ctx->out, err))
		return -1;
	fallbacks = tn_cursor_get_fallback_count(session->cursor);
	status = command->exec(ctx, &parsed->args, err);
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
		    (ctx->session->reload &&
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
