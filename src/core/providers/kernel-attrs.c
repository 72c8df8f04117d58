/* kernel-attrs.c - the attributes of the kernel state provider: their
 * quarks, cached; reading and setting their values; the status of a CPU
 * (see kernel-private.h). */
#include <string.h>

#include "kernel-private.h"

const char *const tn_kernel_thread_attr_names[KT_COUNT] = {
	[KT_STATUS] = "Status",
	[KT_EXEC_NAME] = "Exec_name",
	[KT_PPID] = "PPID",
	[KT_SYSTEM_CALL] = "System_call",
	[KT_PRIO] = "Prio",
};

const char *const tn_kernel_cpu_attr_names[KC_COUNT] = {
	[KC_STATUS] = "Status",
	[KC_CURRENT_THREAD] = "Current_thread",
	[KC_IRQS] = "IRQs",
	[KC_SOFT_IRQS] = "Soft_IRQs",
};

const char *const tn_kernel_top_names[TOP_COUNT] = {
	[TOP_THREADS] = "Threads",
	[TOP_CPUS] = "CPUs",
	[TOP_IRQS] = "IRQs",
	[TOP_SOFTIRQS] = "SoftIRQs",
};

int tn_kernel_top(struct tn_kctx *c, enum tn_ktop which)
{
	if (c->k->top[which] < 0)
		c->k->top[which] = tn_state_quark_child(c->state, TN_STATE_ROOT,
			tn_kernel_top_names[which]);
	return c->k->top[which];
}

/* The key of a thread in the cache: tid, or -(cpu + 1) for the idle
 * task of cpu; 0 when there is no such thread. */
static int64_t thread_key(int64_t tid, int64_t cpu)
{
	if (tid < 0 || tid > INT32_MAX)
		return 0;
	if (tid > 0)
		return tid;
	return cpu >= 0 && cpu < K_MAX_CPU ? -(cpu + 1) : 0;
}

/* A thread not seen yet: Threads/<tid> (Threads/0_<cpu> for an idle
 * task) added, and kept under key. */
static struct tn_kthread *new_thread(struct tn_kctx *c, int64_t tid,
		int64_t key)
{
	struct tn_kthread *t = g_new(struct tn_kthread, 1);
	char name[32];

	if (key > 0) {
		tn_kernel_number(name, tid);
	} else {
		name[0] = '0';
		name[1] = '_';
		tn_kernel_number(name + 2, c->cpu);
	}
	t->node = tn_state_quark_child(c->state, tn_kernel_top(c, TOP_THREADS),
		name);
	for (int i = 0; i < KT_COUNT; i++)
		t->attr[i] = K_UNSEEN;
	g_hash_table_insert(c->k->threads, GINT_TO_POINTER((int) key), t);
	return t;
}

/* Threads/<tid> (added), or NULL for a tid that names no thread (tid 0
 * on an unknown CPU, a negative tid). */
struct tn_kthread *tn_kernel_thread(struct tn_kctx *c, int64_t tid)
{
	int64_t key = thread_key(tid, c->cpu);
	size_t slot = (size_t) key & (K_THREAD_MEMO - 1);
	struct tn_kthread *t;

	if (!key)
		return NULL;
	if (c->k->thread_memo[slot].key == key)
		return c->k->thread_memo[slot].t;
	t = g_hash_table_lookup(c->k->threads, GINT_TO_POINTER((int) key));
	if (!t)
		t = new_thread(c, tid, key);
	c->k->thread_memo[slot].key = key;
	c->k->thread_memo[slot].t = t;
	return t;
}

/* An attribute of a thread: its quark, added when add, else -1 when it
 * does not exist. */
int tn_kernel_attr(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a, bool add)
{
	/* One that does not exist is looked up again only to add it: most
	 * threads never get some (a System_call, looked up at every
	 * switch to them). */
	if (t->attr[a] == K_UNSEEN || (t->attr[a] < 0 && add))
		t->attr[a] = add ?
			tn_state_quark_child(c->state, t->node,
				tn_kernel_thread_attr_names[a]) :
			tn_state_quark_child_lookup(c->state, t->node,
				tn_kernel_thread_attr_names[a]);
	return t->attr[a];
}

/* The cache of CPU cpu (< K_MAX_CPU), node -1 until known. */
static struct tn_kcpu *cpu_cache(struct tn_kernel *k, int64_t cpu)
{
	struct tn_kcpu *q;

