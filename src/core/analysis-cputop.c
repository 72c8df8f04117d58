/* analysis-cputop.c - CPU usage: per thread, the time it was the
 * current thread of some CPU (the intervals of CPUs/<n>/Current_thread),
 * and per CPU the time a thread other than the idle one (tid 0, the
 * swapper) ran on it, within the range.
 *
 * As lttng-cputop does, the thread that a CPU's first sched_switch takes
 * off it (when nothing said before which thread it ran) counts as
 * running from the range's start. */
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/providers/provider-fields.h"

struct usage {
	int64_t ns;
	char *name;
	int exec_quark;		/* Threads/<tid>/Exec_name, once found
				 * (0: not yet; else the quark + 1) */
};

/* Slots of the memo of the threads' usages (a power of 2): a CPU
 * switches among a few threads. */
#define USAGE_MEMO 64

struct cputop {
	struct tn_analysis_span span;
	const struct tn_row *row;	/* the event being applied */
	enum tn_aevent kind;		/* what it is */
	GHashTable *threads;		/* int64 tid -> struct usage */
	GHashTable *cpus;		/* int64 cpu -> struct usage */
	struct {
		int64_t tid;		/* 0: none */
		struct usage *u;
	} memo[USAGE_MEMO];
};

static void usage_free(gpointer data)
{
	struct usage *u = data;

	g_free(u->name);
	g_free(u);
}

static struct usage *usage_of(GHashTable *table, int64_t key)
{
	return tn_amap_int64(table, key, sizeof(struct usage));
}

static void *create(const struct tn_analysis_span *span)
{
	struct cputop *c = g_new0(struct cputop, 1);

	c->span = *span;
	c->threads = tn_amap_new_int64(usage_free);
	c->cpus = tn_amap_new_int64(usage_free);
	return c;
}

static void destroy(void *acc)
{
	struct cputop *c = acc;

	g_hash_table_destroy(c->threads);
	g_hash_table_destroy(c->cpus);
	g_free(c);
}

static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row, enum tn_aevent kind)
{
	struct cputop *c = acc;

	(void) state;
	c->row = row;
	c->kind = kind;
}

/* The usage of thread tid (> 0), remembered. */
static struct usage *thread_usage(struct cputop *c, int64_t tid)
{
	size_t slot = (uint64_t) tid & (USAGE_MEMO - 1);

	if (c->memo[slot].tid != tid) {
		c->memo[slot].tid = tid;
		c->memo[slot].u = usage_of(c->threads, tid);
	}
	return c->memo[slot].u;
}

static const char *thread_name(struct cputop *c, const struct tn_state *state,
		struct usage *u, int64_t tid)
{
	int quark = u->exec_quark - 1;
	const struct tn_state_value *value;

	if (quark < 0 || quark >= tn_state_get_attribute_count(state)) {
		quark = tn_aquark_thread(&c->span.look->quarks, state, tid,
			AQ_EXEC_NAME);
		if (quark < 0)
			return NULL;
		u->exec_quark = quark + 1;
	}
	value = tn_state_get_value(state, quark);
	return value->type == TN_STATE_STRING ? value->u.s : NULL;
}

/* tid ran on the CPU of attribute quark from `from` to `to`. */
static void account(struct cputop *c, const struct tn_state *state,
		int quark, int64_t tid, int64_t from, int64_t to)
{
	struct usage *u;
	int64_t cpu;

	if (from < c->span.begin_ns)
		from = c->span.begin_ns;
	if (tid <= 0 || to <= from)
		return;
	u = thread_usage(c, tid);
	u->ns += to - from;
	tn_aname_set(&u->name, thread_name(c, state, u, tid));
	cpu = tn_akinds_number(&c->span.look->kinds, state, quark);
	usage_of(c->cpus, cpu)->ns += to - from;
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct cputop *c = acc;
	int64_t tid;

	if (tn_akinds_get(&c->span.look->kinds, state, quark) != AK_CPU_CURRENT)
		return;
	if (value->type == TN_STATE_INT) {
		account(c, state, quark, value->u.i, start->ns, end->ns);
		return;
	}
	/* The CPU's first switch: what ran before it ran since the range's
	 * start (not the slice's: the slices before had no thread for this
	 * CPU). */
	if (value->type == TN_STATE_NULL && start->ns == INT64_MIN && c->row &&
	    c->kind == AE_SCHED_SWITCH &&
	    tn_provider_field_int(&c->row->ev, "prev_tid", &tid)) {
		int64_t begin = c->span.begin_ns;

		c->span.begin_ns = c->span.range_begin_ns;
		account(c, state, quark, tid, INT64_MIN, end->ns);
		c->span.begin_ns = begin;
	}
}

