/* analysis-syscalls.c - system calls: per name and per thread, the
 * count and the durations (from entry to exit: the intervals of
 * Threads/<tid>/System_call that a system call's exit ends) of the calls
 * that end in the range.  A call whose entry the trace does not hold
 * (it began before tracing did) is left out, as lttng-syscallstats does;
 * an entry while the thread is in a call of the same name (the exit
 * was lost) starts the call again, as there. */
#include <string.h>

#include "src/core/analysis-private.h"

/* One system call of a thread: a thread makes few kinds of calls, and
 * a long trace has many threads, so a small array per thread (the
 * names interned once per accumulator) holds them. */
struct call {
	const char *name;		/* in the accumulator's names */
	struct tn_adur dur;
};

struct thread_calls {
	char *name;			/* the thread's, last seen */
	GArray *calls;			/* struct call */
};

struct syscalls {
	struct tn_analysis_span span;
	enum tn_aevent event;		/* the event being applied */
	GHashTable *by_name;		/* name -> struct tn_adur */
	GStringChunk *names;		/* the calls' names, interned */
	GHashTable *threads;		/* int64 tid -> struct thread_calls */
	/* Entries again into the call a thread is in: when (by tid). */
	GHashTable *again;		/* int64 tid -> int64 ns */
};

static struct tn_adur *dur_of(GHashTable *table, const char *name)
{
	return tn_amap_string(table, name, sizeof(struct tn_adur));
}

static void thread_calls_free(gpointer data)
{
	struct thread_calls *t = data;

	g_free(t->name);
	g_array_free(t->calls, TRUE);
	g_free(t);
}

static struct thread_calls *thread_of(struct syscalls *s, int64_t tid)
{
	struct thread_calls *t = tn_amap_int64(s->threads, tid, sizeof(*t));

	if (!t->calls)
		t->calls = g_array_sized_new(FALSE, FALSE, sizeof(struct call),
			2);
	return t;
}

/* The durations of t's calls named name (added the first time). */
static struct tn_adur *call_of(struct syscalls *s, struct thread_calls *t,
		const char *name)
{
	struct call call = { NULL, { 0 } };

	name = g_string_chunk_insert_const(s->names, name);
	for (guint i = 0; i < t->calls->len; i++)
		if (g_array_index(t->calls, struct call, i).name == name)
			return &g_array_index(t->calls, struct call, i).dur;
	call.name = name;
	g_array_append_val(t->calls, call);
	return &g_array_index(t->calls, struct call, t->calls->len - 1).dur;
}

static void *create(const struct tn_analysis_span *span)
{
	struct syscalls *s = g_new0(struct syscalls, 1);

	s->span = *span;
	s->by_name = tn_amap_new_string(NULL);
	s->names = g_string_chunk_new(1024);
	s->threads = tn_amap_new_int64(thread_calls_free);
	s->again = tn_amap_new_int64(NULL);
	return s;
}

static void destroy(void *acc)
{
	struct syscalls *s = acc;

	g_hash_table_destroy(s->by_name);
	g_string_chunk_free(s->names);
	g_hash_table_destroy(s->threads);
	g_hash_table_destroy(s->again);
	g_free(s);
}

/* An entry by a thread already in a call: note when. */
static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row, enum tn_aevent kind)
{
	struct syscalls *s = acc;
	const struct tn_state_value *current;
	int64_t tid;
	int quark;

	s->event = kind;
	if (s->event != AE_SYSCALL_ENTRY || (quark = tn_aquark_cpu_current(
			&s->span.look->quarks, state,
			tn_event_get_cpu(&row->ev))) < 0)
		return;
	current = tn_state_get_value(state, quark);
	if (current->type != TN_STATE_INT || (tid = current->u.i) <= 0)
		return;
	quark = tn_aquark_thread(&s->span.look->quarks, state, tid,
		AQ_SYSTEM_CALL);
	if (quark >= 0 && tn_state_get_value(state, quark)->type ==
			TN_STATE_STRING)
		g_hash_table_replace(s->again, TN_AKEY(tid),
			g_memdup2(&row->pos.ns, sizeof(row->pos.ns)));
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct syscalls *s = acc;
	struct thread_calls *t;
	double duration;
	int64_t tid, *again;

	if (value->type != TN_STATE_STRING || start->ns == INT64_MIN ||
	    tn_akinds_get(&s->span.look->kinds, state, quark) != AK_THREAD_SYSCALL)
		return;
	tid = tn_akinds_number(&s->span.look->kinds, state, quark);
	again = g_hash_table_lookup(s->again, TN_AKEY(tid));
	if (s->event != AE_SYSCALL_EXIT) {
		/* Another call's entry: the one it was in is over. */
		g_hash_table_remove(s->again, TN_AKEY(tid));
		return;
	}
	duration = (double) (end->ns - (again ? *again : start->ns));
	g_hash_table_remove(s->again, TN_AKEY(tid));
	tn_adur_add(dur_of(s->by_name, value->u.s), duration);
	t = thread_of(s, tid);
	tn_aname_set(&t->name, tn_akind_sibling_string(state, quark, "Exec_name"));
	tn_adur_add(call_of(s, t, value->u.s), duration);
}