	if ((guint) cpu >= k->cpus->len)
		g_ptr_array_set_size(k->cpus, (guint) cpu + 1);
	q = g_ptr_array_index(k->cpus, cpu);
	if (!q) {
		q = g_new(struct tn_kcpu, 1);
		q->node = -1;
		q->lines[0] = q->lines[1] = NULL;
		g_ptr_array_index(k->cpus, cpu) = q;
	}
	return q;
}

void tn_kernel_forget_lines(struct tn_kernel *k)
{
	for (guint i = 0; i < k->cpus->len; i++) {
		struct tn_kcpu *q = g_ptr_array_index(k->cpus, i);

		if (!q)
			continue;
		for (int j = 0; j < 2; j++)
			if (q->lines[j])
				g_array_free(q->lines[j], TRUE);
		q->lines[0] = q->lines[1] = NULL;
	}
	for (int j = 0; j < 2; j++)
		if (k->top_lines[j])
			g_array_set_size(k->top_lines[j], 0);
}

const GArray *tn_kernel_cpu_order(struct tn_kctx *c)
{
	struct tn_kernel *k = c->k;
	int cpus = tn_kernel_top(c, TOP_CPUS);
	size_t count = tn_state_get_child_count(c->state, cpus);

	if (k->cpu_order->len > count)
		g_array_set_size(k->cpu_order, 0);
	/* Children come in order and stay: only the new ones are read. */
	while (k->cpu_order->len < count) {
		int node = tn_state_get_child(c->state, cpus,
			k->cpu_order->len);
		struct tn_kcpu_node n = { g_ascii_strtoll(tn_state_get_name(
			c->state, node), NULL, 10), NULL };

		if (n.cpu >= 0 && n.cpu < K_MAX_CPU) {
			n.q = cpu_cache(k, n.cpu);
			if (n.q->node < 0) {
				n.q->node = node;
				for (int i = 0; i < KC_COUNT; i++)
					n.q->attr[i] = K_UNSEEN;
			}
		}
		g_array_append_val(k->cpu_order, n);
	}
	return k->cpu_order;
}

/* CPUs/<c->cpu> (added), or NULL when the event's CPU is unknown. */
struct tn_kcpu *tn_kernel_cpu(struct tn_kctx *c)
{
	struct tn_kcpu *q;
	char name[32];

	if (c->cpu < 0 || c->cpu >= K_MAX_CPU)
		return NULL;
	q = cpu_cache(c->k, c->cpu);
	if (q->node < 0) {
		tn_kernel_number(name, c->cpu);
		q->node = tn_state_quark_child(c->state,
			tn_kernel_top(c, TOP_CPUS), name);
		for (int i = 0; i < KC_COUNT; i++)
			q->attr[i] = K_UNSEEN;
	}
	return q;
}

/* An attribute of a CPU, added. */
int tn_kernel_cpu_attr(struct tn_kctx *c, struct tn_kcpu *q,
		enum tn_kcpu_attr a)
{
	if (q->attr[a] < 0)
		q->attr[a] = tn_state_quark_child(c->state, q->node,
			tn_kernel_cpu_attr_names[a]);
	return q->attr[a];
}

/* The same, or -1 when it does not exist. */
int tn_kernel_cpu_find(struct tn_kctx *c, struct tn_kcpu *q,
		enum tn_kcpu_attr a)
{
	if (q->attr[a] == K_UNSEEN)
		q->attr[a] = tn_state_quark_child_lookup(c->state, q->node,
			tn_kernel_cpu_attr_names[a]);
	return q->attr[a];
}

/* ---- values ---- */

const char *tn_kernel_string_of(struct tn_kctx *c, int quark)
{
	const struct tn_state_value *v;

	if (quark < 0)
		return NULL;
	v = tn_state_get_value(c->state, quark);
	return v->type == TN_STATE_STRING ? v->u.s : NULL;
}

bool tn_kernel_int_of(struct tn_kctx *c, int quark, int32_t *out)
{
	const struct tn_state_value *v;

	if (quark < 0)
		return false;
	v = tn_state_get_value(c->state, quark);
	if (v->type != TN_STATE_INT)
		return false;
	*out = v->u.i;
	return true;
}

