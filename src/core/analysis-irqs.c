/* analysis-irqs.c - interrupts: per hard irq, the count and durations
 * of its handlers (irq_handler_entry to irq_handler_exit: the intervals
 * of CPUs/<n>/IRQs/<irq> that an exit ends); per softirq vector, those
 * of its runs (softirq_entry to softirq_exit) and the latency from its
 * raise to its entry (the intervals of CPUs/<n>/Soft_IRQs/<vec> in the
 * "raised" state that an entry ends).  Handlers and runs that end in
 * the range count, whole. */
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/providers/provider-fields.h"

struct line {
	char *name;
	struct tn_adur durations;
	struct tn_adur raises;		/* softirqs */
};

struct irqs {
	struct tn_analysis_span span;
	enum tn_aevent event;		/* the event being applied */
	GHashTable *hard;		/* int64 irq -> struct line */
	GHashTable *soft;		/* int64 vec -> struct line */
	/* A softirq raised again while it ran (running_raised), by its
	 * line's quark: when its run began, and when it was raised again (its
	 * next raise latency runs from then, not from the run's end). */
	GHashTable *began;		/* quark -> int64 ns */
	GHashTable *raised;		/* quark -> int64 ns */
};

/* The kernel's softirq vectors (include/linux/interrupt.h). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

static void line_free(gpointer data)
{
	struct line *l = data;

	g_free(l->name);
	g_free(l);
}

static struct line *line_of(GHashTable *table, int64_t key)
{
	return tn_amap_int64(table, key, sizeof(struct line));
}

static void *create(const struct tn_analysis_span *span)
{
	struct irqs *s = g_new0(struct irqs, 1);

	s->span = *span;
	s->hard = tn_amap_new_int64(line_free);
	s->soft = tn_amap_new_int64(line_free);
	s->began = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
		g_free);
	s->raised = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
		g_free);
	return s;
}

static void destroy(void *acc)
{
	struct irqs *s = acc;

	g_hash_table_destroy(s->hard);
	g_hash_table_destroy(s->soft);
	g_hash_table_destroy(s->began);
	g_hash_table_destroy(s->raised);
	g_free(s);
}

/* An irq's entry names it. */
static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row, enum tn_aevent kind)
{
	struct irqs *s = acc;
	const char *name;
	struct line *l;
	int64_t irq;

	(void) state;
	s->event = kind;
	if (s->event != AE_IRQ_ENTRY ||
	    !tn_provider_field_int(&row->ev, "irq", &irq) ||
	    !(name = tn_provider_field_string(&row->ev, "name")))
		return;
	l = line_of(s->hard, irq);
	tn_aname_set(&l->name, name);
}

static void on_softirq(struct irqs *s, const struct tn_state *state,
		int quark, const char *value, int64_t start, int64_t end)
{
	int64_t vec = tn_akinds_number(&s->span.look->kinds, state, quark);
	gpointer key = GINT_TO_POINTER(quark);
	int64_t *began, *raised;

	if (!strcmp(value, "raised") && s->event == AE_SOFTIRQ_ENTRY) {
		raised = g_hash_table_lookup(s->raised, key);
		tn_adur_add(&line_of(s->soft, vec)->raises,
			(double) (end - (raised ? *raised : start)));
		g_hash_table_remove(s->raised, key);
	} else if (!strcmp(value, "running") && s->event == AE_SOFTIRQ_EXIT) {
		tn_adur_add(&line_of(s->soft, vec)->durations,
			(double) (end - start));
	} else if (!strcmp(value, "running")) {
		/* Raised again while it runs (now): its run began at
		 * start. */
		g_hash_table_replace(s->began, key,
			g_memdup2(&start, sizeof(start)));
		g_hash_table_replace(s->raised, key,
			g_memdup2(&end, sizeof(end)));
	} else if (!strcmp(value, "running_raised") &&
		   s->event == AE_SOFTIRQ_EXIT) {
		if ((began = g_hash_table_lookup(s->began, key)))
			tn_adur_add(&line_of(s->soft, vec)->durations,
				(double) (end - *began));
		g_hash_table_remove(s->began, key);
	}
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct irqs *s = acc;
	enum tn_akind kind;

	if (start->ns == INT64_MIN || value->type == TN_STATE_NULL)
		return;
	kind = tn_akinds_get(&s->span.look->kinds, state, quark);
	if (kind == AK_CPU_IRQ && s->event == AE_IRQ_EXIT)
		tn_adur_add(&line_of(s->hard, tn_akinds_number(
			&s->span.look->kinds, state, quark))->durations,
			(double) (end->ns - start->ns));
	else if (kind == AK_CPU_SOFTIRQ && value->type == TN_STATE_STRING)
		on_softirq(s, state, quark, value->u.s, start->ns, end->ns);
}