/* What runs at the slice's end runs until it. */
static void on_end(void *acc, const struct tn_state *state, int64_t end_ns)
{
	struct cputop *c = acc;
	int cpus = tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs");
	size_t count = cpus < 0 ? 0 : tn_state_get_child_count(state, cpus);

	for (size_t i = 0; i < count; i++) {
		int cpu = tn_state_get_child(state, cpus, i);
		int q = tn_state_quark_child_lookup(state, cpu,
			"Current_thread");
		const struct tn_state_value *value;

		if (q < 0)
			continue;
		value = tn_state_get_value(state, q);
		if (value->type == TN_STATE_INT)
			account(c, state, q, value->u.i,
				tn_state_get_start(state, q)->ns, end_ns);
	}
}

static void merge_table(GHashTable *into, GHashTable *from)
{
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, from);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct usage *later = value;
		struct usage *u = usage_of(into, TN_AKEY_VALUE(key));

		u->ns += later->ns;
		tn_aname_set(&u->name, later->name);
	}
}

static void merge(void *acc, void *later)
{
	struct cputop *c = acc, *l = later;

	merge_table(c->threads, l->threads);
	merge_table(c->cpus, l->cpus);
}

static const struct tn_analysis_column thread_columns[] = {
	{ "TID", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "NS", TN_CELL_NS }, { "PERCENT", TN_CELL_PERCENT },
};

static const struct tn_analysis_column cpu_columns[] = {
	{ "CPU", TN_CELL_INT }, { "NS", TN_CELL_NS },
	{ "PERCENT", TN_CELL_PERCENT },
};

static double percent(int64_t ns, const struct tn_analysis_span *range)
{
	int64_t duration = range->end_ns - range->begin_ns;

	return duration > 0 ? 100.0 * (double) ns / (double) duration : 0.0;
}

static void report(void *acc, const struct tn_analysis_span *range,
		struct tn_analysis_result *result)
{
	struct cputop *c = acc;
	struct tn_analysis_table *threads, *cpus;
	GHashTableIter iter;
	gpointer key, value;

	threads = tn_atable_add(result, "threads", "CPU time per thread",
		thread_columns, G_N_ELEMENTS(thread_columns));
	tn_atable_reserve(threads, g_hash_table_size(c->threads));
	g_hash_table_iter_init(&iter, c->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct tn_analysis_cell *row = tn_atable_row(threads);
		struct usage *u = value;

		tn_acell_int(&row[0], TN_AKEY_VALUE(key));
		tn_acell_text(result, &row[1], u->name);
		tn_acell_ns(&row[2], (double) u->ns);
		tn_acell_percent(&row[3], percent(u->ns, range));
	}
	tn_analysis_table_sort(threads, 0, false);
	tn_analysis_table_sort(threads, 2, true);

	cpus = tn_atable_add(result, "cpus", "CPU time per CPU", cpu_columns,
		G_N_ELEMENTS(cpu_columns));
	g_hash_table_iter_init(&iter, c->cpus);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct tn_analysis_cell *row = tn_atable_row(cpus);
		struct usage *u = value;

		tn_acell_int(&row[0], TN_AKEY_VALUE(key));
		tn_acell_ns(&row[1], (double) u->ns);
		tn_acell_percent(&row[2], percent(u->ns, range));
	}
	tn_analysis_table_sort(cpus, 0, false);
}

const struct tn_analysis_class tn_analysis_cputop = {
	"cputop",
	"CPU time per thread (TID NAME NS PERCENT, by NS) and per CPU",
	create, destroy, on_event, on_interval,
	AK_BIT(AK_CPU_CURRENT), on_end, merge, report,
};
