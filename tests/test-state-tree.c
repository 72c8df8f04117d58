/* test-state-tree.c - the state tree pane's model (src/tui/state-tree.c)
 * on results built by hand: labels of threads and CPUs, the thread each
 * CPU runs, folds kept by path (default, closed, opened, all open),
 * the rows shown, the search (forward, backward, wrapping, smart case,
 * on folded entries) and the durations' text. */
#include <glib.h>
#include <string.h>

#include "src/tui/state-tree.h"
#include "tap.h"

#define MAX_ENTRIES 32

/* A result under construction: entries added parents first. */
struct builder {
	struct tn_state_result result;
	struct tn_state_entry entries[MAX_ENTRIES];
	char *paths[MAX_ENTRIES];
};

/* Add path (its parent added before) with value; returns its quark. */
static int add(struct builder *b, const char *path,
		struct tn_state_value value)
{
	size_t i = b->result.count++;
	struct tn_state_entry *e = &b->entries[i];
	const char *slash = strrchr(path, '/');

	b->paths[i] = g_strdup(path);
	e->quark = (int) i;
	e->path = b->paths[i];
	e->name = slash ? slash + 1 : e->path;
	e->parent = TN_STATE_ROOT;
	e->depth = 0;
	if (slash) {
		for (size_t k = 0; k < i; k++) {
			if (strlen(b->paths[k]) == (size_t) (slash - path) &&
			    !strncmp(b->paths[k], path, (size_t) (slash - path))) {
				e->parent = (int) k;
				e->depth = b->entries[k].depth + 1;
			}
		}
	}
	e->value = value;
	e->start = (struct tn_state_stamp) { 1000 + (int64_t) i, true,
		{ 1000 + (int64_t) i, 0 } };
	b->result.entries = b->entries;
	return e->quark;
}

static struct tn_state_value null_value(void)
{
	return (struct tn_state_value) { .type = TN_STATE_NULL };
}

static struct tn_state_value int_value(int32_t v)
{
	return (struct tn_state_value) { .type = TN_STATE_INT, .u.i = v };
}

static struct tn_state_value string_value(const char *s)
{
	return (struct tn_state_value) { .type = TN_STATE_STRING, .u.s = s };
}

static void build(struct builder *b)
{
	memset(b, 0, sizeof(*b));
	add(b, "CPUs", null_value());
	add(b, "CPUs/0", null_value());
	add(b, "CPUs/0/Current_thread", int_value(4242));
	add(b, "CPUs/0/Status", string_value("running"));
	add(b, "CPUs/1", null_value());
	add(b, "CPUs/1/Current_thread", null_value());
	add(b, "CPUs/2", null_value());
	add(b, "CPUs/2/Current_thread", int_value(0));
	add(b, "CPUs/10", null_value());
	add(b, "CPUs/10/Current_thread", int_value(1));
	add(b, "IRQs", null_value());
	add(b, "IRQs/5", int_value(1));
	add(b, "Threads", null_value());
	add(b, "Threads/1", null_value());
	add(b, "Threads/1/Exec_name", string_value("systemd"));
	add(b, "Threads/1/Status", string_value("blocked"));
	add(b, "Threads/77", null_value());
	add(b, "Threads/77/Call_stack", int_value(2));
	add(b, "Threads/77/Call_stack/1", string_value("main"));
	add(b, "Threads/77/Call_stack/2", string_value("0x4011d0"));
	add(b, "Threads/4242", null_value());
	add(b, "Threads/4242/Exec_name", string_value("bash"));
	add(b, "Threads/4242/Status", string_value("running"));
	/* The idle thread, one per CPU: after the numbers. */
	add(b, "Threads/0_2", null_value());
	add(b, "Threads/0_2/Exec_name", string_value("swapper/2"));
}

static void unbuild(struct builder *b)
{
	for (size_t i = 0; i < b->result.count; i++)
		g_free(b->paths[i]);
}

static long at(const struct tn_state_tree *tree, const char *path)
{
	return tn_state_tree_find_path(tree, path);
}

