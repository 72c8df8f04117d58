/* component.c - a reader of any libbabeltrace2 source component class
 * (see component.h), and babeltrace2's --params text. */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/component.h"
#include "bt-util.h"
#include "reader-private.h"

/* A source that answers "try again" (one that waits for its input) is
 * asked again after this long. */
#define RETRY_US 1000

#define PARAMS_FORM "NAME=VALUE, ... (VALUE: null, true, false, yes, no, " \
	"an integer, a \"string\", a word or an [array] of them)"

void tn_component_add_plugin_path(const char *dir)
{
	const char *old = getenv("BABELTRACE_PLUGIN_PATH");
	char *path = old && *old ? g_strdup_printf("%s:%s", dir, old) :
		g_strdup(dir);

	setenv("BABELTRACE_PLUGIN_PATH", path, 1);
	g_free(path);
}

/* ---- babeltrace2's --params text ---- */

struct params_text {
	const char *text, *p;
	struct tn_error *err;
};

static void skip_blanks(struct params_text *t)
{
	while (*t->p == ' ' || *t->p == '\t')
		t->p++;
}

static int malformed(struct params_text *t, const char *what)
{
	tn_error_set(t->err, "--params: %s at column %d of `%s` (write %s)",
		what, (int) (t->p - t->text) + 1, t->text, PARAMS_FORM);
	return -1;
}

static bool is_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '-' || c == '.';
}

/* A bare word ends at a separator. */
static bool is_word_char(char c)
{
	return c && c != ',' && c != ']' && c != ' ' && c != '\t' &&
		c != '[' && c != '"' && c != '=';
}

static bt_value *quoted_string(struct params_text *t)
{
	GString *s = g_string_new(NULL);
	bt_value *value;

	for (t->p++; *t->p && *t->p != '"'; t->p++) {
		if (*t->p == '\\' && (t->p[1] == '"' || t->p[1] == '\\'))
			t->p++;
		g_string_append_c(s, *t->p);
	}
	if (*t->p != '"') {
		g_string_free(s, TRUE);
		malformed(t, "a string without its closing quote");
		return NULL;
	}
	t->p++;
	value = bt_value_string_create_init(s->str);
	g_string_free(s, TRUE);
	return value;
}

/* The value of a bare word: a keyword, an integer, else a string. */
static bt_value *word_value(struct params_text *t, const char *word)
{
	static const char *const trues[] = { "true", "TRUE", "yes", "YES" };
	static const char *const falses[] = { "false", "FALSE", "no", "NO" };
	char *end;

	if (!strcmp(word, "null") || !strcmp(word, "NULL") ||
	    !strcmp(word, "nul")) {
		bt_value_get_ref(bt_value_null);
		return bt_value_null;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(trues); i++) {
		if (!strcmp(word, trues[i]))
			return bt_value_bool_create_init(BT_TRUE);
		if (!strcmp(word, falses[i]))
			return bt_value_bool_create_init(BT_FALSE);
	}
	if (g_ascii_isdigit(word[0]) || ((word[0] == '-' || word[0] == '+') &&
			g_ascii_isdigit(word[1]))) {
		errno = 0;
		if (word[0] == '+') {
			unsigned long long u = strtoull(word + 1, &end, 0);

			if (!*end && errno == 0)
				return bt_value_integer_unsigned_create_init(u);
		} else {
			long long i = strtoll(word, &end, 0);

			if (!*end && errno == 0)
				return bt_value_integer_signed_create_init(i);
		}
		malformed(t, "not an integer");
		return NULL;
	}
	return bt_value_string_create_init(word);
}

static bt_value *parse_value(struct params_text *t);

static bt_value *parse_array(struct params_text *t)
{
	bt_value *array = bt_value_array_create();

	t->p++;
	skip_blanks(t);
	while (array && *t->p != ']') {
		bt_value *element = parse_value(t);

		if (!element ||
		    bt_value_array_append_element(array, element)) {
			bt_value_put_ref(element);
			bt_value_put_ref(array);
			return NULL;
		}
		bt_value_put_ref(element);
		skip_blanks(t);
		if (*t->p == ',') {
			t->p++;
			skip_blanks(t);
		} else if (*t->p != ']') {
			malformed(t, "expected `,` or `]`");
			bt_value_put_ref(array);
			return NULL;
		}
	}
	t->p++;
	return array;
}

static bt_value *parse_value(struct params_text *t)
{
	const char *start;
	char *word;
	bt_value *value;

	skip_blanks(t);
	if (*t->p == '"')
		return quoted_string(t);
	if (*t->p == '[')
		return parse_array(t);
	start = t->p;
	while (is_word_char(*t->p))
		t->p++;
	if (t->p == start) {
		malformed(t, "expected a value");
		return NULL;
	}
	word = g_strndup(start, (gsize) (t->p - start));
	value = word_value(t, word);
	g_free(word);
	return value;
}

/* Insert text's assignments into map.  Returns 0, or -1 with err. */
static int parse_params(const char *text, bt_value *map,
		struct tn_error *err)
{
	struct params_text t = { text, text, err };

	skip_blanks(&t);
	while (*t.p) {
		const char *name = t.p;
		char *key;
		bt_value *value;
		int status;

		while (is_name_char(*t.p))
			t.p++;
		if (t.p == name)
			return malformed(&t, "expected a parameter's name");
		key = g_strndup(name, (gsize) (t.p - name));
		skip_blanks(&t);
		if (*t.p != '=') {
			g_free(key);
			return malformed(&t, "expected `=`");
		}
		t.p++;
		value = parse_value(&t);
		status = value ? bt_value_map_insert_entry(map, key, value) : -1;
		bt_value_put_ref(value);
		g_free(key);
		if (status)
			return value ? malformed(&t, "out of memory") : -1;
		skip_blanks(&t);
		if (*t.p == ',') {
			t.p++;
			skip_blanks(&t);
		} else if (*t.p) {
			return malformed(&t, "expected `,`");
		}
	}
	return 0;
}

/* ---- the reader ---- */

int tn_component_reader_create(const char *spec, const char *params,
		const char *path, struct tn_reader **out, struct tn_error *err)
{
	char **parts = g_strsplit(spec, ".", 3);
	bt_value *map = bt_value_map_create();
	int status = -1;

	if (g_strv_length(parts) != 3 || strcmp(parts[0], "src") ||
	    !parts[1][0] || !parts[2][0]) {
		tn_error_set(err, "--component=%s: write src.PLUGIN.CLASS (a "
			"source component class, as `babeltrace2 "
			"list-plugins` lists them: src.text.dmesg, ...)", spec);
	} else if (!map) {
		tn_error_set(err, "out of memory");
	} else if (params && parse_params(params, map, err)) {
		/* err says where */
	} else if (path && bt_value_map_insert_string_entry(map, "path",
			path)) {
		tn_error_set(err, "out of memory");
	} else if (tn_reader_create_on_source(parts[1], parts[2], map,
			false, RETRY_US, out, err) == 0) {
		status = 0;
	} else {
		char cause[TN_ERROR_MAX];
		bool missing = g_str_has_prefix(err->message,
				"the libbabeltrace2 plugin") ||
			g_str_has_prefix(err->message,
				"libbabeltrace2 has no component class");

		snprintf(cause, sizeof(cause), "%s", err->message);
		tn_error_set(err, "--component=%s: %s%s", spec, cause, missing ?
			" (`babeltrace2 list-plugins` lists the classes "
			"installed; --plugin-path=DIR adds a directory of "
			"plugins)" : "");
	}
	bt_value_put_ref(map);
	g_strfreev(parts);
	return status;
}
