/* analysis-sched.c - scheduling latency: per thread, the time from a
 * wake-up (sched_waking, sched_wakeup or sched_wakeup_new, the first of
 * them) to the sched_switch that gives it a CPU, as lttng-schedtop
 * measures it.  A thread that waits for a CPU because it was preempted
 * (not woken) is not counted.  Counted when the wake-up and the switch
 * are in the range, and the thread did not wait for a CPU since before
 * the range.
 *
 * In the state, both waits are a Threads/<tid>/Status interval in
 * "wait_cpu" that a sched_switch ends; a slice notes the wake-ups it
 * sees of threads that do not run (a preempted thread may be woken
 * too).  A wait that began before the slice is settled when the slices
 * merge: the slice before says whether a wake-up came during it. */
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/providers/provider-fields.h"

struct latency {
	char *name;
	struct tn_adur lat;
};

/* A wake-up noted by a slice.  It may come after another one in an
 * earlier slice, when the thread's wait began before the slice
 * (fallback): the earlier one counts then. */
struct wakeup {
	int64_t ns;
	bool fallback;
};

/* A switch-in ending a wait that began before the slice: its latency
 * runs from the wake-up the slices before saw, else from the fallback
 * one (has_fallback). */
struct pending {
	int64_t tid;
	int64_t end;
	bool has_fallback;
	int64_t fallback;
	char *name;
};

/* Slots of the count of wake-ups noted per tid's low bits (a power of
 * 2). */
#define WOKEN_FILTER 4096

struct sched {
	struct tn_analysis_span span;
	enum tn_aevent event;		/* the event being applied */
	GHashTable *woken;		/* int64 tid -> struct wakeup */
	/* How many tids of woken end in each slot's bits: the Status
	 * changes of threads not woken (most of them) skip the map. */
	guint32 woken_filter[WOKEN_FILTER];
	/* The tids whose Status changed (not kept in the range's first
	 * slice: only a merge into an earlier one needs them). */
	GHashTable *touched;
	GArray *pending;		/* struct pending */
	GHashTable *threads;		/* int64 tid -> struct latency */
};

static void latency_free(gpointer data)
{
	struct latency *l = data;

	g_free(l->name);
	g_free(l);
}

static guint32 *filter_slot(struct sched *s, int64_t tid)
{
	return &s->woken_filter[(uint64_t) tid & (WOKEN_FILTER - 1)];
}

static struct wakeup *woken_get(struct sched *s, int64_t tid)
{
	if (*filter_slot(s, tid) == 0)
		return NULL;
	return g_hash_table_lookup(s->woken, TN_AKEY(tid));
}

static void woken_put(struct sched *s, int64_t tid, const struct wakeup *w)
{
	if (g_hash_table_replace(s->woken, TN_AKEY(tid),
			g_memdup2(w, sizeof(*w))))
		(*filter_slot(s, tid))++;
}

static void woken_drop(struct sched *s, int64_t tid)
{
	if (g_hash_table_remove(s->woken, TN_AKEY(tid)))
		(*filter_slot(s, tid))--;
}

static void *create(const struct tn_analysis_span *span)
{
	struct sched *s = g_new0(struct sched, 1);

	s->span = *span;
	s->woken = tn_amap_new_int64(NULL);
	s->touched = g_hash_table_new(g_direct_hash, g_direct_equal);
	s->pending = g_array_new(FALSE, FALSE, sizeof(struct pending));
	s->threads = tn_amap_new_int64(latency_free);
	return s;
}

static void destroy(void *acc)
{
	struct sched *s = acc;

	g_hash_table_destroy(s->woken);
	g_hash_table_destroy(s->touched);
	for (guint i = 0; i < s->pending->len; i++) {
		struct pending *p = &g_array_index(s->pending, struct pending,
			i);

		g_free(p->name);
	}
	g_array_free(s->pending, TRUE);
	g_hash_table_destroy(s->threads);
	g_free(s);
}

static void add_latency(struct sched *s, int64_t tid, const char *name,
		int64_t ns)
{
	struct latency *l = tn_amap_int64(s->threads, tid, sizeof(*l));

	tn_aname_set(&l->name, name);
	tn_adur_add(&l->lat, (double) ns);
}

