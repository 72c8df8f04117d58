/* analysis-syscalls.c - system calls: per name and per thread, the
 * count and the durations (from entry to exit: the intervals of
 * Threads/<tid>/System_call that a system call's exit ends) of the calls
 * that end in the range.  A call whose entry the trace does not hold
 * (it began before tracing did) is left out, as lttng-syscallstats does;
 * an entry while the thread is in a call of the same name (the exit
 * was lost) starts the call again, as there. */
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/pointer-hash.h"

/* One system call of a thread: a thread makes few kinds of calls, and
 * a long trace has many threads, so a small array per thread (the
 * names interned once per accumulator) holds them. */
struct call {
	const char *name;		/* in the accumulator's names */
	struct tn_adur dur;
};

struct thread_calls {
	char *name;			/* the thread's, last seen */
	struct call *calls;
	guint count, cap;
	/* Its Exec_name (a sibling of System_call), once found: -1. */
	int exec_quark;
	/* An entry again into the call it is in: when. */
	bool has_again;
	int64_t again_ns;
};

/* What a call's name (the state's string) stands for here, remembered
 * by where the string is (checked by its text: the place may hold
 * another one later). */
#define NAME_MEMO 64
struct name_memo {
	const char *given;
	const char *name;		/* in the accumulator's names */
	struct tn_adur *dur;		/* of the name, in by_name */
};

struct syscalls {
	struct tn_analysis_span span;
	enum tn_aevent event;		/* the event being applied */
	GHashTable *by_name;		/* name -> struct tn_adur */
	GStringChunk *names;		/* the calls' names, interned */
	GHashTable *threads;		/* int64 tid -> struct thread_calls */
	struct name_memo memo[NAME_MEMO];
};

static struct tn_adur *dur_of(GHashTable *table, const char *name)
{
	return tn_amap_string(table, name, sizeof(struct tn_adur));
}

/* The call name and its durations of a name the state holds. */
static const struct name_memo *name_of(struct syscalls *s, const char *given)
{
	struct name_memo *m = &s->memo[tn_pointer_slot(given, NAME_MEMO)];

	if (m->given != given || strcmp(m->name, given) != 0) {
		m->given = given;
		m->name = g_string_chunk_insert_const(s->names, given);
		m->dur = dur_of(s->by_name, given);
	}
	return m;
}

static void thread_calls_free(gpointer data)
{
	struct thread_calls *t = data;

	g_free(t->name);
	g_free(t->calls);
	g_free(t);
}

static struct thread_calls *thread_of(struct syscalls *s, int64_t tid)
{
	struct thread_calls *t = g_hash_table_lookup(s->threads,
		TN_AKEY(tid));

	if (!t) {
		t = g_new0(struct thread_calls, 1);
		t->exec_quark = -1;
		g_hash_table_insert(s->threads, TN_AKEY(tid), t);
	}
	return t;
}

/* The durations of t's calls named name (interned in s->names; added
 * the first time). */
static struct tn_adur *call_of(struct thread_calls *t, const char *name)
{
	for (guint i = 0; i < t->count; i++)
		if (t->calls[i].name == name)
			return &t->calls[i].dur;
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 2;
		t->calls = g_renew(struct call, t->calls, t->cap);
	}
	t->calls[t->count] = (struct call) { name, { 0 } };
	return &t->calls[t->count++].dur;
}

/* The name of the thread whose System_call is quark, its Exec_name
 * found once. */
static const char *exec_name(struct thread_calls *t,
		const struct tn_state *state, int quark)
{
	const struct tn_state_value *value;
	int parent = tn_state_get_parent(state, quark);

	if (t->exec_quark < 0 ||
	    t->exec_quark >= tn_state_get_attribute_count(state) ||
	    tn_state_get_parent(state, t->exec_quark) != parent)
		t->exec_quark = tn_state_quark_child_lookup(state, parent,
			"Exec_name");
	if (t->exec_quark < 0)
		return NULL;
	value = tn_state_get_value(state, t->exec_quark);
	return value->type == TN_STATE_STRING ? value->u.s : NULL;
}

static void *create(const struct tn_analysis_span *span)
{
	struct syscalls *s = g_new0(struct syscalls, 1);

	s->span = *span;
	s->by_name = tn_amap_new_string(NULL);
	s->names = g_string_chunk_new(1024);
	s->threads = tn_amap_new_int64(thread_calls_free);
	return s;
}

static void destroy(void *acc)
{
	struct syscalls *s = acc;

	g_hash_table_destroy(s->by_name);
	g_string_chunk_free(s->names);
	g_hash_table_destroy(s->threads);
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
			TN_STATE_STRING) {
		struct thread_calls *t = thread_of(s, tid);

		t->has_again = true;
		t->again_ns = row->pos.ns;
	}
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct syscalls *s = acc;
	const struct name_memo *name;
	struct thread_calls *t;
	double duration;

	if (value->type != TN_STATE_STRING || start->ns == INT64_MIN ||
	    tn_akinds_get(&s->span.look->kinds, state, quark) != AK_THREAD_SYSCALL)
		return;
	t = thread_of(s, tn_akinds_number(&s->span.look->kinds, state,
		quark));
	if (s->event != AE_SYSCALL_EXIT) {
		/* Another call's entry: the one it was in is over. */
		t->has_again = false;
		return;
	}
	duration = (double) (end->ns - (t->has_again ? t->again_ns :
		start->ns));
	t->has_again = false;
	name = name_of(s, value->u.s);
	tn_adur_add(name->dur, duration);
	tn_aname_set(&t->name, exec_name(t, state, quark));
	tn_adur_add(call_of(t, name->name), duration);
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
		for (guint i = 0; i < from->count; i++)
			tn_adur_merge(call_of(t, g_string_chunk_insert_const(
				s->names, from->calls[i].name)),
				&from->calls[i].dur);
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
		rows += ((const struct thread_calls *) value)->count;
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

		for (guint i = 0; i < t->count; i++) {
			const struct call *call = &t->calls[i];
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
	create, destroy, on_event, on_interval,
	AK_BIT(AK_THREAD_SYSCALL), NULL, merge, report,
};
