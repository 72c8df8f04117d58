/* state-tree.c - the state tree pane's model (see state-tree.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "state-tree.h"

struct tn_state_tree {
	const struct tn_state_result *result;
	GHashTable *by_path;		/* path -> index + 1 */
	long *parents;			/* index of each entry's parent */
	char **labels;
	char **values;
	const char **summaries;		/* borrowed from values */
	long *running_on;		/* a thread's CPU, or -1 */
};

/* ---- values and labels ---- */

static char *value_text(const struct tn_state_value *value)
{
	GString *text;

	switch (value->type) {
	case TN_STATE_NULL:
		return g_strdup("");
	case TN_STATE_STRING:
		return g_strdup(value->u.s ? value->u.s : "");
	default:
		text = g_string_new(NULL);
		tn_state_value_append(text, value);
		return g_string_free(text, FALSE);
	}
}

/* The index of the child `name` of entry i, or -1. */
static long child_named(const struct tn_state_tree *tree, size_t i,
		const char *name)
{
	const struct tn_state_entry *entry = &tree->result->entries[i];
	char *path = g_strconcat(entry->path, "/", name, NULL);
	long at = tn_state_tree_find_path(tree, path);

	g_free(path);
	return at;
}

/* The string value of the child `name` of entry i, or NULL. */
static const char *child_string(const struct tn_state_tree *tree, size_t i,
		const char *name)
{
	long at = child_named(tree, i, name);

	return at >= 0 && tree->values[at][0] ? tree->values[at] : NULL;
}

/* The index of Threads/TID, or -1; the idle thread (0) has one
 * instance per CPU, Threads/0_CPU, as the kernel provider names it
 * (cpu: NULL for any). */
static long thread_index(const struct tn_state_tree *tree, const char *tid,
		const char *cpu)
{
	char *path = g_strconcat("Threads/", tid, NULL);
	long at = -1;

	if (cpu && !strcmp(tid, "0")) {
		char *idle = g_strconcat(path, "_", cpu, NULL);

		at = tn_state_tree_find_path(tree, idle);
		g_free(idle);
	}
	if (at < 0)
		at = tn_state_tree_find_path(tree, path);
	g_free(path);
	return at;
}

/* The name of thread tid from Threads/TID/Exec_name, or NULL. */
static const char *thread_name(const struct tn_state_tree *tree,
		const char *tid, const char *cpu)
{
	long at = thread_index(tree, tid, cpu);

	return at >= 0 ? child_string(tree, (size_t) at, "Exec_name") : NULL;
}

static bool is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The parent's name of entry i, or "" at the top. */
static const char *parent_name(const struct tn_state_tree *tree, size_t i)
{
	long p = tree->parents[i];

	return p >= 0 ? tree->result->entries[p].name : "";
}

/* "TID NAME" for a thread or a process (a child of Threads or
 * Processes) whose name is known: its own Exec_name or Name child, or
 * for a userspace thread the kernel's Threads/TID/Exec_name. */
static char *process_label(const struct tn_state_tree *tree, size_t i)
{
	const struct tn_state_entry *entry = &tree->result->entries[i];
	const char *name;

	name = child_string(tree, i, "Exec_name");
	if (!name)
		name = child_string(tree, i, "Name");
	if (!name && entry->depth > 1)
		name = thread_name(tree, entry->name, NULL);
	return name ? g_strdup_printf("%s %s", entry->name, name) : NULL;
}

/* "CPU N", and "  TID NAME" of the thread it runs when known. */
static char *cpu_label(struct tn_state_tree *tree, size_t i)
{
	const struct tn_state_entry *entry = &tree->result->entries[i];
	long at = child_named(tree, i, "Current_thread");
	GString *label = g_string_new(NULL);

	g_string_append_printf(label, "CPU %s", entry->name);
	if (at >= 0 && tree->values[at][0]) {
		const char *tid = tree->values[at];
		long thread = thread_index(tree, tid, entry->name);
		const char *name = thread >= 0 ? child_string(tree,
			(size_t) thread, "Exec_name") : NULL;

		g_string_append_printf(label, "  %s", tid);
		if (name)
			g_string_append_printf(label, " %s", name);
		if (thread >= 0 && tree->running_on[thread] < 0 &&
		    is_number(entry->name))
			tree->running_on[thread] = strtol(entry->name, NULL, 10);
	}
	return g_string_free(label, FALSE);
}

