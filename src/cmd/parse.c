/* parse.c - command lines into commands and arguments (see commands.h):
 * words split at blanks, quotes, backslashes, rest-of-line arguments,
 * and scripts split at ';' outside quotes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Read the word at line[*pos] (after blanks) into word, unquoted.
 * Returns 1 for a word, 0 at the end of the line, -1 with err (an
 * unterminated quote, a backslash at the end).  With lenient, those two
 * end the word instead (for the completer). */
static int next_word(const char *line, size_t *pos, GString *word,
		size_t *start, bool lenient, struct tn_error *err)
{
	char quote = 0;
	size_t quote_at = 0;
	size_t i = *pos;

	while (is_blank(line[i]))
		i++;
	if (!line[i]) {
		*pos = i;
		return 0;
	}
	if (start)
		*start = i;
	g_string_truncate(word, 0);
	for (; line[i] && (quote || !is_blank(line[i])); i++) {
		char c = line[i];

		if (quote && c == quote) {
			quote = 0;
		} else if (!quote && (c == '"' || c == '\'')) {
			quote = c;
			quote_at = i;
		} else if (c == '\\' && quote != '\'') {
			if (!line[i + 1]) {
				/* The backslash ends the word and the line
				 * (left where it is, the next call would
				 * find it again, endlessly). */
				if (lenient) {
					i++;
					break;
				}
				tn_error_set(err, "column %zu: a backslash ends "
					"the line: write \\\\ for a backslash",
					i + 1);
				return -1;
			}
			g_string_append_c(word, line[++i]);
		} else {
			g_string_append_c(word, c);
		}
	}
	if (quote && !lenient) {
		tn_error_set(err, "column %zu: the quote %c opened here is not "
			"closed", quote_at + 1, quote);
		return -1;
	}
	*pos = i;
	return 1;
}

/* The rest of the line from pos, blanks trimmed; one quoted word loses
 * its quotes ("'12:00'" is 12:00).  NULL with err when its quotes do
 * not close. */
static char *rest_of_line(const char *line, size_t pos, struct tn_error *err)
{
	size_t end = strlen(line), check = pos;
	GString *word = g_string_new(NULL);
	int words = 0, got;

	while ((got = next_word(line, &check, word, NULL, false, err)) == 1)
		words++;
	if (got < 0) {
		g_string_free(word, TRUE);
		return NULL;
	}
	while (is_blank(line[pos]))
		pos++;
	while (end > pos && is_blank(line[end - 1]))
		end--;
	if (words == 1 && (line[pos] == '"' || line[pos] == '\''))
		return g_string_free(word, FALSE);
	g_string_free(word, TRUE);
	return g_strndup(line + pos, end - pos);
}

/* The rest of the line from pos as typed, blanks around it trimmed. */
static char *raw_rest_of_line(const char *line, size_t pos)
{
	size_t end = strlen(line);

	while (is_blank(line[pos]))
		pos++;
	while (end > pos && is_blank(line[end - 1]))
		end--;
	return g_strndup(line + pos, end - pos);
}

static int parse_count(const struct tn_command *command, const char *text,
		struct tn_command_args *args, struct tn_error *err)
{
	char *end;
	long long value;

	errno = 0;
	value = strtoll(text, &end, 10);
	if (errno || end == text || *end || value < 0) {
		tn_error_set(err, "%s: expected a number of events, not \"%s\"",
			command->name, text);
		return -1;
	}
	args->has_count = true;
	args->count = value;
	return 0;
}

static bool is_choice(const struct tn_arg_spec *spec, const char *text)
{
	for (const char *const *c = spec->choices; c && *c; c++)
		if (strcmp(*c, text) == 0)
			return true;
	return false;
}

static int check_choice(const struct tn_command *command,
		const struct tn_arg_spec *spec, const char *text,
		struct tn_error *err)
{
	GString *choices;

	if (is_choice(spec, text))
		return 0;
	choices = g_string_new(NULL);
	for (const char *const *c = spec->choices; c && *c; c++)
		g_string_append_printf(choices, "%s%s", choices->len ? ", " :
			"", *c);
	tn_error_set(err, "%s: \"%s\" is not one of %s", command->name, text,
		choices->len ? choices->str : spec->name);
	g_string_free(choices, TRUE);
	return -1;
}

static int usage_error(const struct tn_command *command, struct tn_error *err)
{
	char *usage = tn_command_usage(command, TN_HELP_TEXT);

	tn_error_set(err, "usage: %s", usage);
	g_free(usage);
	return -1;
}

/* Fill out->args from the words after the command name. */
static int parse_args(const char *line, size_t pos,
		struct tn_parsed_command *out, struct tn_error *err)
{
	const struct tn_command *command = out->command;
	GString *word = g_string_new(NULL);
	int status = 0;