static bool is_running(const char *status)
{
	return status && (!strcmp(status, "usermode") ||
		!strcmp(status, "syscall") || !strcmp(status, "interrupted"));
}

/* A wake-up of a thread that does not run: the first one since it last
 * ran starts its latency (whether it was blocked or preempted). */
static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row, enum tn_aevent kind)
{
	struct sched *s = acc;
	int64_t tid;
	int quark;
	const struct tn_state_value *status;
	struct wakeup wakeup;

	s->event = kind;
	if (s->event != AE_WAKEUP ||
	    !tn_provider_field_int(&row->ev, "tid", &tid) || tid <= 0)
		return;
	if (woken_get(s, tid))
		return;
	quark = tn_aquark_thread(&s->span.look->quarks, state, tid, AQ_STATUS);
	status = quark < 0 ? NULL : tn_state_get_value(state, quark);
	if (status && status->type == TN_STATE_STRING &&
	    (is_running(status->u.s) || (!strcmp(status->u.s, "wait_cpu") &&
	     tn_state_get_start(state, quark)->ns < s->span.range_begin_ns)))
		return;		/* running, or waiting since before the range */
	wakeup.ns = row->pos.ns;
	/* Waiting since before the slice, unchanged in it (the range's
	 * first slice: what came before the range does not count). */
	wakeup.fallback = !s->span.first && quark >= 0 &&
		!g_hash_table_contains(s->touched, TN_AKEY(tid)) &&
		tn_state_get_start(state, quark)->ns < s->span.begin_ns;
	woken_put(s, tid, &wakeup);
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct sched *s = acc;
	const char *name;
	struct wakeup *woken;
	int64_t tid;

	/* The wake-up itself (noted before it was applied). */
	if (s->event == AE_WAKEUP ||
	    tn_akinds_get(&s->span.look->kinds, state, quark) != AK_THREAD_STATUS)
		return;
	tid = tn_akinds_number(&s->span.look->kinds, state, quark);
	if (tid == 0)
		return;		/* an idle thread (0_3) */
	if (!s->span.first)
		g_hash_table_add(s->touched, TN_AKEY(tid));
	woken = woken_get(s, tid);
	if (value->type == TN_STATE_STRING && !strcmp(value->u.s, "wait_cpu")
	    && s->event == AE_SCHED_SWITCH) {
		name = tn_akind_sibling_string(state, quark, "Exec_name");
		if (woken && !woken->fallback) {
			add_latency(s, tid, name, end->ns - woken->ns);
		} else if (woken || (start->ns != INT64_MIN &&
			   start->ns < s->span.begin_ns)) {
			struct pending p = { tid, end->ns,
				woken != NULL, woken ? woken->ns : 0,
				g_strdup(name) };

			g_array_append_val(s->pending, p);
		}
	}
	if (woken)
		woken_drop(s, tid);
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
		struct wakeup *woken = woken_get(s, p->tid);

		if (woken)
			add_latency(s, p->tid, p->name, p->end - woken->ns);
		else if (p->has_fallback)
			add_latency(s, p->tid, p->name, p->end - p->fallback);
	}
	/* What is still woken at the later slice's end: a fallback only
	 * when the slices before saw no wake-up. */
	g_hash_table_iter_init(&iter, l->touched);
	while (g_hash_table_iter_next(&iter, &key, NULL))
		woken_drop(s, TN_AKEY_VALUE(key));
	g_hash_table_iter_init(&iter, l->woken);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct wakeup w = *(struct wakeup *) value;

		if (w.fallback && woken_get(s, TN_AKEY_VALUE(key)))
			continue;
		w.fallback = false;
		woken_put(s, TN_AKEY_VALUE(key), &w);
	}
	g_hash_table_iter_init(&iter, l->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct latency *from = value;
		struct latency *t = tn_amap_int64(s->threads,
			TN_AKEY_VALUE(key), sizeof(*t));

		tn_aname_set(&t->name, from->name);
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
	tn_atable_reserve(table, g_hash_table_size(s->threads));
	g_hash_table_iter_init(&iter, s->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct latency *l = value;
		struct tn_analysis_cell *row = tn_atable_row(table);

		tn_acell_int(&row[0], TN_AKEY_VALUE(key));
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
	create, destroy, on_event, on_interval,
	AK_BIT(AK_THREAD_STATUS), NULL, merge, report,
};