static void merge_durs(GHashTable *into, GHashTable *from)
{
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, from);
	while (g_hash_table_iter_next(&iter, &key, &value))
		tn_adur_merge(dur_of(into, key), value);
}

static void merge(void *acc, void *later)
{
	struct syscalls *s = acc, *l = later;
	GHashTableIter iter;
	gpointer key, value;

	merge_durs(s->by_name, l->by_name);
	g_hash_table_iter_init(&iter, l->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct thread_calls *from = value;
		struct thread_calls *t = thread_of(s, TN_AKEY_VALUE(key));

		tn_aname_set(&t->name, from->name);
		for (guint i = 0; i < from->calls->len; i++) {
			const struct call *call = &g_array_index(from->calls,
				struct call, i);

			tn_adur_merge(call_of(s, t, call->name), &call->dur);
		}
	}
}

static const struct tn_analysis_column name_columns[] = {
	{ "SYSCALL", TN_CELL_TEXT }, { "COUNT", TN_CELL_INT },
	{ "MIN", TN_CELL_NS }, { "MEAN", TN_CELL_NS }, { "MAX", TN_CELL_NS },
	{ "STDDEV", TN_CELL_NS },
};

static const struct tn_analysis_column thread_columns[] = {
	{ "TID", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "SYSCALL", TN_CELL_TEXT }, { "COUNT", TN_CELL_INT },
	{ "MIN", TN_CELL_NS }, { "MEAN", TN_CELL_NS }, { "MAX", TN_CELL_NS },
	{ "STDDEV", TN_CELL_NS },
};

/* The rows of the table per thread: one per thread and call name. */
static size_t call_rows(const struct syscalls *s)
{
	GHashTableIter iter;
	gpointer value;
	size_t rows = 0;

	g_hash_table_iter_init(&iter, s->threads);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		rows += ((const struct thread_calls *) value)->calls->len;
	return rows;
}

static void report(void *acc, const struct tn_analysis_span *range,
		struct tn_analysis_result *result)
{
	struct syscalls *s = acc;
	struct tn_analysis_table *names, *threads;
	GHashTableIter iter;
	gpointer key, value;

	(void) range;
	names = tn_atable_add(result, "syscalls", "System calls per name",
		name_columns, G_N_ELEMENTS(name_columns));
	tn_atable_reserve(names, g_hash_table_size(s->by_name));
	g_hash_table_iter_init(&iter, s->by_name);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct tn_analysis_cell *row = tn_atable_row(names);

		tn_acell_text(result, &row[0], key);
		tn_acell_durations(&row[1], value);
	}
	tn_analysis_table_sort(names, 0, false);
	tn_analysis_table_sort(names, 1, true);

	threads = tn_atable_add(result, "threads",
		"System calls per thread", thread_columns,
		G_N_ELEMENTS(thread_columns));
	tn_atable_reserve(threads, call_rows(s));
	g_hash_table_iter_init(&iter, s->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct thread_calls *t = value;

		for (guint i = 0; i < t->calls->len; i++) {
			const struct call *call = &g_array_index(t->calls,
				struct call, i);
			struct tn_analysis_cell *row = tn_atable_row(threads);

			tn_acell_int(&row[0], TN_AKEY_VALUE(key));
			tn_acell_text(result, &row[1], t->name);
			tn_acell_text(result, &row[2], call->name);
			tn_acell_durations(&row[3], &call->dur);
		}
	}
	tn_analysis_table_sort(threads, 2, false);
	tn_analysis_table_sort(threads, 3, true);
	tn_analysis_table_sort(threads, 0, false);
}

const struct tn_analysis_class tn_analysis_syscallstats = {
	"syscallstats",
	"system calls per name (SYSCALL COUNT MIN MEAN MAX STDDEV, ns) and "
	"per thread",
	create, destroy, on_event, on_interval, NULL, merge, report,
};
