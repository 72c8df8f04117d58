/* kernel-irq.c - the kernel state provider's handlers of interrupts
 * and softirqs: per CPU, and summed up over CPUs in IRQs/<irq> and
 * SoftIRQs/<vec> (see kernel-private.h). */
#include <string.h>

#include "kernel-private.h"

/* An irq or a softirq vec: its number and the name of its attributes. */
struct line {
	int64_t number;
	char name[K_NUMBER_SIZE];
};

/* The line of the event's field `field`; false when it has none. */
static bool line_of(struct tn_kctx *c, const char *field, struct line *l)
{
	if (!tn_provider_field_int(c->ev, field, &l->number))
		return false;
	tn_kernel_number(l->name, l->number);
	return true;
}

/* The cache slot of line number n in *cache (made as needed), or NULL
 * for a number too large to cache. */
static int *slot_of(GArray **cache, int64_t n)
{
	guint old;

	if (n < 0 || n >= K_LINE_CACHE_MAX)
		return NULL;
	if (!*cache)
		*cache = g_array_new(FALSE, FALSE, sizeof(int));
	old = (*cache)->len;
	if ((guint) n >= old) {
		g_array_set_size(*cache, (guint) n + 1);
		for (guint i = old; i <= (guint) n; i++)
			g_array_index(*cache, int, i) = -2;
	}
	return &g_array_index(*cache, int, n);
}

/* CPUs/<cpu>/<IRQs or Soft_IRQs>/<line>: added when add, else its quark
 * or -1 when it does not exist. */
static int cpu_line(struct tn_kctx *c, struct tn_kcpu *q,
		enum tn_kcpu_attr a, const struct line *l, bool add)
{
	int *slot = slot_of(&q->lines[a - KC_IRQS], l->number);
	int lines, quark;

	if (slot && (*slot >= 0 || (*slot == -1 && !add)))
		return *slot;
	if (add) {
		quark = tn_state_quark_child(c->state,
			tn_kernel_cpu_attr(c, q, a), l->name);
	} else {
		lines = tn_kernel_cpu_find(c, q, a);
		quark = lines < 0 ? -1 : tn_state_quark_child_lookup(c->state,
			lines, l->name);
	}
	if (slot)
		*slot = quark;
	return quark;
}

/* <IRQs or SoftIRQs>/<line>, added. */
static int top_line(struct tn_kctx *c, enum tn_ktop which,
		const struct line *l)
{
	int *slot = slot_of(&c->k->top_lines[which - TOP_IRQS], l->number);
	int quark;

	if (slot && *slot >= 0)
		return *slot;
	quark = tn_state_quark_child(c->state, tn_kernel_top(c, which),
		l->name);
	if (slot)
		*slot = quark;
	return quark;
}

/* The line `l` (an irq or a vec) of every CPU that has it. */
typedef void (*line_visit)(struct tn_kctx *c, int64_t cpu, int quark,
		void *data);

static void each_cpu_line(struct tn_kctx *c, enum tn_kcpu_attr a,
		const struct line *l, line_visit visit, void *data)
{
	const GArray *order = tn_kernel_cpu_order(c);

	for (guint i = 0; i < order->len; i++) {
		const struct tn_kcpu_node *n = &g_array_index(order,
			struct tn_kcpu_node, i);
		int line, lines;

		if (n->q) {
			line = cpu_line(c, n->q, a, l, false);
		} else {
			lines = tn_state_quark_child_lookup(c->state,
				tn_state_get_child(c->state, tn_kernel_top(c,
					TOP_CPUS), i), tn_kernel_cpu_attr_names[a]);
			line = lines < 0 ? -1 : tn_state_quark_child_lookup(
				c->state, lines, l->name);
		}
		if (line >= 0)
			visit(c, n->cpu, line, data);
	}
}

static void find_irq_cpu(struct tn_kctx *c, int64_t cpu, int quark,
		void *data)
{
	int64_t *found = data;

	if (*found < 0 && !tn_kernel_is_null(c, quark))
		*found = cpu;
}

/* The thread on the CPU is interrupted; the CPU handles an irq. */
int tn_kernel_on_irq_entry(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct tn_kthread *t;
	struct line irq;
	int rc;

	if (!q || !line_of(c, "irq", &irq))
		return 0;
	if (tn_kernel_set(c, cpu_line(c, q, KC_IRQS, &irq, true),
			tn_state_value_int((int32_t) c->cpu)) < 0)
		return -1;
	if ((t = tn_kernel_current(c)) &&
			tn_kernel_set_str(c, t, KT_STATUS, K_INTERRUPTED) < 0)
		return -1;
	tn_kernel_update_cpu(c, q, &rc);
	if (rc < 0)
		return -1;
	return tn_kernel_set(c, top_line(c, TOP_IRQS, &irq),
		tn_state_value_int((int32_t) c->cpu));
}

