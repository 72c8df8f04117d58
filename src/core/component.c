/* component.c - a reader of any libbabeltrace2 source component class
 * (see component.h), and babeltrace2's --params text. */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracenav/component.h"
#include "tracenav/runtime.h"
#include "bt-util.h"
#include "reader-private.h"

/* A source that answers "try again" (one that waits for its input) is
 * asked again after this long. */
#define RETRY_US 1000

#define PARAMS_FORM "NAME=VALUE, ... (VALUE: null, true, false, yes, no, " \
	"a number, a \"string\", a word, an [array] or a {map} of them)"

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
	return c && !strchr(",[]{}\"= \t", c);
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
			double real;

			if (!*end && errno == 0)
				return bt_value_integer_signed_create_init(i);
			errno = 0;
			real = g_ascii_strtod(word, &end);
			if (!*end && errno == 0)
				return bt_value_real_create_init(real);
		}
		malformed(t, "not a number");
		return NULL;
	}
	return bt_value_string_create_init(word);
}

static bt_value *parse_value(struct params_text *t);
static bt_value *parse_map(struct params_text *t);

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
	if (*t->p == '{')
		return parse_map(t);
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

/* NAME=VALUE assignments into map, up to the end of the text (close 0)
 * or to the `}` of a map (close '}', then passed).  Returns 0, or -1
 * with t's err. */
static int parse_assignments(struct params_text *t, bt_value *map,
		char close)
{
	skip_blanks(t);
	while (*t->p != close) {
		const char *name = t->p;
		char *key;
		bt_value *value;
		int status;

		while (is_name_char(*t->p))
			t->p++;
		if (t->p == name)
			return malformed(t, close ? "expected a name or `}`" :
				"expected a parameter's name");
		key = g_strndup(name, (gsize) (t->p - name));
		skip_blanks(t);
		if (*t->p != '=') {
			g_free(key);
			return malformed(t, "expected `=`");
		}
		t->p++;
		value = parse_value(t);
		status = value ? bt_value_map_insert_entry(map, key, value) : -1;
		bt_value_put_ref(value);
		g_free(key);
		if (status)
			return value ? malformed(t, "out of memory") : -1;
		skip_blanks(t);
		if (*t->p == ',') {
			t->p++;
			skip_blanks(t);
		} else if (*t->p != close) {
			return malformed(t, close ? "expected `,` or `}`" :
				"expected `,`");
		}
	}
	if (close)
		t->p++;
	return 0;
}

static bt_value *parse_map(struct params_text *t)
{
	bt_value *map = bt_value_map_create();

	t->p++;
	if (map && parse_assignments(t, map, '}') == 0)
		return map;
	bt_value_put_ref(map);
	return NULL;
}

/* Insert text's assignments into map.  Returns 0, or -1 with err. */
static int parse_params(const char *text, bt_value *map,
		struct tn_error *err)
{
	struct params_text t = { text, text, err };

	return parse_assignments(&t, map, '\0');
}

/* ---- the reader ---- */

/* The class named by spec ("src.PLUGIN.CLASS") in *plugin and *name
 * (g_free them), and its parameters: params' assignments, and path as
 * "path".  Returns 0, or -1 with err. */
static int component_setup(const char *spec, const char *params,
		const char *path, char **plugin, char **name, bt_value **map,
		struct tn_error *err)
{
	char **parts = g_strsplit(spec, ".", 3);
	int status = -1;

	*map = bt_value_map_create();
	if (g_strv_length(parts) != 3 || strcmp(parts[0], "src") ||
	    !parts[1][0] || !parts[2][0]) {
		tn_error_set(err, "--component=%s: write src.PLUGIN.CLASS (a "
			"source component class, as `babeltrace2 "
			"list-plugins` lists them: src.text.dmesg, ...)", spec);
	} else if (!*map) {
		tn_error_set(err, "out of memory");
	} else if (params && parse_params(params, *map, err)) {
		/* err says where */
	} else if (path && bt_value_map_insert_string_entry(*map, "path",
			path)) {
		tn_error_set(err, "out of memory");
	} else {
		*plugin = g_strdup(parts[1]);
		*name = g_strdup(parts[2]);
		status = 0;
	}
	g_strfreev(parts);
	if (status) {
		bt_value_put_ref(*map);
		*map = NULL;
	}
	return status;
}