static void make_labels(struct tn_state_tree *tree)
{
	size_t count = tree->result->count;

	for (size_t i = 0; i < count; i++) {
		const struct tn_state_entry *entry = &tree->result->entries[i];
		const char *parent = parent_name(tree, i);
		char *label = NULL;

		if (entry->depth == 1 && !strcmp(parent, "CPUs"))
			label = cpu_label(tree, i);
		else if (!strcmp(parent, "Threads") ||
			 !strcmp(parent, "Processes"))
			label = process_label(tree, i);
		tree->labels[i] = label ? label : g_strdup(entry->name);
	}
}

struct tn_state_tree *tn_state_tree_create(
		const struct tn_state_result *result)
{
	struct tn_state_tree *tree = g_new0(struct tn_state_tree, 1);
	GHashTable *by_quark = g_hash_table_new(g_direct_hash,
		g_direct_equal);
	size_t count = result->count;

	tree->result = result;
	tree->by_path = g_hash_table_new(g_str_hash, g_str_equal);
	tree->parents = g_new(long, MAX(count, 1));
	tree->labels = g_new0(char *, MAX(count, 1));
	tree->values = g_new0(char *, MAX(count, 1));
	tree->summaries = g_new0(const char *, MAX(count, 1));
	tree->running_on = g_new(long, MAX(count, 1));
	for (size_t i = 0; i < count; i++) {
		const struct tn_state_entry *entry = &result->entries[i];
		gpointer parent = NULL;

		g_hash_table_insert(tree->by_path,
			(gpointer) (uintptr_t) entry->path,
			GSIZE_TO_POINTER(i + 1));
		g_hash_table_insert(by_quark, GINT_TO_POINTER(entry->quark),
			GSIZE_TO_POINTER(i + 1));
		if (entry->parent != TN_STATE_ROOT)
			parent = g_hash_table_lookup(by_quark,
				GINT_TO_POINTER(entry->parent));
		tree->parents[i] = (long) GPOINTER_TO_SIZE(parent) - 1;
		tree->values[i] = value_text(&entry->value);
		tree->running_on[i] = -1;
	}
	for (size_t i = 0; i < count; i++) {
		long status = child_named(tree, i, "Status");

		tree->summaries[i] = tree->values[i][0] || status < 0 ?
			tree->values[i] : tree->values[status];
	}
	make_labels(tree);
	g_hash_table_destroy(by_quark);
	return tree;
}

void tn_state_tree_destroy(struct tn_state_tree *tree)
{
	if (!tree)
		return;
	for (size_t i = 0; i < tree->result->count; i++) {
		g_free(tree->labels[i]);
		g_free(tree->values[i]);
	}
	g_hash_table_destroy(tree->by_path);
	g_free(tree->parents);
	g_free(tree->labels);
	g_free(tree->values);
	g_free(tree->summaries);
	g_free(tree->running_on);
	g_free(tree);
}

size_t tn_state_tree_get_count(const struct tn_state_tree *tree)
{
	return tree ? tree->result->count : 0;
}

const struct tn_state_entry *tn_state_tree_borrow_entry(
		const struct tn_state_tree *tree, size_t i)
{
	return &tree->result->entries[i];
}

const char *tn_state_tree_get_label(const struct tn_state_tree *tree,
		size_t i)
{
	return tree->labels[i];
}

const char *tn_state_tree_get_value(const struct tn_state_tree *tree,
		size_t i)
{
	return tree->values[i];
}

const char *tn_state_tree_get_summary(const struct tn_state_tree *tree,
		size_t i)
{
	return tree->summaries[i];
}

bool tn_state_tree_has_children(const struct tn_state_tree *tree, size_t i)
{
	return i + 1 < tree->result->count && tree->parents[i + 1] == (long) i;
}

long tn_state_tree_get_parent(const struct tn_state_tree *tree, size_t i)
{
	return tree->parents[i];
}

long tn_state_tree_find_path(const struct tn_state_tree *tree,
		const char *path)
{
	return (long) GPOINTER_TO_SIZE(g_hash_table_lookup(tree->by_path,
		path)) - 1;
}

long tn_state_tree_get_running_on(const struct tn_state_tree *tree, size_t i)
{
	return tree->running_on[i];
}

/* ---- folds ---- */

struct tn_state_folds {
	GHashTable *chosen;	/* path -> GINT_TO_POINTER(open + 1) */
	bool all_open;
};

struct tn_state_folds *tn_state_folds_create(void)
{
	struct tn_state_folds *folds = g_new0(struct tn_state_folds, 1);

	folds->chosen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		NULL);
	return folds;
}

void tn_state_folds_destroy(struct tn_state_folds *folds)
{
	if (!folds)
		return;
	g_hash_table_destroy(folds->chosen);
	g_free(folds);
}

