/* timeline-tree.c - the rows of a threads grid as their process tree
 * (see timeline.h). */
#include <glib.h>

#include "tracenav/timeline.h"

/* The row of grid whose id is id, or -1 (the rows are by id). */
static long find_row(const struct tn_timeline_grid *grid, int64_t id)
{
	size_t lo = 0, hi = grid->row_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (grid->rows[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < grid->row_count && grid->rows[lo].id == id ?
		(long) lo : -1;
}

struct sorting {
	int (*compare)(size_t a, size_t b, void *data);
	void *data;
};

static gint compare_indexes(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct sorting *by = data;

	return by->compare(*(const size_t *) a, *(const size_t *) b,
		by->data);
}

/* The walk's state: each row's children in order, what was reached. */
struct walk {
	const struct tn_timeline_grid *grid;
	size_t *kids;		/* the children of row p: kids[first[p]..] */
	size_t *first, *count;
	bool *reached;
	bool (*is_folded)(int64_t id, void *data);
	void *data;
	struct tn_timeline_tree *tree;
	GArray *stack;		/* struct visit */
};

struct visit {
	size_t row;
	unsigned depth;
	bool hidden;		/* under a folded row */
};

/* The rows under root, depth first, into the tree (those under a folded
 * row are reached, not shown). */
static void walk_from(struct walk *w, size_t root)
{
	struct visit v = { root, 0, false };

	w->reached[root] = true;
	g_array_append_val(w->stack, v);
	while (w->stack->len) {
		struct tn_timeline_tree *tree = w->tree;
		bool folded;

		v = g_array_index(w->stack, struct visit, w->stack->len - 1);
		g_array_set_size(w->stack, w->stack->len - 1);
		folded = w->is_folded && w->count[v.row] &&
			w->is_folded(w->grid->rows[v.row].id, w->data);
		if (!v.hidden) {
			tree->order[tree->count] = v.row;
			tree->depth[tree->count] = v.depth;
			tree->has_children[tree->count] = w->count[v.row] > 0;
			tree->folded[tree->count] = folded;
			tree->count++;
		}
		/* Pushed last first: they come out in their order. */
		for (size_t k = w->count[v.row]; k > 0; k--) {
			size_t kid = w->kids[w->first[v.row] + k - 1];
			struct visit next = { kid, v.depth + 1,
				v.hidden || folded };

			if (w->reached[kid])
				continue;
			w->reached[kid] = true;
			g_array_append_val(w->stack, next);
		}
	}
}

void tn_timeline_tree_make(const struct tn_timeline_grid *grid,
		int (*compare)(size_t a, size_t b, void *data),
		bool (*is_folded)(int64_t id, void *data), void *data,
		struct tn_timeline_tree *tree)
{
	size_t n = grid->row_count;
	size_t *sorted = g_new(size_t, n + 1);
	long *parent = g_new(long, n + 1);
	struct sorting by = { compare, data };
	struct walk w = { grid, g_new(size_t, n + 1), g_new0(size_t, n + 1),
		g_new0(size_t, n + 1), g_new0(bool, n + 1), is_folded, data,
		tree, g_array_new(FALSE, FALSE, sizeof(struct visit)) };
	size_t *fill = g_new0(size_t, n + 1);

	tree->count = 0;
	tree->order = g_new(size_t, n + 1);
	tree->depth = g_new(unsigned, n + 1);
	tree->has_children = g_new(bool, n + 1);
	tree->folded = g_new(bool, n + 1);
	for (size_t i = 0; i < n; i++) {
		const struct tn_timeline_row *row = &grid->rows[i];

		sorted[i] = i;
		parent[i] = row->ppid > 0 && row->ppid != row->id ?
			find_row(grid, row->ppid) : -1;
		if (parent[i] >= 0)
			w.count[parent[i]]++;
	}
	if (compare)
		g_qsort_with_data(sorted, (gint) n, sizeof(size_t),
			compare_indexes, &by);
	/* Each row's children, in the sorted order. */
	for (size_t i = 1; i < n; i++)
		w.first[i] = w.first[i - 1] + w.count[i - 1];
	for (size_t s = 0; s < n; s++) {
		size_t i = sorted[s];

		if (parent[i] >= 0)
			w.kids[w.first[parent[i]] + fill[parent[i]]++] = i;
	}
	for (size_t s = 0; s < n; s++)
		if (parent[sorted[s]] < 0)
			walk_from(&w, sorted[s]);
	/* What is left is in a circle of parents (tids reused): each
	 * circle from its first row in the order. */
	for (size_t s = 0; s < n; s++)
		if (!w.reached[sorted[s]])
			walk_from(&w, sorted[s]);
	g_array_free(w.stack, TRUE);
	g_free(w.kids);
	g_free(w.first);
	g_free(w.count);
	g_free(w.reached);
	g_free(fill);
	g_free(parent);
	g_free(sorted);
}

void tn_timeline_tree_fini(struct tn_timeline_tree *tree)
{
	g_free(tree->order);
	g_free(tree->depth);
	g_free(tree->has_children);
	g_free(tree->folded);
	*tree = (struct tn_timeline_tree) { 0 };
}
