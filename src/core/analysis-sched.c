/* analysis-sched.c - scheduling latency: per thread, the time from a
 * wake-up (sched_waking, sched_wakeup or sched_wakeup_new, the first of
 * them) to the sched_switch that gives it a CPU, as lttng-schedtop
 * measures it.  A thread that waits for a CPU because it was preempted
 * (not woken) is not counted.  Counted when the switch is in the range.
 *
 * In the state, both waits are a Threads/<tid>/Status interval in
 * "wait_cpu"; which one it is, is known from the event that began it:
 * a slice notes the wake-ups it sees.  A wait that began before the
 * slice is settled when the slices merge: the slice before says whether
 * its wake-up began it. */
#include <string.h>

#include "src/core/analysis-private.h"

struct latency {
	char *name;
	struct tn_adur lat;
};

/* A switch-in ending a wait that began before the slice. */
struct pending {
	char *key;
	int64_t start, end;
	char *name;
};

struct sched {
	struct tn_analysis_span span;
	struct tn_akinds kinds;
	enum tn_aevent event;		/* the event being applied */
	GHashTable *woken;		/* thread key -> int64 wake-up ns */
	GHashTable *touched;		/* thread keys whose Status changed */
	GArray *pending;		/* struct pending */
	GHashTable *threads;		/* thread key -> struct latency */
};

static void latency_free(gpointer data)
{
	struct latency *l = data;

	g_free(l->name);
	g_free(l);
}

static void *create(const struct tn_analysis_span *span)
{
	struct sched *s = g_new0(struct sched, 1);

	s->span = *span;
	tn_akinds_init(&s->kinds);
	s->woken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		g_free);
	s->touched = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		NULL);
	s->pending = g_array_new(FALSE, FALSE, sizeof(struct pending));
	s->threads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		latency_free);
	return s;
}

static void destroy(void *acc)
{
	struct sched *s = acc;

	tn_akinds_fini(&s->kinds);
	g_hash_table_destroy(s->woken);
	g_hash_table_destroy(s->touched);
	for (guint i = 0; i < s->pending->len; i++) {
		struct pending *p = &g_array_index(s->pending, struct pending,
			i);

		g_free(p->key);
		g_free(p->name);
	}
	g_array_free(s->pending, TRUE);
	g_hash_table_destroy(s->threads);
	g_free(s);
}

static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row)
{
	struct sched *s = acc;

	(void) state;
	s->event = tn_aevent_of(tn_event_get_name(&row->ev));
}

static void add_latency(struct sched *s, const char *key, const char *name,
		int64_t ns)
{
	struct latency *l = g_hash_table_lookup(s->threads, key);

	if (!l) {
		l = g_new0(struct latency, 1);
		g_hash_table_insert(s->threads, g_strdup(key), l);
	}
	if (name && (!l->name || strcmp(l->name, name))) {
		g_free(l->name);
		l->name = g_strdup(name);
	}
	tn_adur_add(&l->lat, (double) ns);
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct sched *s = acc;
	const char *key, *name;
	int64_t *woken;

	if (tn_akinds_get(&s->kinds, state, quark) != AK_THREAD_STATUS)
		return;
	key = tn_akind_name_up(state, quark, 1);
	if (strchr(key, '_'))
		return;		/* an idle thread */
	g_hash_table_add(s->touched, g_strdup(key));
	if (s->event == AE_WAKEUP) {
		/* It did not run: the wake-up makes it wait for a CPU. */
		g_hash_table_replace(s->woken, g_strdup(key),
			g_memdup2(&end->ns, sizeof(end->ns)));
		return;
	}
	woken = g_hash_table_lookup(s->woken, key);
	if (value->type == TN_STATE_STRING && !strcmp(value->u.s, "wait_cpu")
	    && s->event == AE_SCHED_SWITCH) {
		name = tn_akind_sibling_string(state, quark, "Exec_name");
		if (woken && *woken == start->ns) {
			add_latency(s, key, name, end->ns - start->ns);
		} else if (!woken && start->ns != INT64_MIN &&
			   start->ns < s->span.begin_ns) {
			struct pending p = { g_strdup(key), start->ns, end->ns,
				g_strdup(name) };

			g_array_append_val(s->pending, p);
		}
	}
	g_hash_table_remove(s->woken, key);
}

static void merge(void *acc, void *later)
{
	struct sched *s = acc, *l = later;
	GHashTableIter iter;
	gpointer key, value;

	/* The waits the later slice found begun before it. */
	for (guint i = 0; i < l->pending->len; i++) {
		struct pending *p = &g_array_index(l->pending, struct pending,
			i);
		int64_t *woken = g_hash_table_lookup(s->woken, p->key);

		if (woken && *woken == p->start)
			add_latency(s, p->key, p->name, p->end - p->start);
	}
	/* What is still woken at the later slice's end. */
	g_hash_table_iter_init(&iter, l->touched);
	while (g_hash_table_iter_next(&iter, &key, NULL))
		g_hash_table_remove(s->woken, key);
	g_hash_table_iter_init(&iter, l->woken);
	while (g_hash_table_iter_next(&iter, &key, &value))
		g_hash_table_replace(s->woken, g_strdup(key),
			g_memdup2(value, sizeof(int64_t)));
	g_hash_table_iter_init(&iter, l->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct latency *from = value;
		struct latency *t = g_hash_table_lookup(s->threads, key);

		if (!t) {
			t = g_new0(struct latency, 1);
			g_hash_table_insert(s->threads, g_strdup(key), t);
		}
		if (from->name) {
			g_free(t->name);
			t->name = g_strdup(from->name);
		}
		tn_adur_merge(&t->lat, &from->lat);
	}
}

static const struct tn_analysis_column columns[] = {
	{ "TID", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "COUNT", TN_CELL_INT }, { "MIN", TN_CELL_NS },
	{ "MEAN", TN_CELL_NS }, { "MAX", TN_CELL_NS },
	{ "STDDEV", TN_CELL_NS },
};

static void report(void *acc, const struct tn_analysis_span *range,
		struct tn_analysis_result *result)
{
	struct sched *s = acc;
	struct tn_analysis_table *table;
	GHashTableIter iter;
	gpointer key, value;

	(void) range;
	table = tn_atable_add(result, "threads",
		"Wake-up to switch-in latency per thread", columns,
		G_N_ELEMENTS(columns));
	g_hash_table_iter_init(&iter, s->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct latency *l = value;
		struct tn_analysis_cell *row = tn_atable_row(table);

		tn_acell_int(&row[0], tn_athread_tid(key));
		tn_acell_text(result, &row[1], l->name);
		tn_acell_durations(&row[2], &l->lat);
	}
	tn_analysis_table_sort(table, 0, false);
	tn_analysis_table_sort(table, 5, true);
}

const struct tn_analysis_class tn_analysis_schedtop = {
	"schedtop",
	"wake-up to switch-in latency per thread (TID NAME COUNT MIN MEAN "
	"MAX STDDEV, ns), by MAX",
	create, destroy, on_event, on_interval, NULL, merge, report,
};