/* err: what libbabeltrace2 said of the component, after spec; how to
 * find a class that is missing. */
static void component_failed(const char *spec, struct tn_error *err)
{
	char cause[TN_ERROR_MAX];
	bool missing = g_str_has_prefix(err->message,
			"the libbabeltrace2 plugin") ||
		g_str_has_prefix(err->message,
			"libbabeltrace2 has no component class");

	snprintf(cause, sizeof(cause), "%s", err->message);
	tn_error_set(err, "--component=%s: %s%s", spec, cause, missing ?
		" (`babeltrace2 list-plugins` lists the classes installed; "
		"--plugin-path=DIR adds a directory of plugins)" : "");
}

int tn_component_reader_create(const char *spec, const char *params,
		const char *path, struct tn_reader **out, struct tn_error *err)
{
	char *plugin = NULL, *name = NULL;
	bt_value *map;
	int status;

	if (component_setup(spec, params, path, &plugin, &name, &map, err))
		return -1;
	status = tn_reader_create_on_source(plugin, name, map, false,
		RETRY_US, out, err);
	if (status)
		component_failed(spec, err);
	bt_value_put_ref(map);
	g_free(plugin);
	g_free(name);
	return status;
}

/* ---- a CTF trace of it ---- */

/* The graph: the source, through the muxer when it has several ports,
 * into sink.ctf.fs writing under dir. */
static int build_conversion(bt_graph *graph, const char *plugin,
		const char *name, const bt_value *params, const char *dir,
		struct tn_error *err)
{
	const bt_component_class_source *source_class;
	const bt_component_class_sink *sink_class;
	const bt_component_class_filter *muxer_class = NULL;
	const bt_component_source *source;
	const bt_component_filter *muxer = NULL;
	const bt_component_sink *sink;
	bt_value *sink_params = bt_value_map_create();
	uint64_t ports;
	int status = -1;

	if (!sink_params ||
	    bt_value_map_insert_string_entry(sink_params, "path", dir) ||
	    bt_value_map_insert_bool_entry(sink_params, "quiet", BT_TRUE)) {
		tn_error_set(err, "out of memory");
		goto end;
	}
	if (tn_bt_source_class(plugin, name, &source_class, err) ||
	    tn_bt_sink_class("ctf", "fs", &sink_class, err))
		goto end;
	if (bt_graph_add_source_component(graph, source_class, "source",
			params, tn_bt_component_log_level(), &source) ||
	    bt_graph_add_sink_component(graph, sink_class, "ctf", sink_params,
			tn_bt_component_log_level(), &sink)) {
		tn_bt_set_error(err, NULL, "cannot set up the conversion");
		goto end;
	}
	ports = bt_component_source_get_output_port_count(source);
	if (ports > 1) {
		if (tn_bt_filter_class("utils", "muxer", &muxer_class, err))
			goto end;
		if (bt_graph_add_filter_component(graph, muxer_class, "muxer",
				NULL, tn_bt_component_log_level(), &muxer)) {
			tn_bt_set_error(err, NULL,
				"cannot set up the conversion");
			goto end;
		}
	}
	for (uint64_t i = 0; i < ports; i++) {
		const bt_port_output *out =
			bt_component_source_borrow_output_port_by_index_const(
				source, i);
		const bt_port_input *in = muxer ?
			bt_component_filter_borrow_input_port_by_index_const(
				muxer, i) :
			bt_component_sink_borrow_input_port_by_index_const(
				sink, 0);

		if (bt_graph_connect_ports(graph, out, in, NULL)) {
			tn_bt_set_error(err, NULL, "cannot connect streams");
			goto end;
		}
	}
	if (muxer && bt_graph_connect_ports(graph,
			bt_component_filter_borrow_output_port_by_index_const(
				muxer, 0),
			bt_component_sink_borrow_input_port_by_index_const(
				sink, 0), NULL)) {
		tn_bt_set_error(err, NULL, "cannot connect streams");
		goto end;
	}
	status = 0;
end:
	bt_value_put_ref(sink_params);
	return status;
}

