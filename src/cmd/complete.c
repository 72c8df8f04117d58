/* complete.c - Tab completion of command lines: a completer per kind of
 * argument (command names, choices, event names, field names, times,
 * files), from the table's argument specs. */
#include <string.h>

#include "../commands.h"

static void add_if_prefix(GPtrArray *out, const char *candidate,
		const char *prefix)
{
	if (candidate && g_str_has_prefix(candidate, prefix))
		g_ptr_array_add(out, g_strdup(candidate));
}

static void add_list(GPtrArray *out, const char *const *list,
		const char *prefix)
{
	for (; list && *list; list++)
		add_if_prefix(out, *list, prefix);
}

static void complete_command(GPtrArray *out, const char *prefix)
{
	size_t count;
	const struct tn_command *const *commands = tn_commands(&count);

	for (size_t i = 0; i < count; i++)
		add_if_prefix(out, commands[i]->name, prefix);
}

/* Files and directories (with a trailing '/') starting with prefix. */
static void complete_file(GPtrArray *out, const char *prefix)
{
	const char *slash = strrchr(prefix, '/');
	char *dir = slash ? g_strndup(prefix, (gsize) (slash - prefix + 1)) :
		g_strdup("");
	const char *base = slash ? slash + 1 : prefix;
	GDir *listing = g_dir_open(*dir ? dir : ".", 0, NULL);
	const char *name;

	while (listing && (name = g_dir_read_name(listing))) {
		char *path;

		/* Hidden files only when asked for. */
		if (!g_str_has_prefix(name, base) ||
		    (name[0] == '.' && base[0] != '.'))
			continue;
		path = g_strconcat(dir, name, NULL);
		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			g_ptr_array_add(out, g_strconcat(path, "/", NULL));
		else
			g_ptr_array_add(out, g_strdup(path));
		g_free(path);
	}
	if (listing)
		g_dir_close(listing);
	g_free(dir);
}

/* A time: the current event's, which the user then edits, and the
 * other forms' starts. */
static void complete_time(GPtrArray *out,
		const struct tn_completion_source *source, const char *prefix)
{
	static const char *const forms[] = { "#", "0%", "50%", "100%", NULL };
	static const char *const words[] = { "begin", "end", NULL };

	if (source)
		add_if_prefix(out, source->current_time, prefix);
	if (!*prefix)
		add_list(out, forms, prefix);
	add_list(out, words, prefix);
}

/* A character of a field or event name ("$ctx.vtid", "app:send"). */
static bool is_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == ':' || c == '$' ||
		c == '.';
}

/* In a regex or an expression, the name being typed: event names and
 * field names (those of a scope, "$ctx.vtid", once a '$' is typed), and
 * for an expression its words name and cpu. */
static void complete_pattern(GPtrArray *out, const struct tn_arg_spec *spec,
		const struct tn_completion_source *source, const char *prefix)
{
	static const char *const expr_words[] = { "name", "cpu", NULL };

	if (!source)
		return;
	add_list(out, source->event_names, prefix);
	for (const char *const *f = source->field_names; f && *f; f++)
		if ((**f == '$') == (*prefix == '$'))
			add_if_prefix(out, *f, prefix);
	if (spec->name && strstr(spec->name, "EXPR"))
		add_list(out, expr_words, prefix);
}

void tn_command_complete_arg(GPtrArray *out,
		const struct tn_arg_spec *spec,
		const struct tn_completion_source *source, const char *prefix)
{
	switch (spec->kind) {
	case TN_ARG_WORD: add_list(out, spec->choices, prefix); break;
	case TN_ARG_TIME: complete_time(out, source, prefix); break;
	case TN_ARG_COMMAND: complete_command(out, prefix); break;
	case TN_ARG_EVENT_NAME:
		if (source)
			add_list(out, source->event_names, prefix);
		break;
	case TN_ARG_FIELD:
		if (source)
			add_list(out, source->field_names, prefix);
		break;
	case TN_ARG_FILE: complete_file(out, prefix); break;
	case TN_ARG_PATTERN: complete_pattern(out, spec, source, prefix); break;
	case TN_ARG_NONE:
	case TN_ARG_COUNT:
	case TN_ARG_TEXT:
		break;
	}
}

/* The spec of argument number `index` (0-based) of command, or NULL;
 * a rest-of-line argument goes on to the end. */
static const struct tn_arg_spec *arg_spec(const struct tn_command *command,
		int index)
{
	for (int a = 0; a < TN_COMMAND_MAX_ARGS; a++) {
		const struct tn_arg_spec *spec = &command->args[a];

		if (spec->kind == TN_ARG_NONE)
			return NULL;
		if (a == index || spec->kind == TN_ARG_TIME ||
		    spec->kind == TN_ARG_TEXT || spec->kind == TN_ARG_PATTERN)
			return spec;
	}
	return NULL;
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

GPtrArray *tn_command_complete(const char *line,
		const struct tn_completion_source *source, size_t *word_start)
{
	return tn_command_complete_word(line, source, word_start, NULL);
}

GPtrArray *tn_command_complete_word(const char *line,
		const struct tn_completion_source *source, size_t *word_start,
		bool *whole_word)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char **words;
	int complete = tn_command_split_words(line, &words, word_start);
	const char *prefix = words[complete] ? words[complete] : "";

	if (whole_word)
		*whole_word = true;

	if (complete == 0) {
		complete_command(out, prefix);
	} else {
		size_t len = strlen(words[0]);
		const struct tn_command *command;
		const struct tn_arg_spec *spec;

		/* "write!" is write's name. */
		if (len > 1 && words[0][len - 1] == '!')
			words[0][len - 1] = 0;
		command = tn_command_find(words[0]);
		spec = command ? arg_spec(command, complete - 1) : NULL;
		if (spec && spec->kind == TN_ARG_PATTERN) {
			/* Inside a pattern: the name that ends the line,
			 * which no blank follows (it may be in quotes). */
			size_t at = strlen(line);

			while (at > *word_start && is_name_char(line[at - 1]))
				at--;
			*word_start = at;
			prefix = line + at;
			if (whole_word)
				*whole_word = false;
		}
		if (spec)
			tn_command_complete_arg(out, spec, source, prefix);
		/* An optional word may be left out: the next argument's
		 * completions too (write [--marked] FILE). */
		if (spec && spec->kind == TN_ARG_WORD && spec->optional &&
		    spec - command->args + 1 < TN_COMMAND_MAX_ARGS &&
		    spec[1].kind != TN_ARG_NONE)
			tn_command_complete_arg(out, spec + 1, source, prefix);
	}
	g_ptr_array_sort(out, compare_strings);
	for (guint i = 1; i < out->len; i++)
		if (strcmp(out->pdata[i - 1], out->pdata[i]) == 0)
			g_ptr_array_remove_index(out, i--);
	g_strfreev(words);
	return out;
}