	for (int a = 0; a < TN_COMMAND_MAX_ARGS && status == 0; a++) {
		const struct tn_arg_spec *spec = &command->args[a];
		char *text;
		int got;

		if (spec->kind == TN_ARG_NONE)
			break;
		if (spec->kind == TN_ARG_TIME || spec->kind == TN_ARG_TEXT ||
		    spec->kind == TN_ARG_PATTERN) {
			text = spec->kind == TN_ARG_PATTERN ?
				raw_rest_of_line(line, pos) :
				rest_of_line(line, pos, err);
			if (!text) {
				status = -1;
				break;
			}
			pos = strlen(line);
			if (!*text) {
				g_free(text);
				if (!spec->optional)
					status = usage_error(command, err);
				break;
			}
		} else {
			size_t before = pos;

			got = next_word(line, &pos, word, NULL, false, err);
			if (got < 0) {
				status = -1;
				break;
			}
			/* An optional word that is none of its choices is
			 * the next argument's. */
			if (got == 1 && spec->kind == TN_ARG_WORD &&
			    spec->optional && a + 1 < TN_COMMAND_MAX_ARGS &&
			    command->args[a + 1].kind != TN_ARG_NONE &&
			    !is_choice(spec, word->str)) {
				pos = before;
				continue;
			}
			if (got == 0) {
				/* The line ended: no argument may be missing
				 * that is not optional. */
				for (int b = a; b < TN_COMMAND_MAX_ARGS &&
				     command->args[b].kind != TN_ARG_NONE; b++)
					if (!command->args[b].optional)
						status = usage_error(command,
							err);
				break;
			}
			text = g_strdup(word->str);
		}
		if (spec->kind == TN_ARG_COUNT)
			status = parse_count(command, text, &out->args, err);
		else if (spec->kind == TN_ARG_WORD)
			status = check_choice(command, spec, text, err);
		out->args.argv[out->args.argc++] = text;
	}
	if (status == 0) {
		int more = next_word(line, &pos, word, NULL, true, err);

		if (more)
			status = usage_error(command, err);
	}
	g_string_free(word, TRUE);
	return status;
}

int tn_command_parse(const char *line, struct tn_parsed_command *out,
		struct tn_error *err)
{
	GString *name = g_string_new(NULL);
	size_t pos = 0;
	int got;

	memset(out, 0, sizeof(*out));
	tn_error_clear(err);
	/* A ':' typed out of habit (":goto") is not part of the name. */
	while (is_blank(line[pos]) || line[pos] == ':')
		pos++;
	got = next_word(line, &pos, name, NULL, false, err);
	if (got <= 0) {
		g_string_free(name, TRUE);
		return got;
	}
	out->command = tn_command_find(name->str);
	/* "write!": the name, then a '!' the command may take. */
	if (!out->command && name->len > 1 && name->str[name->len - 1] == '!') {
		g_string_truncate(name, name->len - 1);
		out->command = tn_command_find(name->str);
		if (out->command && !(out->command->flags & TN_CMD_BANG)) {
			tn_error_set(err, "%s takes no '!'",
				out->command->name);
			g_string_free(name, TRUE);
			out->command = NULL;
			return -1;
		}
		out->args.bang = out->command != NULL;
		if (!out->command)
			g_string_append_c(name, '!');
	}
	if (!out->command) {
		tn_error_set(err, "unknown command \"%s\" (help lists them)",
			name->str);
		g_string_free(name, TRUE);
		return -1;
	}
	g_string_free(name, TRUE);
	if (parse_args(line, pos, out, err)) {
		tn_parsed_command_clear(out);
		return -1;
	}
	return 1;
}

void tn_parsed_command_clear(struct tn_parsed_command *parsed)
{
	for (int i = 0; i < parsed->args.argc; i++)
		g_free(parsed->args.argv[i]);
	memset(parsed, 0, sizeof(*parsed));
}

bool tn_command_script_next(const char *script, size_t *pos,
		GString *line)
{
	char quote = 0;

	g_string_truncate(line, 0);
	if (*pos == TN_SCRIPT_END)
		return false;
	for (const char *p = script + *pos; ; p++) {
		if (!*p) {
			*pos = TN_SCRIPT_END;
			return true;
		}
		if (!quote && (*p == ';' || *p == '\n')) {
			*pos = (size_t) (p + 1 - script);
			return true;
		}
		if (*p == '\\' && quote != '\'' && p[1]) {
			g_string_append_c(line, *p++);
		} else if (quote && *p == quote) {
			quote = 0;
		} else if (!quote && (*p == '"' || *p == '\'')) {
			quote = *p;
		}
		g_string_append_c(line, *p);
	}
}

char **tn_command_split_script(const char *script)
{
	GPtrArray *lines = g_ptr_array_new();
	GString *line = g_string_new(NULL);
	size_t pos = 0;

	while (tn_command_script_next(script, &pos, line))
		g_ptr_array_add(lines, g_strdup(line->str));
	g_string_free(line, TRUE);
	g_ptr_array_add(lines, NULL);
	return (char **) g_ptr_array_free(lines, FALSE);
}

int tn_command_split_words(const char *line, char ***words,
		size_t *last_start)
{
	GPtrArray *found = g_ptr_array_new();
	GString *word = g_string_new(NULL);
	size_t pos = 0, len = strlen(line), start = 0;
	int complete = 0;

	while (line[pos] == ':')
		pos++;
	*last_start = len;
	while (next_word(line, &pos, word, &start, true, NULL) == 1) {
		g_ptr_array_add(found, g_strdup(word->str));
		/* A word followed by a blank is complete. */
		if (pos < len)
			complete = (int) found->len;
		else
			*last_start = start;
	}
	g_string_free(word, TRUE);
	g_ptr_array_add(found, NULL);
	*words = (char **) g_ptr_array_free(found, FALSE);
	return complete;
}
