/* analysis-util.c - what the analyses share: which attribute of the
 * kernel state a quark is, what an event is by its name, statistics of
 * durations, and the tables of a result (see analysis-private.h). */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "pointer-hash.h"
#include "src/core/analysis-private.h"
#include "src/core/event-record-data.h"
#include "src/core/kernel-events.h"

/* ---- attributes ---- */

void tn_akinds_init(struct tn_akinds *k)
{
	k->kinds = g_byte_array_new();
	k->numbers = g_array_new(FALSE, FALSE, sizeof(int64_t));
}

void tn_akinds_fini(struct tn_akinds *k)
{
	g_byte_array_free(k->kinds, TRUE);
	g_array_free(k->numbers, TRUE);
}

const char *tn_akind_name_up(const struct tn_state *state, int quark, int up)
{
	while (up-- > 0 && quark != TN_STATE_ROOT)
		quark = tn_state_get_parent(state, quark);
	return quark == TN_STATE_ROOT ? "" : tn_state_get_name(state, quark);
}

/* Whether quark is depth levels under a top attribute named top. */
static bool under_top(const struct tn_state *state, int quark, int depth,
		const char *top)
{
	for (int i = 0; i < depth && quark != TN_STATE_ROOT; i++)
		quark = tn_state_get_parent(state, quark);
	return quark != TN_STATE_ROOT &&
		tn_state_get_parent(state, quark) == TN_STATE_ROOT &&
		strcmp(tn_state_get_name(state, quark), top) == 0;
}

static enum tn_akind classify(const struct tn_state *state, int quark)
{
	const char *name = tn_state_get_name(state, quark);
	const char *up = tn_akind_name_up(state, quark, 1);

	if (!strcmp(name, "Current_thread") && under_top(state, quark, 2,
			"CPUs"))
		return AK_CPU_CURRENT;
	if (!strcmp(name, "Status") && under_top(state, quark, 2, "Threads"))
		return AK_THREAD_STATUS;
	if (!strcmp(name, "Status") && under_top(state, quark, 2, "CPUs"))
		return AK_CPU_STATUS;
	if (!strcmp(name, "System_call") && under_top(state, quark, 2,
			"Threads"))
		return AK_THREAD_SYSCALL;
	if (!strcmp(name, "Exec_name") && under_top(state, quark, 2,
			"Threads"))
		return AK_THREAD_EXEC_NAME;
	if (!strcmp(name, "PPID") && under_top(state, quark, 2, "Threads"))
		return AK_THREAD_PPID;
	if (!strcmp(up, "IRQs") && under_top(state, quark, 3, "CPUs"))
		return AK_CPU_IRQ;
	if (!strcmp(up, "Soft_IRQs") && under_top(state, quark, 3, "CPUs"))
		return AK_CPU_SOFTIRQ;
	return AK_OTHER;
}

enum tn_akind tn_akinds_classify(struct tn_akinds *k,
		const struct tn_state *state, int quark)
{
	guint8 kind;

	if (quark < 0)
		return AK_OTHER;
	if ((guint) quark >= k->kinds->len) {
		guint old = k->kinds->len;

		g_byte_array_set_size(k->kinds, (guint) quark + 1);
		memset(k->kinds->data + old, 0, k->kinds->len - old);
	}
	kind = k->kinds->data[quark];
	if (kind == 0) {
		kind = (guint8) (classify(state, quark) + 1);
		k->kinds->data[quark] = kind;
		if (kind != AK_OTHER + 1) {
			bool line = kind == AK_CPU_IRQ + 1 ||
				kind == AK_CPU_SOFTIRQ + 1;
			int64_t number = tn_athread_tid(tn_akind_name_up(state,
				quark, line ? 0 : 1));

			if ((guint) quark >= k->numbers->len)
				g_array_set_size(k->numbers, (guint) quark + 1);
			g_array_index(k->numbers, int64_t, quark) = number;
		}
	}
	return (enum tn_akind) (kind - 1);
}

struct tn_alookup *tn_alookup_new(void)
{
	struct tn_alookup *look = g_new0(struct tn_alookup, 1);

	tn_akinds_init(&look->kinds);
	tn_aquarks_init(&look->quarks);
	return look;
}

void tn_alookup_free(struct tn_alookup *look)
{
	if (!look)
		return;
	tn_akinds_fini(&look->kinds);
	tn_aquarks_fini(&look->quarks);
	g_free(look);
}

int64_t tn_akinds_number(struct tn_akinds *k, const struct tn_state *state,
		int quark)
{
	if (tn_akinds_get(k, state, quark) == AK_OTHER)
		return tn_athread_tid(tn_akind_name_up(state, quark, 1));
	return g_array_index(k->numbers, int64_t, quark);
}