/* Run graph to its end. */
static int run_conversion(bt_graph *graph, struct tn_error *err)
{
	for (;;) {
		bt_graph_run_status status = bt_graph_run(graph);

		if (status == BT_GRAPH_RUN_STATUS_OK)
			return 0;
		if (status != BT_GRAPH_RUN_STATUS_AGAIN) {
			tn_bt_set_error(err, NULL, "cannot read it");
			return -1;
		}
		g_usleep(RETRY_US);
	}
}

/* Register what sink.ctf.fs wrote under root (its trace's directory
 * and files) for removal; *trace_dir (g_free it) is that directory, or
 * NULL when it wrote none.  Returns the tree, or NULL with err. */
static struct tn_runtime_tree *register_conversion(const char *root,
		char **trace_dir, struct tn_error *err)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	GDir *listing = g_dir_open(root, 0, NULL);
	const char *entry = listing ? g_dir_read_name(listing) : NULL;
	struct tn_runtime_tree *tree = NULL;

	*trace_dir = NULL;
	if (entry) {
		char *sub = g_build_filename(root, entry, NULL);
		GDir *inner = g_dir_open(sub, 0, NULL);
		const char *name;

		while (inner && (name = g_dir_read_name(inner)))
			g_ptr_array_add(files, g_build_filename(sub, name,
				NULL));
		if (inner)
			g_dir_close(inner);
		g_ptr_array_add(dirs, sub);
	}
	g_ptr_array_add(dirs, g_strdup(root));
	if (listing)
		g_dir_close(listing);
	if (tn_runtime_register((const char *const *) files->pdata, files->len,
			(const char *const *) dirs->pdata, dirs->len, &tree,
			err) == 0 && entry)
		*trace_dir = g_strdup(dirs->pdata[0]);
	g_ptr_array_free(files, TRUE);
	g_ptr_array_free(dirs, TRUE);
	return tree;
}

int tn_component_convert(const char *spec, const char *params,
		const char *path, char **trace_dir, struct tn_error *err)
{
	char *plugin = NULL, *name = NULL, *root = NULL;
	struct tn_runtime_tree *tree;
	struct tn_error register_err;
	bt_graph *graph = NULL;
	bt_value *map;
	int status = -1;

	if (component_setup(spec, params, path, &plugin, &name, &map, err))
		return -1;
	if (!tn_runtime_create_begin()) {
		tn_error_set(err, "tracenav is ending");
		goto end;
	}
	if (tn_runtime_make_dir("component", &root, err) == 0) {
		graph = bt_graph_create(0);
		if (!graph)
			tn_error_set(err, "out of memory");
		tn_bt_classes_lock();
		status = graph ? build_conversion(graph, plugin, name, map,
			root, err) : -1;
		tn_bt_classes_unlock();
		if (status == 0)
			status = run_conversion(graph, err);
		tn_bt_classes_lock();
		bt_graph_put_ref(graph);
		tn_bt_classes_unlock();
		tree = register_conversion(root, trace_dir, &register_err);
		if (status == 0 && !tree)
			*err = register_err;
		else if (status == 0 && !*trace_dir)
			tn_error_set(err, "it gave no event");
		if (status || !tree || !*trace_dir) {
			/* Nothing of it is left. */
			tn_runtime_remove(tree);
			rmdir(root);
			g_free(*trace_dir);
			*trace_dir = NULL;
			status = -1;
		}
	}
	tn_runtime_create_end();
	if (status)
		component_failed(spec, err);
end:
	bt_value_put_ref(map);
	g_free(plugin);
	g_free(name);
	g_free(root);
	return status;
}