bool tn_state_folds_is_open(const struct tn_state_folds *folds,
		const struct tn_state_entry *entry)
{
	int chosen = GPOINTER_TO_INT(g_hash_table_lookup(folds->chosen,
		entry->path));

	if (chosen)
		return chosen == 2;
	return folds->all_open || entry->depth == 0;
}

void tn_state_folds_set(struct tn_state_folds *folds,
		const struct tn_state_entry *entry, bool open)
{
	g_hash_table_insert(folds->chosen, g_strdup(entry->path),
		GINT_TO_POINTER(open ? 2 : 1));
}

void tn_state_folds_set_all_open(struct tn_state_folds *folds, bool all)
{
	g_hash_table_remove_all(folds->chosen);
	folds->all_open = all;
}

bool tn_state_folds_get_all_open(const struct tn_state_folds *folds)
{
	return folds->all_open;
}

void tn_state_folds_reveal(struct tn_state_folds *folds,
		const struct tn_state_tree *tree, size_t i)
{
	for (long p = tree->parents[i]; p >= 0; p = tree->parents[p])
		if (!tn_state_folds_is_open(folds, &tree->result->entries[p]))
			tn_state_folds_set(folds, &tree->result->entries[p],
				true);
}

/* ---- rows ---- */

void tn_state_tree_flatten(const struct tn_state_tree *tree,
		const struct tn_state_folds *folds, GArray *rows)
{
	/* Entries deeper than this are under a folded node. */
	int hidden_below = G_MAXINT;

	g_array_set_size(rows, 0);
	for (size_t i = 0; tree && i < tree->result->count; i++) {
		const struct tn_state_entry *entry = &tree->result->entries[i];
		struct tn_state_tree_row row = { i, entry->depth, false,
			false };

		if (entry->depth > hidden_below)
			continue;
		hidden_below = G_MAXINT;
		row.has_children = tn_state_tree_has_children(tree, i);
		row.open = row.has_children &&
			tn_state_folds_is_open(folds, entry);
		if (row.has_children && !row.open)
			hidden_below = entry->depth;
		g_array_append_val(rows, row);
	}
}

long tn_state_tree_row_of(const GArray *rows, size_t i)
{
	/* Rows are in the entries' order: a binary search. */
	long lo = 0, hi = (long) rows->len - 1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		size_t at = g_array_index(rows, struct tn_state_tree_row,
			mid).entry;

		if (at == i)
			return mid;
		if (at < i)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* ---- search ---- */

static bool entry_matches(const struct tn_state_tree *tree, size_t i,
		struct tn_regex_matcher *matcher)
{
	return tn_regex_matches(matcher, tree->labels[i]) ||
		(tree->values[i][0] &&
		 tn_regex_matches(matcher, tree->values[i]));
}

long tn_state_tree_search(const struct tn_state_tree *tree,
		struct tn_regex_matcher *matcher, long from, bool forward,
		bool *wrapped)
{
	long count = (long) tn_state_tree_get_count(tree);
	long step = forward ? 1 : -1;
	long at;

	if (wrapped)
		*wrapped = false;
	if (count == 0)
		return -1;
	if (from < 0 || from >= count)
		from = forward ? -1 : count;
	at = from;
	for (long n = 0; n < count; n++) {
		at += step;
		if (at >= count || at < 0) {
			at = forward ? 0 : count - 1;
			if (wrapped && from >= 0 && from < count)
				*wrapped = true;
		}
		if (entry_matches(tree, (size_t) at, matcher))
			return at;
	}
	return -1;
}

/* ---- text ---- */

void tn_state_tree_append_duration(GString *out, int64_t ns)
{
	static const struct {
		int64_t scale;
		const char *unit;
	} units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	double value;

	if (ns < 0) {
		g_string_append_c(out, '-');
		ns = ns == INT64_MIN ? INT64_MAX : -ns;
	}
	for (size_t u = 0; u < G_N_ELEMENTS(units); u++) {
		/* 999.7 us shows as "1.00 ms", not "1000 us". */
		if ((double) ns < (double) units[u].scale * 0.9995)
			continue;
		value = (double) ns / (double) units[u].scale;
		if (value >= 99.95)
			g_string_append_printf(out, "%.0f %s", value,
				units[u].unit);
		else if (value >= 9.995)
			g_string_append_printf(out, "%.1f %s", value,
				units[u].unit);
		else
			g_string_append_printf(out, "%.2f %s", value,
				units[u].unit);
		return;
	}
	g_string_append_printf(out, "%" PRId64 " ns", ns);
}