/* Back to what the CPU did; the thread runs again unless another
 * handler or a softirq still holds the CPU (Trace Compass sets it
 * running at once). */
static int after_interrupt(struct tn_kctx *c, struct tn_kcpu *q)
{
	struct tn_kthread *t;
	const char *status;
	int rc;

	status = tn_kernel_update_cpu(c, q, &rc);
	if (rc < 0)
		return -1;
	if (status && (!strcmp(status, K_IRQ) || !strcmp(status, K_SOFTIRQ)))
		return 0;
	if ((t = tn_kernel_current(c)) &&
			tn_kernel_set_str(c, t, KT_STATUS,
				tn_kernel_running(c, t)) < 0)
		return -1;
	return 0;
}

int tn_kernel_on_irq_exit(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct line irq;
	int64_t found = -1;

	if (!q || !line_of(c, "irq", &irq))
		return 0;
	if (tn_kernel_set(c, cpu_line(c, q, KC_IRQS, &irq, true),
			tn_state_value_null()) < 0 || after_interrupt(c, q) < 0)
		return -1;
	each_cpu_line(c, KC_IRQS, &irq, find_irq_cpu, &found);
	return tn_kernel_set(c, top_line(c, TOP_IRQS, &irq), found < 0 ?
		tn_state_value_null() : tn_state_value_int((int32_t) found));
}

/* How active a softirq state is, for the summary over CPUs. */
static int softirq_rank(const char *s)
{
	if (!s)
		return 0;
	if (!strcmp(s, K_RAISED))
		return 1;
	if (!strcmp(s, K_RUNNING))
		return 2;
	return 3;	/* running_raised */
}

static void find_softirq_max(struct tn_kctx *c, int64_t cpu, int quark,
		void *data)
{
	int *max = data;
	int rank = softirq_rank(tn_kernel_string_of(c, quark));

	(void) cpu;
	if (rank > *max)
		*max = rank;
}

/* Set CPUs/<cpu>/Soft_IRQs/<vec> to s, and SoftIRQs/<vec> to the most
 * active state of that vec over all CPUs (as Trace Compass's
 * aggregate). */
static int set_softirq(struct tn_kctx *c, struct tn_kcpu *q,
		const struct line *vec, const char *s)
{
	static const char *const by_rank[] = {
		NULL, K_RAISED, K_RUNNING, K_RUNNING_RAISED,
	};
	int max = 0;

	if (tn_kernel_set(c, cpu_line(c, q, KC_SOFT_IRQS, vec, true),
			s ? tn_state_value_string(s) :
			tn_state_value_null()) < 0)
		return -1;
	each_cpu_line(c, KC_SOFT_IRQS, vec, find_softirq_max, &max);
	return tn_kernel_set(c, top_line(c, TOP_SOFTIRQS, vec), max ?
		tn_state_value_string(by_rank[max]) : tn_state_value_null());
}

/* What softirq vec does on the CPU now (NULL: nothing). */
static const char *cpu_softirq(struct tn_kctx *c, struct tn_kcpu *q,
		const struct line *vec)
{
	return tn_kernel_string_of(c, cpu_line(c, q, KC_SOFT_IRQS, vec,
		false));
}

int tn_kernel_on_softirq_raise(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct line vec;
	const char *now;

	if (!q || !line_of(c, "vec", &vec))
		return 0;
	now = cpu_softirq(c, q, &vec);
	return set_softirq(c, q, &vec, softirq_rank(now) >= 2 ?
		K_RUNNING_RAISED : K_RAISED);
}

int tn_kernel_on_softirq_entry(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct line vec;
	struct tn_kthread *t;
	int rc;

	if (!q || !line_of(c, "vec", &vec))
		return 0;
	if (set_softirq(c, q, &vec, K_RUNNING) < 0)
		return -1;
	if ((t = tn_kernel_current(c)) &&
			tn_kernel_set_str(c, t, KT_STATUS, K_INTERRUPTED) < 0)
		return -1;
	tn_kernel_update_cpu(c, q, &rc);
	return rc;
}

int tn_kernel_on_softirq_exit(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct line vec;
	const char *now;

	if (!q || !line_of(c, "vec", &vec))
		return 0;
	now = cpu_softirq(c, q, &vec);
	/* raised again while it ran: it runs again later */
	if (set_softirq(c, q, &vec,
			softirq_rank(now) == 3 ? K_RAISED : NULL) < 0)
		return -1;
	return after_interrupt(c, q);
}