const char *tn_akind_sibling_string(const struct tn_state *state, int quark,
		const char *name)
{
	int parent = tn_state_get_parent(state, quark);
	int sibling = tn_state_quark_child_lookup(state, parent, name);
	const struct tn_state_value *value;

	if (sibling < 0)
		return NULL;
	value = tn_state_get_value(state, sibling);
	return value->type == TN_STATE_STRING ? value->u.s : NULL;
}

int64_t tn_athread_tid(const char *key)
{
	if (strchr(key, '_'))
		return 0;
	return g_ascii_strtoll(key, NULL, 10);
}

/* ---- quarks ---- */

static const char *const aquark_names[AQ_COUNT] = {
	"Status", "System_call", "Exec_name",
};

void tn_aquarks_init(struct tn_aquarks *q)
{
	q->cpu_current = g_array_new(FALSE, FALSE, sizeof(int));
	q->threads = tn_amap_new_int64(NULL);
}

void tn_aquarks_fini(struct tn_aquarks *q)
{
	g_array_free(q->cpu_current, TRUE);
	g_hash_table_destroy(q->threads);
}

int tn_aquark_cpu_current(struct tn_aquarks *q, const struct tn_state *state,
		int64_t cpu)
{
	char name[24];
	int cpus, node, *slot;

	if (cpu < 0 || cpu >= (1 << 20))
		return -1;
	while (q->cpu_current->len <= (guint) cpu) {
		int none = -1;

		g_array_append_val(q->cpu_current, none);
	}
	slot = &g_array_index(q->cpu_current, int, cpu);
	if (*slot >= 0)
		return *slot;
	g_snprintf(name, sizeof(name), "%" G_GINT64_FORMAT, cpu);
	if ((cpus = tn_state_quark_child_lookup(state, TN_STATE_ROOT,
			"CPUs")) < 0 ||
	    (node = tn_state_quark_child_lookup(state, cpus, name)) < 0)
		return -1;
	*slot = tn_state_quark_child_lookup(state, node, "Current_thread");
	return *slot;
}

int tn_aquark_thread(struct tn_aquarks *q, const struct tn_state *state,
		int64_t tid, enum tn_aquark_attr attr)
{
	int *quarks = g_hash_table_lookup(q->threads, TN_AKEY(tid));
	char name[24];
	int threads, node;

	if (!quarks) {
		quarks = g_new(int, AQ_COUNT);
		for (int i = 0; i < AQ_COUNT; i++)
			quarks[i] = -1;
		g_hash_table_insert(q->threads, TN_AKEY(tid),
			quarks);
	}
	if (quarks[attr] >= 0)
		return quarks[attr];
	g_snprintf(name, sizeof(name), "%" G_GINT64_FORMAT, tid);
	if ((threads = tn_state_quark_child_lookup(state, TN_STATE_ROOT,
			"Threads")) < 0 ||
	    (node = tn_state_quark_child_lookup(state, threads, name)) < 0)
		return -1;
	quarks[attr] = tn_state_quark_child_lookup(state, node,
		aquark_names[attr]);
	return quarks[attr];
}

/* ---- events ---- */

/* An analysis's view of a kernel event's kind. */
static enum tn_aevent aevent_of_kind(enum tn_kevent kind)
{
	switch (kind) {
	case TN_KEVENT_SCHED_SWITCH:
		return AE_SCHED_SWITCH;
	case TN_KEVENT_SCHED_WAKING:
	case TN_KEVENT_SCHED_WAKEUP:
	case TN_KEVENT_SCHED_WAKEUP_NEW:
		return AE_WAKEUP;
	case TN_KEVENT_SYSCALL_ENTRY:
		return AE_SYSCALL_ENTRY;
	case TN_KEVENT_SYSCALL_EXIT:
		return AE_SYSCALL_EXIT;
	case TN_KEVENT_IRQ_ENTRY:
		return AE_IRQ_ENTRY;
	case TN_KEVENT_IRQ_EXIT:
		return AE_IRQ_EXIT;
	case TN_KEVENT_SOFTIRQ_ENTRY:
		return AE_SOFTIRQ_ENTRY;
	case TN_KEVENT_SOFTIRQ_EXIT:
		return AE_SOFTIRQ_EXIT;
	default:
		return AE_OTHER;
	}
}

enum tn_aevent tn_aevent_of(const char *name)
{
	return aevent_of_kind(tn_kevent_classify(name, NULL));
}