/* The paths of the rows shown, joined by spaces. */
static char *shown(const struct tn_state_tree *tree,
		const struct tn_state_folds *folds)
{
	GArray *rows = g_array_new(FALSE, FALSE,
		sizeof(struct tn_state_tree_row));
	GString *text = g_string_new(NULL);

	tn_state_tree_flatten(tree, folds, rows);
	for (guint i = 0; i < rows->len; i++) {
		const struct tn_state_tree_row *row = &g_array_index(rows,
			struct tn_state_tree_row, i);

		g_string_append_printf(text, "%s%s%s", i ? " " : "",
			tn_state_tree_borrow_entry(tree, row->entry)->path,
			row->has_children ? (row->open ? "-" : "+") : "");
	}
	g_array_free(rows, TRUE);
	return g_string_free(text, FALSE);
}

static void check_shown(const struct tn_state_tree *tree,
		const struct tn_state_folds *folds, const char *want,
		const char *what)
{
	char *got = shown(tree, folds);

	tap_str_eq(got, want, "%s", what);
	g_free(got);
}

static void test_labels(const struct tn_state_tree *tree)
{
	tap_int_eq(tn_state_tree_get_count(tree), 25, "25 entries");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "CPUs/0")),
		"CPU 0  4242 bash", "a CPU: its number, its thread's id and "
		"name");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "CPUs/1")),
		"CPU 1", "a CPU that runs no thread: its number");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "CPUs/2")),
		"CPU 2  0 swapper/2", "a CPU that runs its idle thread: "
		"Threads/0_2's name");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "Threads/0_2")),
		"0_2 swapper/2", "the idle thread of CPU 2");
	tap_int_eq(tn_state_tree_get_running_on(tree,
		at(tree, "Threads/0_2")), 2, "it runs on CPU 2");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "CPUs/10")),
		"CPU 10  1 systemd", "CPU 10 runs thread 1");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "Threads/4242")),
		"4242 bash", "a thread: its id and name");
	tap_str_eq(tn_state_tree_get_label(tree, at(tree, "Threads/77")),
		"77", "a thread without a name: its id");
	tap_str_eq(tn_state_tree_get_label(tree,
		at(tree, "Threads/77/Call_stack/1")), "1",
		"a stack level keeps its name");
	tap_str_eq(tn_state_tree_get_label(tree,
		at(tree, "CPUs/0/Current_thread")), "Current_thread",
		"an attribute: its name");
	tap_str_eq(tn_state_tree_get_value(tree,
		at(tree, "CPUs/0/Current_thread")), "4242", "an int value");
	tap_str_eq(tn_state_tree_get_value(tree,
		at(tree, "Threads/4242/Exec_name")), "bash",
		"a string value, without quotes");
	tap_str_eq(tn_state_tree_get_value(tree, at(tree, "Threads/4242")),
		"", "a null value: empty");
	tap_str_eq(tn_state_tree_get_summary(tree, at(tree, "Threads/1")),
		"blocked", "a folded thread shows its status");
	tap_str_eq(tn_state_tree_get_summary(tree, at(tree, "CPUs/0")),
		"running", "a folded CPU shows its status");
	tap_str_eq(tn_state_tree_get_summary(tree,
		at(tree, "Threads/77/Call_stack")), "2",
		"a node with a value shows it");
	tap_int_eq(tn_state_tree_get_running_on(tree,
		at(tree, "Threads/4242")), 0, "thread 4242 runs on CPU 0");
	tap_int_eq(tn_state_tree_get_running_on(tree, at(tree, "Threads/1")),
		10, "thread 1 runs on CPU 10");
	tap_int_eq(tn_state_tree_get_running_on(tree, at(tree, "Threads/77")),
		-1, "thread 77 runs nowhere");
	tap_ok(tn_state_tree_has_children(tree, at(tree, "CPUs/0")) &&
		!tn_state_tree_has_children(tree, at(tree, "CPUs/0/Status")) &&
		!tn_state_tree_has_children(tree, at(tree, "Threads/4242/"
			"Status")), "children: a node has them, leaves (the "
		"last one too) do not");
	tap_int_eq(tn_state_tree_get_parent(tree,
		at(tree, "Threads/77/Call_stack/2")),
		at(tree, "Threads/77/Call_stack"), "a parent's index");
	tap_int_eq(tn_state_tree_get_parent(tree, at(tree, "Threads")), -1,
		"the top level has no parent");
	tap_int_eq(at(tree, "Threads/5"), -1, "an unknown path: -1");
}

