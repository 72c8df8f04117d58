/* test-analysis-table.c - the rows of an analysis's table: added with
 * or without room reserved, sorted by one column and then another as
 * the reports sort them (equal rows keep their order, cells without a
 * value last), checked against a plain insertion sort of the same rows.
 */
#include <glib.h>
#include <string.h>

#include "tap.h"
#include "src/core/analysis-private.h"

static const struct tn_analysis_column columns[] = {
	{ "TID", TN_CELL_INT }, { "NAME", TN_CELL_TEXT }, { "NS", TN_CELL_NS },
};

/* Row i's cells, from a fixed sequence: few distinct values, so that
 * many rows tie; every 7th row has no NS. */
static void fill_row(struct tn_analysis_result *result,
		struct tn_analysis_cell *row, size_t i)
{
	static const char *const names[] = { "b", "a", "c" };

	tn_acell_int(&row[0], (int64_t) (i * 7919 % 13));
	tn_acell_text(result, &row[1], names[i % 3]);
	if (i % 7 != 0)
		tn_acell_ns(&row[2], (double) (i * 104729 % 5));
}

/* What the sort must give: the rows' numbers sorted by column c, ties
 * broken by where they stood (a stable sort, by another road). */
static int cell_order(const struct tn_analysis_cell *a,
		const struct tn_analysis_cell *b, bool descending)
{
	int c;

	if (a->type == TN_CELL_NONE || b->type == TN_CELL_NONE)
		return (a->type == TN_CELL_NONE) - (b->type == TN_CELL_NONE);
	if (a->type == TN_CELL_TEXT)
		c = strcmp(a->u.text, b->u.text);
	else if (a->type == TN_CELL_INT)
		c = (a->u.i > b->u.i) - (a->u.i < b->u.i);
	else
		c = (a->u.d > b->u.d) - (a->u.d < b->u.d);
	return descending ? -c : c;
}

struct placed {
	size_t at, row;
};

struct reference {
	const struct tn_analysis_table *table;
	size_t column;
	bool descending;
};

static gint compare_placed(gconstpointer pa, gconstpointer pb, gpointer data)
{
	const struct reference *ref = data;
	const struct placed *a = pa, *b = pb;
	int c = cell_order(tn_analysis_cell_at(ref->table, a->row,
		ref->column), tn_analysis_cell_at(ref->table, b->row,
		ref->column), ref->descending);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static void reference_sort(const struct tn_analysis_table *t, size_t *order,
		size_t c, bool descending)
{
	struct reference ref = { t, c, descending };
	struct placed *placed = g_new(struct placed, t->row_count + 1);

	for (size_t i = 0; i < t->row_count; i++)
		placed[i] = (struct placed) { i, order[i] };
	g_qsort_with_data(placed, (gint) t->row_count, sizeof(*placed),
		compare_placed, &ref);
	for (size_t i = 0; i < t->row_count; i++)
		order[i] = placed[i].row;
	g_free(placed);
}

static bool same_cell(const struct tn_analysis_cell *a,
		const struct tn_analysis_cell *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case TN_CELL_TEXT:
		return strcmp(a->u.text, b->u.text) == 0;
	case TN_CELL_INT:
		return a->u.i == b->u.i;
	case TN_CELL_NONE:
		return true;
	default:
		return a->u.d == b->u.d;
	}
}

static void check_rows(size_t rows, bool reserve)
{
	struct tn_analysis_result *result = tn_analysis_result_new("test", 0,
		1);
	struct tn_analysis_table *t = tn_atable_add(result, "rows", "Rows",
		columns, G_N_ELEMENTS(columns));
	struct tn_analysis_table *copy;
	size_t *order = g_new(size_t, rows ? rows : 1);
	bool same = true;

	if (reserve)
		tn_atable_reserve(t, rows);
	for (size_t i = 0; i < rows; i++)
		fill_row(result, tn_atable_row(t), i);
	tap_ok(t->row_count == rows && t->row_cap >= rows,
		"%zu rows%s: all there", rows, reserve ? " (reserved)" : "");
	if (reserve)
		tap_ok(t->row_cap == rows, "%zu rows reserved: no more room "
			"than they need", rows);

	/* The unsorted rows kept aside, then sorted as syscallstats
	 * sorts: by NAME, then NS descending, then TID. */
	copy = tn_atable_add(result, "copy", "Copy", columns,
		G_N_ELEMENTS(columns));
	/* (Adding a table may move the others.) */
	t = tn_analysis_result_find(result, "rows");
	for (size_t i = 0; i < rows; i++) {
		memcpy(tn_atable_row(copy), tn_analysis_cell_at(t, i, 0),
			sizeof(struct tn_analysis_cell) * G_N_ELEMENTS(columns));
		order[i] = i;
	}
	copy = tn_analysis_result_find(result, "copy");
	tn_analysis_table_sort(t, 1, false);
	tn_analysis_table_sort(t, 2, true);
	tn_analysis_table_sort(t, 0, false);
	reference_sort(copy, order, 1, false);
	reference_sort(copy, order, 2, true);
	reference_sort(copy, order, 0, false);
	for (size_t i = 0; i < rows && same; i++)
		for (size_t c = 0; c < G_N_ELEMENTS(columns); c++)
			same = same && same_cell(tn_analysis_cell_at(t, i, c),
				tn_analysis_cell_at(copy, order[i], c));
	tap_ok(same, "%zu rows: sorted by three columns as a stable sort "
		"sorts them, rows without a value last", rows);
	tap_ok(t->sort_column == 0 && !t->sort_descending,
		"%zu rows: the table says its last sort", rows);
	g_free(order);
	tn_analysis_result_destroy(result);
}

int main(void)
{
	check_rows(0, false);
	check_rows(1, true);
	check_rows(2, false);
	check_rows(17, false);
	check_rows(1000, true);
	check_rows(100003, false);
	return tap_done();
}