enum tn_aevent tn_aevent_of_event(struct tn_aevent_memo *memo,
		const struct tn_event *ev)
{
	if (ev->record)
		return aevent_of_kind(ev->record->kevent ?
			ev->record->kevent->kind : TN_KEVENT_OTHER);
	return tn_aevent_memo_of(memo, tn_event_get_name(ev));
}

enum tn_aevent tn_aevent_memo_of(struct tn_aevent_memo *memo,
		const char *name)
{
	size_t slot = tn_pointer_slot(name, G_N_ELEMENTS(memo->names));

	if (!name)
		return AE_OTHER;
	if (memo->names[slot] != name || strcmp(memo->names[slot], name)) {
		memo->names[slot] = name;
		memo->kinds[slot] = tn_aevent_of(name);
	}
	return memo->kinds[slot];
}

/* ---- tables of accumulators ---- */

GHashTable *tn_amap_new_int64(GDestroyNotify free_value)
{
	return g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
		free_value ? free_value : g_free);
}

GHashTable *tn_amap_new_string(GDestroyNotify free_value)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		free_value ? free_value : g_free);
}

void *tn_amap_int64(GHashTable *map, int64_t key, size_t size)
{
	void *value = g_hash_table_lookup(map, TN_AKEY(key));

	if (!value) {
		value = g_malloc0(size);
		g_hash_table_insert(map, TN_AKEY(key), value);
	}
	return value;
}

void *tn_amap_string(GHashTable *map, const char *key, size_t size)
{
	void *value = g_hash_table_lookup(map, key);

	if (!value) {
		value = g_malloc0(size);
		g_hash_table_insert(map, g_strdup(key), value);
	}
	return value;
}

void tn_aname_set(char **slot, const char *name)
{
	if (name && (!*slot || strcmp(*slot, name))) {
		g_free(*slot);
		*slot = g_strdup(name);
	}
}

void tn_aname_set_first(char **slot, const char *name)
{
	if (name && !*slot)
		*slot = g_strdup(name);
}

/* ---- durations ---- */

void tn_adur_add(struct tn_adur *d, double x)
{
	double delta;

	if (d->count == 0 || x < d->min)
		d->min = x;
	if (d->count == 0 || x > d->max)
		d->max = x;
	d->count++;
	d->sum += x;
	delta = x - d->mean;
	d->mean += delta / (double) d->count;
	d->m2 += delta * (x - d->mean);
}

void tn_adur_merge(struct tn_adur *d, const struct tn_adur *b)
{
	double n, delta;

	if (b->count == 0)
		return;
	if (d->count == 0) {
		*d = *b;
		return;
	}
	n = (double) (d->count + b->count);
	delta = b->mean - d->mean;
	d->m2 += b->m2 + delta * delta * (double) d->count *
		(double) b->count / n;
	d->mean += delta * (double) b->count / n;
	d->min = b->min < d->min ? b->min : d->min;
	d->max = b->max > d->max ? b->max : d->max;
	d->count += b->count;
	d->sum += b->sum;
}

bool tn_adur_stddev(const struct tn_adur *d, double *out)
{
	if (d->count < 2)
		return false;
	*out = sqrt(d->m2 / (double) (d->count - 1));
	return true;
}

/* ---- tables ---- */

struct tn_analysis_table *tn_atable_add(struct tn_analysis_result *result,
		const char *name, const char *title,
		const struct tn_analysis_column *columns, size_t column_count)
{
	struct tn_analysis_table *table;

	result->tables = g_renew(struct tn_analysis_table, result->tables,
		result->table_count + 1);
	table = &result->tables[result->table_count++];
	memset(table, 0, sizeof(*table));
	table->name = name;
	table->title = title;
	table->columns = columns;
	table->column_count = column_count;
	return table;
}

void tn_atable_reserve(struct tn_analysis_table *table, size_t rows)
{
	if (rows <= table->row_cap)
		return;
	table->cells = g_renew(struct tn_analysis_cell, table->cells,
		rows * table->column_count);
	table->row_cap = rows;
}

struct tn_analysis_cell *tn_atable_row(struct tn_analysis_table *table)
{
	size_t n = table->column_count;
	struct tn_analysis_cell *row;

	if (table->row_count == table->row_cap)
		tn_atable_reserve(table, MAX(16, table->row_cap +
			table->row_cap / 2));
	row = table->cells + table->row_count * n;
	memset(row, 0, n * sizeof(*row));
	table->row_count++;
	return row;
}

void tn_acell_text(struct tn_analysis_result *result,
		struct tn_analysis_cell *cell, const char *text)
{
	cell->type = TN_CELL_TEXT;
	cell->u.text = g_string_chunk_insert_const(result->strings,
		text ? text : "");
}