static void test_folds(const struct tn_state_tree *tree)
{
	struct tn_state_folds *folds = tn_state_folds_create();
	GArray *rows = g_array_new(FALSE, FALSE,
		sizeof(struct tn_state_tree_row));
	long row;

	check_shown(tree, folds, "CPUs- CPUs/0+ CPUs/1+ CPUs/2+ CPUs/10+ IRQs- "
		"IRQs/5 Threads- Threads/1+ Threads/77+ Threads/4242+ Threads/0_2+",
		"by default the top level is open, the rest folded");
	tn_state_folds_set(folds, tn_state_tree_borrow_entry(tree,
		at(tree, "Threads")), false);
	check_shown(tree, folds, "CPUs- CPUs/0+ CPUs/1+ CPUs/2+ CPUs/10+ IRQs- "
		"IRQs/5 Threads+", "Threads closed: its children go");
	tn_state_folds_set(folds, tn_state_tree_borrow_entry(tree,
		at(tree, "CPUs/0")), true);
	tn_state_folds_set(folds, tn_state_tree_borrow_entry(tree,
		at(tree, "Threads/77")), true);
	check_shown(tree, folds, "CPUs- CPUs/0- CPUs/0/Current_thread "
		"CPUs/0/Status CPUs/1+ CPUs/2+ CPUs/10+ IRQs- IRQs/5 Threads+",
		"CPU 0 opened; thread 77 opened under a closed Threads stays "
		"hidden");
	tn_state_folds_set(folds, tn_state_tree_borrow_entry(tree,
		at(tree, "Threads")), true);
	check_shown(tree, folds, "CPUs- CPUs/0- CPUs/0/Current_thread "
		"CPUs/0/Status CPUs/1+ CPUs/2+ CPUs/10+ IRQs- IRQs/5 Threads- "
		"Threads/1+ Threads/77- Threads/77/Call_stack+ Threads/4242+ Threads/0_2+",
		"Threads opened again: thread 77 is open");
	tn_state_folds_set_all_open(folds, true);
	tap_ok(tn_state_folds_get_all_open(folds), "all open");
	check_shown(tree, folds, "CPUs- CPUs/0- CPUs/0/Current_thread "
		"CPUs/0/Status CPUs/1- CPUs/1/Current_thread CPUs/2- "
		"CPUs/2/Current_thread CPUs/10- "
		"CPUs/10/Current_thread IRQs- IRQs/5 Threads- Threads/1- "
		"Threads/1/Exec_name Threads/1/Status Threads/77- "
		"Threads/77/Call_stack- Threads/77/Call_stack/1 "
		"Threads/77/Call_stack/2 Threads/4242- Threads/4242/Exec_name "
		"Threads/4242/Status Threads/0_2- Threads/0_2/Exec_name",
		"* opens every node");
	tn_state_folds_set(folds, tn_state_tree_borrow_entry(tree,
		at(tree, "Threads/77")), false);
	tn_state_tree_flatten(tree, folds, rows);
	tap_int_eq(rows->len, 22, "one node closed in all open: 22 rows");
	tn_state_folds_set_all_open(folds, false);
	check_shown(tree, folds, "CPUs- CPUs/0+ CPUs/1+ CPUs/2+ CPUs/10+ IRQs- "
		"IRQs/5 Threads- Threads/1+ Threads/77+ Threads/4242+ Threads/0_2+",
		"back to the default: the choices are forgotten");
	tn_state_folds_reveal(folds, tree, at(tree, "Threads/77/Call_stack/2"));
	tn_state_tree_flatten(tree, folds, rows);
	row = tn_state_tree_row_of(rows, at(tree, "Threads/77/Call_stack/2"));
	tap_ok(row >= 0 && g_array_index(rows, struct tn_state_tree_row,
		row).depth == 3, "reveal: a stack level shows, at depth 3");
	tap_int_eq(tn_state_tree_row_of(rows, at(tree, "CPUs/0/Status")), -1,
		"row_of an entry not shown: -1");
	g_array_free(rows, TRUE);
	tn_state_folds_destroy(folds);
}