bool tn_kernel_is_null(struct tn_kctx *c, int quark)
{
	return quark < 0 ||
		tn_state_get_value(c->state, quark)->type == TN_STATE_NULL;
}

int tn_kernel_set(struct tn_kctx *c, int quark, struct tn_state_value value)
{
	/* most changes set what the attribute holds already: the state
	 * would keep the interval too, after interning the string */
	if (tn_state_value_equal(tn_state_get_value(c->state, quark), &value))
		return 0;
	return tn_state_modify(c->state, quark, &value, &c->at, c->err);
}

void tn_kernel_number(char out[K_NUMBER_SIZE], int64_t n)
{
	char digits[K_NUMBER_SIZE];
	uint64_t u = n < 0 ? -(uint64_t) n : (uint64_t) n;
	size_t len = 0, at = 0;

	do {
		digits[len++] = (char) ('0' + u % 10);
		u /= 10;
	} while (u);
	if (n < 0)
		out[at++] = '-';
	while (len)
		out[at++] = digits[--len];
	out[at] = '\0';
}

/* A string (NULL: null); null in an attribute that does not exist
 * leaves it so. */
int tn_kernel_set_str(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a, const char *s)
{
	int quark = tn_kernel_attr(c, t, a, s != NULL);

	if (quark < 0)
		return 0;
	return tn_kernel_set(c, quark, s ? tn_state_value_string(s) :
		tn_state_value_null());
}

int tn_kernel_set_int(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a, int64_t v)
{
	return tn_kernel_set(c, tn_kernel_attr(c, t, a, true),
		tn_state_value_int((int32_t) v));
}

const char *tn_kernel_str(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a)
{
	return tn_kernel_string_of(c, tn_kernel_attr(c, t, a, false));
}

/* What a thread that gets (back) its CPU does: its system call, if it
 * was in one, else user code. */
const char *tn_kernel_running(struct tn_kctx *c, struct tn_kthread *t)
{
	return tn_kernel_str(c, t, KT_SYSTEM_CALL) ? K_SYSCALL : K_USERMODE;
}

/* The thread running on the event's CPU, or NULL when the trace has
 * not said yet (no sched_switch on that CPU). */
struct tn_kthread *tn_kernel_current(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	int32_t tid;

	if (!q || !tn_kernel_int_of(c,
			tn_kernel_cpu_find(c, q, KC_CURRENT_THREAD), &tid))
		return NULL;
	return tn_kernel_thread(c, tid);
}

/* Whether a child of parent (IRQs or Soft_IRQs of a CPU) has a value
 * other than null (and, with only_running, one that says the softirq
 * runs). */
static bool any_active(struct tn_kctx *c, int parent, bool only_running)
{
	/* Only the children with a value below them are on the live
	 * list: most lines of a CPU are idle. */
	int child = parent < 0 ? -1 :
		tn_state_get_first_live_child(c->state, parent);

	for (; child >= 0;
	     child = tn_state_get_next_live_sibling(c->state, child)) {
		const char *s;

		if (!only_running) {
			if (!tn_kernel_is_null(c, child))
				return true;
			continue;
		}
		s = tn_kernel_string_of(c, child);
		if (s && strcmp(s, K_RAISED))
			return true;
	}
	return false;
}

/* Set the CPU's status from what the state says it does: a handler,
 * then a softirq, then its current thread.  Returns the status (NULL
 * when the current thread is unknown). */
const char *tn_kernel_update_cpu(struct tn_kctx *c, struct tn_kcpu *q,
		int *rc)
{
	const char *status = NULL;
	int32_t tid;

	if (any_active(c, tn_kernel_cpu_find(c, q, KC_IRQS), false))
		status = K_IRQ;
	else if (any_active(c, tn_kernel_cpu_find(c, q, KC_SOFT_IRQS), true))
		status = K_SOFTIRQ;
	else if (tn_kernel_int_of(c,
			tn_kernel_cpu_find(c, q, KC_CURRENT_THREAD), &tid)) {
		struct tn_kthread *t = tn_kernel_thread(c, tid);

		status = tid == 0 ? K_IDLE :
			t ? tn_kernel_running(c, t) : NULL;
	}
	*rc = tn_kernel_set(c, tn_kernel_cpu_attr(c, q, KC_STATUS), status ?
		tn_state_value_string(status) : tn_state_value_null());
	return status;
}