static void merge_lines(GHashTable *into, GHashTable *from)
{
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, from);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct line *later = value;
		struct line *l = line_of(into, TN_AKEY_VALUE(key));

		tn_adur_merge(&l->durations, &later->durations);
		tn_adur_merge(&l->raises, &later->raises);
		tn_aname_set(&l->name, later->name);
	}
}

static void merge(void *acc, void *later)
{
	struct irqs *s = acc, *l = later;

	merge_lines(s->hard, l->hard);
	merge_lines(s->soft, l->soft);
}

static const struct tn_analysis_column hard_columns[] = {
	{ "IRQ", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "COUNT", TN_CELL_INT }, { "MIN", TN_CELL_NS },
	{ "MEAN", TN_CELL_NS }, { "MAX", TN_CELL_NS },
	{ "STDDEV", TN_CELL_NS },
};

static const struct tn_analysis_column soft_columns[] = {
	{ "VEC", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "COUNT", TN_CELL_INT }, { "MIN", TN_CELL_NS },
	{ "MEAN", TN_CELL_NS }, { "MAX", TN_CELL_NS },
	{ "STDDEV", TN_CELL_NS }, { "RAISES", TN_CELL_INT },
	{ "RAISE_MIN", TN_CELL_NS }, { "RAISE_MEAN", TN_CELL_NS },
	{ "RAISE_MAX", TN_CELL_NS }, { "RAISE_STDDEV", TN_CELL_NS },
};

static void report(void *acc, const struct tn_analysis_span *range,
		struct tn_analysis_result *result)
{
	struct irqs *s = acc;
	struct tn_analysis_table *hard, *soft;
	GHashTableIter iter;
	gpointer key, value;

	(void) range;
	hard = tn_atable_add(result, "irqs", "Hard interrupts", hard_columns,
		G_N_ELEMENTS(hard_columns));
	g_hash_table_iter_init(&iter, s->hard);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct line *l = value;
		struct tn_analysis_cell *row;

		if (l->durations.count == 0)
			continue;
		row = tn_atable_row(hard);
		tn_acell_int(&row[0], TN_AKEY_VALUE(key));
		tn_acell_text(result, &row[1], l->name ? l->name : "?");
		tn_acell_durations(&row[2], &l->durations);
	}
	tn_analysis_table_sort(hard, 0, false);

	soft = tn_atable_add(result, "softirqs", "Soft interrupts",
		soft_columns, G_N_ELEMENTS(soft_columns));
	g_hash_table_iter_init(&iter, s->soft);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct line *l = value;
		int64_t vec = TN_AKEY_VALUE(key);
		struct tn_analysis_cell *row = tn_atable_row(soft);

		tn_acell_int(&row[0], vec);
		tn_acell_text(result, &row[1], vec >= 0 && vec < (int64_t)
			G_N_ELEMENTS(softirq_names) ? softirq_names[vec] : "?");
		tn_acell_durations(&row[2], &l->durations);
		tn_acell_durations(&row[7], &l->raises);
	}
	tn_analysis_table_sort(soft, 0, false);
}

const struct tn_analysis_class tn_analysis_irqstats = {
	"irqstats",
	"hard interrupts (IRQ NAME COUNT MIN MEAN MAX STDDEV, ns) and soft "
	"interrupts with their raise latency",
	create, destroy, on_event, on_interval,
	AK_BIT(AK_CPU_IRQ) | AK_BIT(AK_CPU_SOFTIRQ), NULL, merge, report,
};