void tn_acell_int(struct tn_analysis_cell *cell, int64_t v)
{
	cell->type = TN_CELL_INT;
	cell->u.i = v;
}

void tn_acell_ns(struct tn_analysis_cell *cell, double ns)
{
	cell->type = TN_CELL_NS;
	cell->u.d = ns;
}

void tn_acell_percent(struct tn_analysis_cell *cell, double percent)
{
	cell->type = TN_CELL_PERCENT;
	cell->u.d = percent;
}

void tn_acell_durations(struct tn_analysis_cell *cell, const struct tn_adur *d)
{
	double stddev;

	tn_acell_int(&cell[0], (int64_t) d->count);
	if (d->count == 0)
		return;
	tn_acell_ns(&cell[1], d->min);
	tn_acell_ns(&cell[2], d->mean);
	tn_acell_ns(&cell[3], d->max);
	if (tn_adur_stddev(d, &stddev))
		tn_acell_ns(&cell[4], stddev);
}

const struct tn_analysis_cell *tn_analysis_cell_at(
		const struct tn_analysis_table *table, size_t r, size_t c)
{
	return &table->cells[r * table->column_count + c];
}

struct sort_key {
	size_t column, width;
	bool descending;
};

static int compare_cells(const struct tn_analysis_cell *a,
		const struct tn_analysis_cell *b)
{
	double x, y;

	/* No value sorts after every value. */
	if (a->type == TN_CELL_NONE || b->type == TN_CELL_NONE)
		return (a->type == TN_CELL_NONE) - (b->type == TN_CELL_NONE);
	if (a->type == TN_CELL_TEXT || b->type == TN_CELL_TEXT)
		return strcmp(a->type == TN_CELL_TEXT ? a->u.text : "",
			b->type == TN_CELL_TEXT ? b->u.text : "");
	x = a->type == TN_CELL_INT ? (double) a->u.i : a->u.d;
	y = b->type == TN_CELL_INT ? (double) b->u.i : b->u.d;
	return (x > y) - (x < y);
}

struct sort_order {
	const struct tn_analysis_table *table;
	struct sort_key key;
};

/* Rows compared by their numbers in the table. */
static gint compare_rows(gconstpointer pa, gconstpointer pb, gpointer data)
{
	const struct sort_order *order = data;
	size_t width = order->table->column_count;
	const struct tn_analysis_cell *ca = order->table->cells +
		*(const size_t *) pa * width + order->key.column;
	const struct tn_analysis_cell *cb = order->table->cells +
		*(const size_t *) pb * width + order->key.column;
	int c = compare_cells(ca, cb);

	if (order->key.descending && ca->type != TN_CELL_NONE &&
			cb->type != TN_CELL_NONE)
		c = -c;
	return c;
}

/* Put row from[i] of the table at row i, for every i, in place: each
 * cycle of the permutation moves along with one row held aside (from
 * is spent). */
static void permute_rows(struct tn_analysis_table *table, size_t *from)
{
	size_t width = table->column_count;
	size_t row_bytes = width * sizeof(struct tn_analysis_cell);
	struct tn_analysis_cell *held = g_new(struct tn_analysis_cell, width);

	for (size_t start = 0; start < table->row_count; start++) {
		size_t j = start;

		if (from[start] == SIZE_MAX || from[start] == start)
			continue;
		memcpy(held, table->cells + start * width, row_bytes);
		for (;;) {
			size_t k = from[j];

			from[j] = SIZE_MAX;
			if (k == start) {
				memcpy(table->cells + j * width, held,
					row_bytes);
				break;
			}
			memcpy(table->cells + j * width,
				table->cells + k * width, row_bytes);
			j = k;
		}
	}
	g_free(held);
}

void tn_analysis_table_sort(struct tn_analysis_table *table, size_t column,
		bool descending)
{
	struct sort_order order = { table, { column, table->column_count,
		descending } };
	size_t *from;

	if (column >= table->column_count)
		return;
	table->sort_column = column;
	table->sort_descending = descending;
	if (table->row_count < 2)
		return;
	/* The rows' numbers sorted, then the rows moved once: a sort of
	 * the rows themselves would take a copy of them all (GLib's sort
	 * is a merge sort, which keeps equal rows in their order). */
	from = g_new(size_t, table->row_count);
	for (size_t i = 0; i < table->row_count; i++)
		from[i] = i;
	g_qsort_with_data(from, (gint) table->row_count, sizeof(*from),
		compare_rows, &order);
	permute_rows(table, from);
	g_free(from);
}
