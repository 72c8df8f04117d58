/* seq-rules.c - the parser of the sequence diagram's rule files (see
 * seq-rules.h), and the values of the rules as an event gives them. */
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/seq-rules-private.h"
#include "tracenav/format.h"
#include "tracenav/seq-loader.h"

/* A "got ..." shows this many characters of what it got, at most. */
#define GOT_MAX 24

static const char *const kind_names[] = {
	[TN_SEQ_RULE_SEND] = "send",
	[TN_SEQ_RULE_RECEIVE] = "receive",
	[TN_SEQ_RULE_MESSAGE] = "message",
	[TN_SEQ_RULE_LIFELINE] = "lifeline",
};

static const char *const key_names[] = {
	[TN_SEQ_KEY_FROM] = "from",
	[TN_SEQ_KEY_TO] = "to",
	[TN_SEQ_KEY_SIGNAL] = "signal",
	[TN_SEQ_KEY_ID] = "id",
	[TN_SEQ_KEY_NAME] = "name",
};

/* The keys of each kind of rule, in the order the messages list them
 * (category, and kind for a message, are parsed apart), and how many of
 * the first ones are needed. */
static const struct {
	enum tn_seq_rule_key keys[4];
	int count, needed;
	const char *list;	/* for "expected ..." */
	const char *needs;	/* for a missing key */
} kind_keys[] = {
	[TN_SEQ_RULE_SEND] = { { TN_SEQ_KEY_FROM, TN_SEQ_KEY_TO,
		TN_SEQ_KEY_SIGNAL, TN_SEQ_KEY_ID }, 4, 3,
		"from, to, signal, id or category",
		"from=, to= and signal=" },
	[TN_SEQ_RULE_RECEIVE] = { { TN_SEQ_KEY_FROM, TN_SEQ_KEY_TO,
		TN_SEQ_KEY_SIGNAL, TN_SEQ_KEY_ID }, 4, 3,
		"from, to, signal, id or category",
		"from=, to= and signal=" },
	[TN_SEQ_RULE_MESSAGE] = { { TN_SEQ_KEY_FROM, TN_SEQ_KEY_TO,
		TN_SEQ_KEY_SIGNAL }, 3, 3,
		"from, to, signal, kind or category",
		"from=, to= and signal=" },
	[TN_SEQ_RULE_LIFELINE] = { { TN_SEQ_KEY_NAME }, 1, 1,
		"name or category", "name=" },
};

static const struct {
	const char *name;
	enum tn_seq_category category;
} categories[] = {
	{ "thread", TN_SEQ_THREAD },
	{ "process", TN_SEQ_PROCESS },
	{ "node", TN_SEQ_NODE },
	{ "host", TN_SEQ_HOST },
};

static const struct {
	const char *name;
	enum tn_seq_message_kind kind;
} message_kinds[] = {
	{ "async", TN_SEQ_ASYNC },
	{ "sync", TN_SEQ_SYNC },
	{ "return", TN_SEQ_RETURN },
};

/* ---- rules ---- */

static void value_fini(struct tn_seq_value *value)
{
	if (!value->parts)
		return;
	for (guint i = 0; i < value->parts->len; i++)
		g_free(g_array_index(value->parts, struct tn_seq_part,
			i).text);
	g_array_free(value->parts, TRUE);
}

static void rule_free(gpointer data)
{
	struct tn_seq_rule *rule = data;

	g_free(rule->glob);
	if (rule->pattern)
		g_pattern_spec_free(rule->pattern);
	for (int i = 0; i < TN_SEQ_KEY_COUNT; i++)
		value_fini(&rule->values[i]);
	tn_expr_destroy(rule->where);
	g_free(rule);
}

void tn_seq_rules_destroy(struct tn_seq_rules *rules)
{
	if (!rules)
		return;
	g_ptr_array_free(rules->rules, TRUE);
	if (rules->loaders)
		g_ptr_array_free(rules->loaders, TRUE);
	g_free(rules->name);
	g_free(rules);
}

size_t tn_seq_rules_get_count(const struct tn_seq_rules *rules)
{
	return rules->rules->len;
}

char *tn_seq_rules_default_path(void)
{
	return g_build_filename(g_get_user_config_dir(), "tracenav",
		"seq-rules", NULL);
}

/* ---- the parser ---- */

