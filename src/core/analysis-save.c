/* analysis-save.c - a result as bytes, for the state pass to keep with
 * the snapshots (and so in the cache), and back.
 *
 * Format (integers little-endian, strings as tn_bytes_put_string()):
 *   magic "TNAN", version u32 2, analysis name, begin_ns i64, end_ns
 *   i64, events u64, slices u32, the texts of the cells: count varint,
 *   then each once; table count u32; per table: name, title, column
 *   count u32, per column: name, type u8; sort column u32, descending
 *   u8, row count u64, then the cells row by row, each a varint, 0 for
 *   no value, else one more than: a TEXT's number in the texts, an INT's
 *   zigzag, an NS's zigzag rounded to the ns (as it is printed); a
 *   PERCENT is u8 1 and a double, or u8 0.
 * Tens of thousands of threads make tables of as many rows: the texts
 * (names) repeat, the numbers are small.
 * The snapshots' section has the checksum; a load checks every count
 * against the bytes left and every type.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/bytes.h"

#define MAGIC "TNAN"
#define VERSION 2
/* The least bytes a column and a cell take. */
#define MIN_COLUMN 2
#define MIN_CELL 1

static void put_text(GByteArray *buf, const char *text)
{
	tn_bytes_put_string(buf, text, strlen(text));
}

