/* usage.c - a command's usage line, in text (the help, the parser's
 * errors) and in troff (the man page's COMMANDS section). */
#include <ctype.h>

#include "cmd.h"

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
