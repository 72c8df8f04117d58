/* test-timeline-tree.c - the threads as a process tree (timeline.h's
 * tn_timeline_tree_make()): children under their parent in the order
 * asked, roots for unknown or absent parents, circles of parents
 * (tids reused) broken and every row shown once, folded rows' children
 * left out. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tracenav/timeline.h"

/* A grid of rows (id, ppid), by id as grids are. */
static struct tn_timeline_grid *grid_of(const int64_t (*rows)[2], size_t n)
{
	struct tn_timeline_grid *grid = g_new0(struct tn_timeline_grid, 1);

	grid->kind = TN_TIMELINE_THREADS;
	grid->buckets = 1;
	grid->row_count = n;
	grid->rows = g_new0(struct tn_timeline_row, n);
	for (size_t i = 0; i < n; i++) {
		grid->rows[i].id = rows[i][0];
		grid->rows[i].ppid = rows[i][1];
		grid->rows[i].letters = g_strdup(".");
	}
	return grid;
}

/* The tree as "id/depth" words, folded rows marked "+", parents "-". */
static char *describe(const struct tn_timeline_grid *grid,
		const struct tn_timeline_tree *tree)
{
	GString *text = g_string_new(NULL);

	for (size_t i = 0; i < tree->count; i++)
		g_string_append_printf(text, "%s%" PRId64 "/%u%s",
			i ? " " : "", grid->rows[tree->order[i]].id,
			tree->depth[i], tree->folded[i] ? "+" :
			tree->has_children[i] ? "-" : "");
	return g_string_free(text, FALSE);
}

/* Ids in decreasing order. */
static int by_id_down(size_t a, size_t b, void *data)
{
	const struct tn_timeline_grid *grid = data;
	int64_t x = grid->rows[a].id, y = grid->rows[b].id;

	return (x < y) - (x > y);
}

static bool fold_100(int64_t id, void *data)
{
	(void) data;
	return id == 100;
}

static void expect(const int64_t (*rows)[2], size_t n,
		int (*compare)(size_t, size_t, void *),
		bool (*is_folded)(int64_t, void *), const char *want,
		const char *what)
{
	struct tn_timeline_grid *grid = grid_of(rows, n);
	struct tn_timeline_tree tree;
	char *got;

	tn_timeline_tree_make(grid, compare, is_folded, grid, &tree);
	got = describe(grid, &tree);
	tap_str_eq(got, want, "%s", what);
	g_free(got);
	tn_timeline_tree_fini(&tree);
	tn_timeline_grid_destroy(grid);
}

int main(void)
{
	/* 1 forks 100 and 200; 100 forks 150; 300's parent has no row;
	 * 400 is its own parent; 500 was never forked in the trace. */
	static const int64_t family[][2] = {
		{ 1, 0 }, { 100, 1 }, { 150, 100 }, { 200, 1 },
		{ 300, 77 }, { 400, 400 }, { 500, 0 },
	};
	/* 10 and 20 each other's parent (a tid reused); 30 under 20. */
	static const int64_t circle[][2] = {
		{ 5, 0 }, { 10, 20 }, { 20, 10 }, { 30, 20 },
	};

	expect(family, G_N_ELEMENTS(family), NULL, NULL,
		"1/0- 100/1- 150/2 200/1 300/0 400/0 500/0",
		"children under their parent, by id; absent, unknown and "
		"own parents: roots");
	expect(family, G_N_ELEMENTS(family), by_id_down, NULL,
		"500/0 400/0 300/0 1/0- 200/1 100/1- 150/2",
		"siblings and roots in the order asked");
	expect(family, G_N_ELEMENTS(family), NULL, fold_100,
		"1/0- 100/1+ 200/1 300/0 400/0 500/0",
		"a folded row's children left out, the row marked");
	expect(circle, G_N_ELEMENTS(circle), NULL, NULL,
		"5/0 10/0- 20/1- 30/2",
		"a circle of parents: its first row a root, each row once");
	expect(circle, 0, NULL, NULL, "", "no row: an empty tree");
	return tap_done();
}