static long search(const struct tn_state_tree *tree, const char *pattern,
		long from, bool forward, bool *wrapped)
{
	struct tn_regex *re;
	struct tn_regex_matcher *matcher;
	struct tn_error err;
	long found;

	if (tn_regex_compile(pattern, &re, &err))
		return -2;
	matcher = tn_regex_matcher_new(re);
	found = tn_state_tree_search(tree, matcher, from, forward, wrapped);
	tn_regex_matcher_free(matcher);
	tn_regex_destroy(re);
	return found;
}

static void test_search(const struct tn_state_tree *tree)
{
	bool wrapped = true;
	long found;

	found = search(tree, "bash", -1, true, &wrapped);
	tap_ok(found == at(tree, "CPUs/0") && !wrapped,
		"search bash: first the CPU that runs it (its label)");
	found = search(tree, "bash", found, true, &wrapped);
	tap_ok(found == at(tree, "Threads/4242") && !wrapped,
		"next: the thread, though folded away");
	found = search(tree, "bash", found, true, &wrapped);
	tap_ok(found == at(tree, "Threads/4242/Exec_name") && !wrapped,
		"next: its name's value");
	found = search(tree, "bash", found, true, &wrapped);
	tap_ok(found == at(tree, "CPUs/0") && wrapped,
		"next after the last: the first, wrapped");
	found = search(tree, "bash", found, false, &wrapped);
	tap_ok(found == at(tree, "Threads/4242/Exec_name") && wrapped,
		"backward from the first: the last, wrapped");
	found = search(tree, "BASH", -1, true, &wrapped);
	tap_int_eq(found, -1, "smart case: an upper-case pattern keeps case");
	found = search(tree, "^status$", -1, false, &wrapped);
	tap_int_eq(found, at(tree, "Threads/4242/Status"),
		"backward from nothing: the last match");
	found = search(tree, "0x4011", -1, true, &wrapped);
	tap_int_eq(found, at(tree, "Threads/77/Call_stack/2"),
		"a value deep in a folded stack");
}

static void check_duration(int64_t ns, const char *want)
{
	GString *text = g_string_new(NULL);

	tn_state_tree_append_duration(text, ns);
	tap_str_eq(text->str, want, "duration %lld ns", (long long) ns);
	g_string_free(text, TRUE);
}

int main(void)
{
	struct builder b;
	struct tn_state_tree *tree;
	struct tn_state_result empty = { 0 };

	build(&b);
	tree = tn_state_tree_create(&b.result);
	test_labels(tree);
	test_folds(tree);
	test_search(tree);
	tn_state_tree_destroy(tree);
	unbuild(&b);

	tree = tn_state_tree_create(&empty);
	tap_int_eq(tn_state_tree_get_count(tree), 0, "an empty result");
	tap_int_eq(search(tree, "x", -1, true, NULL), -1,
		"search in an empty result: -1");
	tn_state_tree_destroy(tree);

	check_duration(0, "0 ns");
	check_duration(850, "850 ns");
	check_duration(12345, "12.3 us");
	check_duration(999700, "1.00 ms");
	check_duration(1500000, "1.50 ms");
	check_duration(2000000000, "2.00 s");
	check_duration(1234000000000LL, "1234 s");
	return tap_done();
}