struct parser {
	const char *name;	/* the file's, for the messages */
	int line;		/* from 1 */
	const char *text;	/* the line, NUL-terminated */
	bool utf8;		/* the line is valid UTF-8 */
	const char *p;		/* where the parser is */
	struct tn_error *err;
};

/* The column of at (a pointer into the line): characters from 1. */
static long column(const struct parser *ps, const char *at)
{
	return (ps->utf8 ? g_utf8_pointer_to_offset(ps->text, at) :
		at - ps->text) + 1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void skip_blanks(struct parser *ps)
{
	while (is_blank(*ps->p))
		ps->p++;
}

/* What is at at, for "got ...": "end of line", "a blank", or the word
 * (or the character) there, quoted and cut. */
static char *got(const struct parser *ps, const char *at)
{
	size_t len = 0;

	(void) ps;
	if (!*at)
		return g_strdup("end of line");
	if (is_blank(*at))
		return g_strdup("a blank");
	if (*at == '=' || *at == '"')
		return g_strdup_printf("'%c'", *at);
	while (at[len] && !is_blank(at[len]) && at[len] != '=' &&
	       at[len] != '"')
		len++;
	if (len > GOT_MAX) {
		char *cut = g_utf8_make_valid(at, GOT_MAX);
		char *text = g_strdup_printf("'%s...'", cut);

		g_free(cut);
		return text;
	}
	return g_strdup_printf("'%.*s'", (int) len, at);
}

/* Fail at at: "NAME:LINE:COL: expected WHAT, got GOT". */
G_GNUC_PRINTF(3, 4)
static int expected(struct parser *ps, const char *at, const char *fmt, ...)
{
	char *what, *text = got(ps, at);
	va_list ap;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	tn_error_set(ps->err, "%s:%d:%ld: expected %s, got %s", ps->name,
		ps->line, column(ps, at), what, text);
	g_free(what);
	g_free(text);
	return -1;
}

/* A word: the characters up to a blank, '=', '"' or the end (g_free
 * it); NULL when there is none. */
static char *take_word(struct parser *ps)
{
	const char *start = ps->p;

	while (*ps->p && !is_blank(*ps->p) && *ps->p != '=' &&
	       *ps->p != '"')
		ps->p++;
	return ps->p > start ? g_strndup(start, (gsize) (ps->p - start)) :
		NULL;
}

/* The field named by text (a word or what is between braces, which
 * starts at at) as a part of a value. */
static int field_part(struct parser *ps, const char *text, const char *at,
		struct tn_seq_part *part)
{
	const char *path = text;

	memset(part, 0, sizeof(*part));
	if (strcmp(text, "name") == 0) {
		part->kind = TN_SEQ_PART_NAME;
		return 0;
	}
	if (strcmp(text, "cpu") == 0) {
		part->kind = TN_SEQ_PART_CPU;
		return 0;
	}
	part->kind = TN_SEQ_PART_FIELD;
	part->scope = TN_SCOPE_ANY;
	if (text[0] == '$') {
		size_t len = strcspn(text, ".");

		if (!tn_field_scope_from_name(text, len, &part->scope))
			return expected(ps, at, "a scope ("
				TN_FIELD_SCOPE_NAMES ")");
		if (!text[len])
			return expected(ps, at + len, "'.' and a field after "
				"the scope");
		path = text + len + 1;
	}
	for (const char *c = path; ; c++) {
		if (*c == '.' || !*c) {
			if (c == path || c[-1] == '.')
				return expected(ps, at + (c - text),
					"a field name %s", c == path ?
					"after the scope" : "after '.'");
			if (!*c)
				break;
		}
	}
	part->text = g_strdup(path);
	return 0;
}

/* A value after '=': a field, or a quoted text with {FIELD} parts. */
static int parse_value(struct parser *ps, struct tn_seq_value *value)
{
	struct tn_seq_part part;
	GString *literal;

	value->given = true;
	value->parts = g_array_new(FALSE, FALSE, sizeof(struct tn_seq_part));
	if (*ps->p != '"') {
		const char *at = ps->p;
		char *word = take_word(ps);
		int status;

		if (!word)
			return expected(ps, at, "a field after '='");
		status = field_part(ps, word, at, &part);
		g_free(word);
		if (status)
			return -1;
		g_array_append_val(value->parts, part);
		return 0;
	}
	literal = g_string_new(NULL);
	ps->p++;
	for (;;) {
		const char *c = ps->p;

		if (!*c || *c == '{' || *c == '"') {
			if (literal->len) {
				part = (struct tn_seq_part) {
					.kind = TN_SEQ_PART_TEXT,
					.text = g_strdup(literal->str),
				};
				g_array_append_val(value->parts, part);
				g_string_truncate(literal, 0);
			}
		}
		if (!*c) {
			g_string_free(literal, TRUE);
			return expected(ps, c, "'\"' to end the text");
		}
		if (*c == '"') {
			ps->p++;
			break;
		}
		if (*c == '\\') {
			if (!c[1] || !strchr("\"\\{}", c[1])) {
				g_string_free(literal, TRUE);
				return expected(ps, c + 1, "\\\", \\\\, \\{ or "
					"\\} (a backslash escapes one of them)");
			}
			g_string_append_c(literal, c[1]);
			ps->p += 2;
			continue;
		}
		if (*c == '{') {
			const char *end = strchr(c + 1, '}');
			const char *quote = strchr(c + 1, '"');
			char *field;
			int status;

			if (!end || (quote && quote < end)) {
				g_string_free(literal, TRUE);
				return expected(ps, quote ? quote : c + strlen(c),
					"'}' after the field");
			}
			if (end == c + 1) {
				g_string_free(literal, TRUE);
				return expected(ps, end, "a field after '{'");
			}
			field = g_strndup(c + 1, (gsize) (end - c - 1));
			status = field_part(ps, field, c + 1, &part);
			g_free(field);
			if (status) {
				g_string_free(literal, TRUE);
				return -1;
			}
			g_array_append_val(value->parts, part);
			ps->p = end + 1;
			continue;
		}
		g_string_append_c(literal, *c);
		ps->p++;
	}
	g_string_free(literal, TRUE);
	if (*ps->p && !is_blank(*ps->p))
		return expected(ps, ps->p, "a blank after the text");
	return 0;
}

/* A word among the count names: its index, or -1 with the error
 * (list: the names, for it). */
static int parse_choice(struct parser *ps, const char *key,
		const char *const *names, size_t count, const char *list)
{
	const char *at = ps->p;
	char *word = take_word(ps);

	for (size_t i = 0; word && i < count; i++) {
		if (strcmp(word, names[i]) == 0) {
			g_free(word);
			return (int) i;
		}
	}
	g_free(word);
	ps->p = at;
	return expected(ps, at, "%s after '%s='", list, key);
}

/* The key word (before '=') and its value, for rule. */
static int parse_key(struct parser *ps, struct tn_seq_rule *rule,
		const char *key, const char *at, bool *seen_category,
		bool *seen_kind)
{
	const char *names[4];
	int choice;

	G_STATIC_ASSERT(G_N_ELEMENTS(categories) <= G_N_ELEMENTS(names) &&
		G_N_ELEMENTS(message_kinds) <= G_N_ELEMENTS(names));

	ps->p++;	/* '=' */
	if (strcmp(key, "category") == 0) {
		if (*seen_category)
			return expected(ps, at, "each key once, not category "
				"again");
		*seen_category = true;
		for (size_t i = 0; i < G_N_ELEMENTS(categories); i++)
			names[i] = categories[i].name;
		choice = parse_choice(ps, key, names, G_N_ELEMENTS(categories),
			"thread, process, node or host");
		if (choice < 0)
			return -1;
		rule->category = categories[choice].category;
		return 0;
	}
	if (strcmp(key, "kind") == 0 && rule->kind == TN_SEQ_RULE_MESSAGE) {
		if (*seen_kind)
			return expected(ps, at, "each key once, not kind "
				"again");
		*seen_kind = true;
		for (size_t i = 0; i < G_N_ELEMENTS(message_kinds); i++)
			names[i] = message_kinds[i].name;
		choice = parse_choice(ps, key, names,
			G_N_ELEMENTS(message_kinds), "async, sync or return");
		if (choice < 0)
			return -1;
		rule->message_kind = message_kinds[choice].kind;
		return 0;
	}
	for (int i = 0; i < kind_keys[rule->kind].count; i++) {
		enum tn_seq_rule_key k = kind_keys[rule->kind].keys[i];

		if (strcmp(key, key_names[k]) != 0)
			continue;
		if (rule->values[k].given)
			return expected(ps, at, "each key once, not %s again",
				key);
		return parse_value(ps, &rule->values[k]);
	}
	return expected(ps, at, "%s before '='", kind_keys[rule->kind].list);
}

/* The condition after `where` (the rest of the line, at ps->p). */
static int parse_where(struct parser *ps, struct tn_seq_rule *rule)
{
	struct tn_error expr_err;
	const char *text = ps->p;
	long col;
	char *rest;

	if (!*text)
		return expected(ps, text, "a condition after 'where'");
	if (tn_expr_parse(text, &rule->where, &expr_err) == 0) {
		ps->p += strlen(ps->p);
		return 0;
	}
	/* "column N: what": N counts the condition's characters. */
	if (sscanf(expr_err.message, "column %ld:", &col) == 1 &&
	    (rest = strstr(expr_err.message, ": "))) {
		tn_error_set(ps->err, "%s:%d:%ld: bad condition: %s", ps->name,
			ps->line, column(ps, text) + col - 1, rest + 2);
		return -1;
	}
	tn_error_set(ps->err, "%s:%d:%ld: bad condition: %s", ps->name,
		ps->line, column(ps, text), expr_err.message);
	return -1;
}

/* Whether name is a built-in loader's (not the rules'). */
static bool is_builtin(const char *name)
{
	const struct tn_seq_loader_class *const *classes =
		tn_seq_loader_classes();

	for (size_t i = 0; classes[i]; i++)
		if (strcmp(classes[i]->name, name) == 0 &&
		    strcmp(name, "rules") != 0)
			return true;
	return false;
}

/* The built-in loaders' names, for "expected ...": "reference,
 * kernel". */
static char *builtin_names(void)
{
	const struct tn_seq_loader_class *const *classes =
		tn_seq_loader_classes();
	GString *list = g_string_new(NULL);

	for (size_t i = 0; classes[i]; i++) {
		if (strcmp(classes[i]->name, "rules") == 0)
			continue;
		g_string_append_printf(list, "%s, ", classes[i]->name);
	}
	return g_string_free(list, FALSE);
}

/* "loaders NAME...", or "loaders none", at ps->p: the built-in
 * loaders that run beside the rules (at: the word loaders). */
static int parse_loaders(struct parser *ps, struct tn_seq_rules *rules,
		const char *at)
{
	char *names = builtin_names();
	int status = -1;

	if (rules->loaders) {
		expected(ps, at, "one loaders line only");
		goto out;
	}
	rules->loaders = g_ptr_array_new_with_free_func(g_free);
	for (;;) {
		char *word;

		skip_blanks(ps);
		at = ps->p;
		if (!*ps->p && rules->loaders->len > 0)
			break;
		word = take_word(ps);
		if (word && rules->loaders->len == 0 &&
		    strcmp(word, "none") == 0) {
			g_free(word);
			skip_blanks(ps);
			if (*ps->p) {
				expected(ps, ps->p, "nothing after none");
				goto out;
			}
			break;
		}
		if (!word || !is_builtin(word)) {
			g_free(word);
			expected(ps, at, "%s%s", names,
				rules->loaders->len ? "or the end of the line" :
				"or none");
			goto out;
		}
		g_ptr_array_add(rules->loaders, word);
	}
	status = 0;
out:
	g_free(names);
	return status;
}

/* One line that is not blank nor a comment: its rule into *out. */
static int parse_rule(struct parser *ps, struct tn_seq_rule **out)
{
	struct tn_seq_rule *rule = g_new0(struct tn_seq_rule, 1);
	bool seen_category = false, seen_kind = false;
	const char *at = ps->p, *bad;
	char *word = take_word(ps);
	int kind = -1;

	rule->line = ps->line;
	rule->category = TN_SEQ_PROCESS;
	rule->message_kind = TN_SEQ_ASYNC;
	for (int i = 0; word && i < (int) G_N_ELEMENTS(kind_names); i++)
		if (strcmp(word, kind_names[i]) == 0)
			kind = i;
	g_free(word);
	if (kind < 0) {
		expected(ps, at, "send, receive, message or lifeline");
		goto fail;
	}
	rule->kind = kind;
	skip_blanks(ps);
	at = ps->p;
	if (*ps->p == '"') {
		const char *end = strchr(ps->p + 1, '"');

		if (!end) {
			expected(ps, ps->p + strlen(ps->p),
				"'\"' to end the event name");
			goto fail;
		}
		rule->glob = g_strndup(ps->p + 1, (gsize) (end - ps->p - 1));
		ps->p = end + 1;
	} else {
		rule->glob = take_word(ps);
	}
	if (!rule->glob || !rule->glob[0]) {
		expected(ps, at, "an event name (a glob) after '%s'",
			kind_names[kind]);
		goto fail;
	}
	/* GLib aborts on a glob that is not UTF-8. */
	if (!g_utf8_validate(rule->glob, -1, &bad)) {
		tn_error_set(ps->err, "%s:%d:%ld: the event name is not UTF-8 "
			"(byte 0x%02x): write the rules file in UTF-8",
			ps->name, ps->line, column(ps, at + (*at == '"') +
			(bad - rule->glob)), (unsigned) (guchar) *bad);
		goto fail;
	}
	rule->pattern = g_pattern_spec_new(rule->glob);
	for (;;) {
		bool blank = is_blank(*ps->p);

		skip_blanks(ps);
		if (!*ps->p)
			break;
		at = ps->p;
		if (!blank) {
			expected(ps, at, "a blank");
			goto fail;
		}
		word = take_word(ps);
		if (word && *ps->p == '=') {
			int status = parse_key(ps, rule, word, at,
				&seen_category, &seen_kind);

			g_free(word);
			if (status)
				goto fail;
			continue;
		}
		if (word && strcmp(word, "where") == 0) {
			g_free(word);
			skip_blanks(ps);
			if (parse_where(ps, rule))
				goto fail;
			break;
		}
		if (word && kind == TN_SEQ_RULE_LIFELINE &&
		    (strcmp(word, "create") == 0 ||
		     strcmp(word, "stop") == 0)) {
			if (rule->create || rule->stop) {
				g_free(word);
				expected(ps, at, "create or stop once");
				goto fail;
			}
			rule->create = word[0] == 'c';
			rule->stop = !rule->create;
			g_free(word);
			continue;
		}
		g_free(word);
		ps->p = at;
		expected(ps, at, "KEY=VALUE (%s)%s or where",
			kind_keys[kind].list, kind == TN_SEQ_RULE_LIFELINE ?
			", create, stop" : "");
		goto fail;
	}
	for (int i = 0; i < kind_keys[kind].needed; i++) {
		enum tn_seq_rule_key k = kind_keys[kind].keys[i];

		if (!rule->values[k].given) {
			expected(ps, ps->p, "%s= (%s needs %s)", key_names[k],
				kind_names[kind], kind_keys[kind].needs);
			goto fail;
		}
	}
	*out = rule;
	return 0;

fail:
	rule_free(rule);
	return -1;
}

int tn_seq_rules_parse(const char *name, const char *text,
		struct tn_seq_rules **out, struct tn_error *err)
{
	struct tn_seq_rules *rules = g_new0(struct tn_seq_rules, 1);
	char **lines = g_strsplit(text, "\n", -1);
	struct parser ps = { .name = name, .err = err };
	bool failed = false;

	rules->name = g_strdup(name);
	rules->rules = g_ptr_array_new_with_free_func(rule_free);
	for (int i = 0; lines[i] && !failed; i++) {
		char *line = lines[i];
		size_t len = strlen(line);
		struct tn_seq_rule *rule;

		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		ps.line = i + 1;
		ps.text = line;
		ps.utf8 = g_utf8_validate(line, -1, NULL);
		ps.p = line;
		skip_blanks(&ps);
		if (!*ps.p || *ps.p == '#')
			continue;
		if (strncmp(ps.p, "loaders", 7) == 0 &&
		    (!ps.p[7] || is_blank(ps.p[7]))) {
			const char *at = ps.p;

			ps.p += 7;
			failed = parse_loaders(&ps, rules, at) != 0;
			continue;
		}
		failed = parse_rule(&ps, &rule) != 0;
		if (!failed)
			g_ptr_array_add(rules->rules, rule);
	}
	g_strfreev(lines);
	if (failed) {
		tn_seq_rules_destroy(rules);
		return -1;
	}
	*out = rules;
	return 0;
}

int tn_seq_rules_load(const char *path, struct tn_seq_rules **out,
		struct tn_error *err)
{
	GError *error = NULL;
	char *text;
	int status;

	if (!g_file_get_contents(path, &text, NULL, &error)) {
		tn_error_set(err, "cannot read the sequence diagram rules: %s",
			error->message);
		g_error_free(error);
		return -1;
	}
	status = tn_seq_rules_parse(path, text, out, err);
	g_free(text);
	return status;
}
