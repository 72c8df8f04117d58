/* commands.c - the one command table, its lookup and its help (see
 * commands.h): the help command lists the table, so it lives beside it;
 * every other command lives in a file of its topic in src/cmd/.  The
 * dispatcher is command-run.c. */
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
	COMMAND(tn_cmd_timeline) \
	COMMAND(tn_cmd_timeline_zoom) \
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
	COMMAND(tn_cmd_follow) \
	COMMAND(tn_cmd_sync) \
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

/* ---- the help: the table listed (help, the TUI's help view, the man
 * page), and the help command ---- */

/* The usage column of the text help is cut at this width. */
#define USAGE_WIDTH 24

void tn_command_help_lines(GPtrArray *lines, enum tn_help_format format,
		int indent)
{
	size_t count;
	const struct tn_command *const *commands = tn_commands(&count);
	int width = 0;

	for (size_t i = 0; i < count; i++) {
		char *usage = tn_command_usage(commands[i], TN_HELP_TEXT);

		width = MAX(width, (int) strlen(usage));
		g_free(usage);
	}
	width = MIN(width, USAGE_WIDTH);
	for (size_t i = 0; i < count; i++) {
		char *usage = tn_command_usage(commands[i], format);

		if (format == TN_HELP_TROFF) {
			g_ptr_array_add(lines, g_strdup(".TP"));
			g_ptr_array_add(lines, usage);
			continue;
		}
		g_ptr_array_add(lines, g_strdup_printf("%*s%-*s  %s", indent,
			"", width, usage, commands[i]->help));
		g_free(usage);
	}
}

/* help COMMAND: its usage and its line of help. */
static int help_one(struct tn_command_context *ctx, const char *name,
		struct tn_error *err)
{
	const struct tn_command *command = tn_command_find(name);
	char *usage;

	if (!command) {
		tn_error_set(err, "help: no command '%s' (help alone lists "
			"them)", name);
		return -1;
	}
	usage = tn_command_usage(command, TN_HELP_TEXT);
	tn_output_text(ctx->out, "help", usage);
	tn_output_text(ctx->out, "help", command->help);
	g_free(usage);
	return 0;
}

static int exec_help(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	GPtrArray *lines;

	if (args->argc > 0)
		return help_one(ctx, args->argv[0], err);
	lines = g_ptr_array_new_with_free_func(g_free);
	/* In the event list, the keys come first and the commands are a
	 * section of their own. */
	for (guint i = 0; ctx->help_prefix && i < ctx->help_prefix->len; i++)
		g_ptr_array_add(lines, g_strdup(ctx->help_prefix->pdata[i]));
	if (ctx->help_prefix)
		g_ptr_array_add(lines, g_strdup("Commands (type : then the "
			"command; --batch runs the same commands)"));
	tn_command_help_lines(lines, TN_HELP_TEXT, ctx->help_prefix ? 2 : 0);
	for (guint i = 0; i < lines->len; i++)
		tn_output_text(ctx->out, "help", lines->pdata[i]);
	g_ptr_array_free(lines, TRUE);
	return 0;
}

/* Not TN_CMD_READS: it touches nothing of the trace. */
const struct tn_command tn_cmd_help = {
	"help", NULL,
	{ { TN_ARG_COMMAND, "COMMAND", true, NULL },
	  { TN_ARG_NONE, NULL, false, NULL } },
	"list the commands (in the event list: the keys too), or show one",
	TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_help,
};
