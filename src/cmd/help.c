/* help.c - the help of the command table, in text (the help command, the
 * TUI's help view) and in troff (the man page's COMMANDS section, which
 * a test holds to it), and the help command itself. */
#include <ctype.h>
#include <string.h>

#include "cmd.h"

/* The usage column of the text help is cut at this width. */
#define USAGE_WIDTH 24

/* Append an argument name in troff: metavariables (capitals) in italics,
 * literal words and signs in bold, brackets and bars in roman. */
static void append_troff_arg(GString *out, const char *name)
{
	const char *p = name;

	while (*p) {
		const char *start = p;

		if (isupper((unsigned char) *p)) {
			while (isupper((unsigned char) *p))
				p++;
			g_string_append_printf(out, "\\fI%.*s\\fR",
				(int) (p - start), start);
		} else if (isalnum((unsigned char) *p) || *p == '%' ||
				*p == '#' || *p == '-') {
			g_string_append(out, "\\fB");
			for (; (isalnum((unsigned char) *p) &&
				!isupper((unsigned char) *p)) || *p == '%' ||
				*p == '#' || *p == '-'; p++) {
				if (*p == '-')
					g_string_append_c(out, '\\');
				g_string_append_c(out, *p);
			}
			g_string_append(out, "\\fR");
		} else {
			g_string_append_c(out, *p++);
		}
	}
}

static void append_name(GString *out, const char *name,
		enum tn_help_format format)
{
	if (format == TN_HELP_TROFF)
		g_string_append_printf(out, "\\fB%s\\fR", name);
	else
		g_string_append(out, name);
}

char *tn_command_usage(const struct tn_command *command,
		enum tn_help_format format)
{
	GString *out = g_string_new(NULL);

	append_name(out, command->name, format);
	if (command->flags & TN_CMD_BANG)
		g_string_append(out, format == TN_HELP_TROFF ?
			"[\\fB!\\fR]" : "[!]");
	for (int a = 0; a < TN_COMMAND_MAX_ARGS; a++) {
		const struct tn_arg_spec *spec = &command->args[a];

		if (spec->kind == TN_ARG_NONE)
			break;
		g_string_append_c(out, ' ');
		if (spec->optional)
			g_string_append_c(out, '[');
		if (format == TN_HELP_TROFF)
			append_troff_arg(out, spec->name);
		else
			g_string_append(out, spec->name);
		if (spec->optional)
			g_string_append_c(out, ']');
	}
	if (command->alias) {
		g_string_append(out, " (");
		append_name(out, command->alias, format);
		g_string_append_c(out, ')');
	}
	return g_string_free(out, FALSE);
}

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