/* The texts of result's cells, each once, numbered in *numbers. */
static GPtrArray *collect_texts(const struct tn_analysis_result *result,
		GHashTable *numbers)
{
	GPtrArray *texts = g_ptr_array_new();

	for (size_t t = 0; t < result->table_count; t++) {
		const struct tn_analysis_table *table = &result->tables[t];

		for (size_t i = 0; i < table->row_count * table->column_count;
				i++) {
			const char *text = table->cells[i].u.text;

			if (table->cells[i].type != TN_CELL_TEXT ||
			    g_hash_table_contains(numbers, text))
				continue;
			/* Through uintptr_t: the tables keep them const. */
			g_hash_table_insert(numbers, (gpointer) (uintptr_t) text,
				GSIZE_TO_POINTER(texts->len));
			g_ptr_array_add(texts, (gpointer) (uintptr_t) text);
		}
	}
	return texts;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static void put_cell(GByteArray *buf, const struct tn_analysis_column *column,
		const struct tn_analysis_cell *cell, GHashTable *numbers)
{
	if (column->type == TN_CELL_PERCENT) {
		tn_bytes_put_u8(buf, cell->type == TN_CELL_PERCENT);
		if (cell->type == TN_CELL_PERCENT)
			tn_bytes_put_double(buf, cell->u.d);
		return;
	}
	switch (cell->type) {
	case TN_CELL_TEXT:
		tn_bytes_put_varint(buf, GPOINTER_TO_SIZE(g_hash_table_lookup(
			numbers, cell->u.text)) + 1);
		break;
	case TN_CELL_INT:
		tn_bytes_put_varint(buf, zigzag(cell->u.i) + 1);
		break;
	case TN_CELL_NS:
		tn_bytes_put_varint(buf, zigzag((int64_t) rint(cell->u.d)) + 1);
		break;
	default:
		tn_bytes_put_varint(buf, 0);
		break;
	}
}

void tn_analysis_result_save(const struct tn_analysis_result *result,
		GByteArray *buf)
{
	/* Keyed by the interned strings' addresses: one per text. */
	GHashTable *numbers = g_hash_table_new(g_direct_hash, g_direct_equal);
	GPtrArray *texts = collect_texts(result, numbers);

	tn_bytes_put_raw(buf, MAGIC, 4);
	tn_bytes_put_u32(buf, VERSION);
	put_text(buf, result->analysis);
	tn_bytes_put_u64(buf, (uint64_t) result->begin_ns);
	tn_bytes_put_u64(buf, (uint64_t) result->end_ns);
	tn_bytes_put_u64(buf, result->events);
	tn_bytes_put_u32(buf, result->slices);
	tn_bytes_put_varint(buf, texts->len);
	for (guint i = 0; i < texts->len; i++)
		put_text(buf, g_ptr_array_index(texts, i));
	tn_bytes_put_u32(buf, (uint32_t) result->table_count);
	for (size_t t = 0; t < result->table_count; t++) {
		const struct tn_analysis_table *table = &result->tables[t];
		size_t n = table->column_count;

		put_text(buf, table->name);
		put_text(buf, table->title);
		tn_bytes_put_u32(buf, (uint32_t) n);
		for (size_t c = 0; c < n; c++) {
			put_text(buf, table->columns[c].name);
			tn_bytes_put_u8(buf, (uint8_t) table->columns[c].type);
		}
		tn_bytes_put_u32(buf, (uint32_t) table->sort_column);
		tn_bytes_put_u8(buf, table->sort_descending);
		tn_bytes_put_u64(buf, table->row_count);
		for (size_t i = 0; i < table->row_count * n; i++)
			put_cell(buf, &table->columns[i % n], &table->cells[i],
				numbers);
	}
	g_ptr_array_free(texts, TRUE);
	g_hash_table_destroy(numbers);
}

/* A string of the reader, interned in result. */
static int take_text(struct tn_bytes_reader *r,
		struct tn_analysis_result *result, const char **out,
		const char *what)
{
	const char *text;
	size_t len;
	char *copy;

	if (tn_bytes_take_string(r, &text, &len, what))
		return -1;
	copy = g_strndup(text, len);
	*out = g_string_chunk_insert_const(result->strings, copy);
	g_free(copy);
	return 0;
}

static int take_cell(struct tn_bytes_reader *r, const GPtrArray *texts,
		const struct tn_analysis_column *column,
		struct tn_analysis_cell *cell)
{
	uint64_t v;
	uint8_t has;

	cell->type = TN_CELL_NONE;
	if (column->type == TN_CELL_PERCENT) {
		if (tn_bytes_take_u8(r, &has, "a share"))
			return -1;
		if (has > 1)
			return tn_bytes_fail(r, "a share marked %u", has);
		cell->type = has ? TN_CELL_PERCENT : TN_CELL_NONE;
		return has ? tn_bytes_take_double(r, &cell->u.d, "a share") : 0;
	}
	if (tn_bytes_take_varint_long(r, &v, "a cell"))
		return -1;
	if (v == 0)
		return 0;
	v--;
	cell->type = column->type;
	switch (column->type) {
	case TN_CELL_TEXT:
		if (v >= texts->len)
			return tn_bytes_fail(r, "text %" PRIu64 " of %u", v,
				texts->len);
		cell->u.text = g_ptr_array_index(texts, v);
		return 0;
	case TN_CELL_INT:
		cell->u.i = (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
		return 0;
	default:
		cell->u.d = (double) ((int64_t) (v >> 1) ^ -(int64_t) (v & 1));
		return 0;
	}
}

static int take_table(struct tn_bytes_reader *r,
		struct tn_analysis_result *result, GArray *columns,
		const GPtrArray *texts, struct tn_analysis_table *table)
{
	size_t first_column = columns->len;
	uint32_t count, sort;
	uint64_t rows;
	uint8_t descending;

	if (take_text(r, result, &table->name, "a table's name") ||
	    take_text(r, result, &table->title, "a table's title") ||
	    tn_bytes_take_u32(r, &count, "a table's column count"))
		return -1;
	if (count == 0 || count > r->left / MIN_COLUMN)
		return tn_bytes_fail(r, "%" PRIu32 " columns", count);
	for (uint32_t c = 0; c < count; c++) {
		struct tn_analysis_column column;
		uint8_t type;

		if (take_text(r, result, &column.name, "a column's name") ||
		    tn_bytes_take_u8(r, &type, "a column's type"))
			return -1;
		if (type == TN_CELL_NONE || type > TN_CELL_PERCENT)
			return tn_bytes_fail(r, "a column of type %u", type);
		column.type = (enum tn_analysis_cell_type) type;
		g_array_append_val(columns, column);
	}
	table->column_count = count;
	if (tn_bytes_take_u32(r, &sort, "the sort column") ||
	    tn_bytes_take_u8(r, &descending, "the order") ||
	    tn_bytes_take_u64(r, &rows, "the row count"))
		return -1;
	if (sort >= count || descending > 1)
		return tn_bytes_fail(r, "sorted by column %" PRIu32 " of %"
			PRIu32, sort, count);
	if (rows > r->left / (MIN_CELL * count))
		return tn_bytes_fail(r, "%" PRIu64 " rows in %zu bytes", rows,
			r->left);
	table->sort_column = sort;
	table->sort_descending = descending;
	table->row_count = rows;
	table->row_cap = rows;
	table->cells = g_new0(struct tn_analysis_cell, MAX(rows * count, 1));
	for (uint64_t i = 0; i < rows * count; i++)
		if (take_cell(r, texts, &g_array_index(columns,
				struct tn_analysis_column,
				first_column + i % count), &table->cells[i]))
			return -1;
	return 0;
}

/* The static name of the analysis called name (len bytes), or NULL. */
static const char *analysis_name(const char *name, size_t len)
{
	for (const char *const *n = tn_analysis_names(); *n; n++)
		if (strlen(*n) == len && memcmp(*n, name, len) == 0)
			return *n;
	return NULL;
}

static int take_tables(struct tn_bytes_reader *r,
		struct tn_analysis_result *result, GArray *columns,
		const GPtrArray *texts)
{
	uint32_t tables;

	if (tn_bytes_take_u32(r, &tables, "the table count"))
		return -1;
	if (tables > r->left / 8)
		return tn_bytes_fail(r, "%" PRIu32 " tables", tables);
	result->tables = g_new0(struct tn_analysis_table, MAX(tables, 1));
	for (uint32_t t = 0; t < tables; t++) {
		result->table_count = t + 1;
		if (take_table(r, result, columns, texts,
				&result->tables[t]))
			return -1;
	}
	if (r->left)
		return tn_bytes_fail(r, "%zu bytes after the tables", r->left);
	return 0;
}

static int take_result(struct tn_bytes_reader *r,
		struct tn_analysis_result *result, GArray *columns)
{
	GPtrArray *texts = g_ptr_array_new();
	uint64_t text_count;
	int status = -1;

	if (tn_bytes_take_varint_long(r, &text_count, "the text count"))
		goto out;
	if (text_count > r->left) {
		tn_bytes_fail(r, "%" PRIu64 " texts", text_count);
		goto out;
	}
	for (uint64_t i = 0; i < text_count; i++) {
		const char *text;

		if (take_text(r, result, &text, "a text"))
			goto out;
		g_ptr_array_add(texts, (gpointer) (uintptr_t) text);
	}
	status = take_tables(r, result, columns, texts);
out:
	g_ptr_array_free(texts, TRUE);
	return status;
}

int tn_analysis_result_load(const void *data, size_t size,
		struct tn_analysis_result **out, struct tn_error *err)
{
	struct tn_bytes_reader r;
	const char *name;
	const uint8_t *magic;
	size_t len;
	uint32_t version, slices;
	uint64_t begin, end, events;
	struct tn_analysis_result *result = NULL;
	GArray *columns = g_array_new(FALSE, FALSE,
		sizeof(struct tn_analysis_column));
	const char *analysis = NULL;
	int status = -1;

	tn_bytes_reader_init(&r, data, size);
	if (tn_bytes_take_raw(&r, 4, &magic, "the magic") == 0 &&
	    memcmp(magic, MAGIC, 4) != 0)
		tn_bytes_fail(&r, "bad magic");
	else if (tn_bytes_take_u32(&r, &version, "the version") == 0 &&
		 version != VERSION)
		tn_bytes_fail(&r, "version %" PRIu32 ", expected %d", version,
			VERSION);
	else if (tn_bytes_take_string(&r, &name, &len, "the analysis") == 0 &&
		 !(analysis = analysis_name(name, len)))
		tn_bytes_fail(&r, "an unknown analysis");
	else if (tn_bytes_take_u64(&r, &begin, "the range's start") == 0 &&
		 tn_bytes_take_u64(&r, &end, "the range's end") == 0 &&
		 tn_bytes_take_u64(&r, &events, "the event count") == 0 &&
		 tn_bytes_take_u32(&r, &slices, "the slices") == 0) {
		result = tn_analysis_result_new(analysis, (int64_t) begin,
			(int64_t) end);
		result->events = events;
		result->slices = slices;
		status = take_result(&r, result, columns);
	}
	if (status == 0) {
		/* The columns are all read: point the tables at them. */
		size_t at = 0;

		result->owned_columns = (struct tn_analysis_column *)
			(void *) g_array_free(columns, FALSE);
		for (size_t t = 0; t < result->table_count; t++) {
			result->tables[t].columns = result->owned_columns + at;
			at += result->tables[t].column_count;
		}
		*out = result;
		return 0;
	}
	g_array_free(columns, TRUE);
	/* The tables' columns still point at nothing: free them bare. */
	tn_analysis_result_destroy(result);
	tn_error_set(err, "analysis result damaged: %s", r.why);
	return -1;
}
