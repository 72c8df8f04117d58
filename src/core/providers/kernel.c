/* kernel.c - the Linux kernel state provider: which thread runs on each
 * CPU and what each thread and CPU is doing, from the scheduler, irq,
 * softirq, syscall and statedump events of LTTng 2.x and later.
 *
 * The attributes (doc/tracenav.1, STATE SYSTEM, says what each means):
 *
 *   CPUs/<n>/Status             string: idle, usermode, syscall, irq,
 *                               softirq
 *   CPUs/<n>/Current_thread     int: tid
 *   CPUs/<n>/IRQs/<irq>         int: n while the handler runs
 *   CPUs/<n>/Soft_IRQs/<vec>    string: raised, running, running_raised
 *   Threads/<tid>/Status        string: usermode, syscall, interrupted,
 *                               wait_cpu, wait_blocked, unknown
 *   Threads/<tid>/Exec_name     string
 *   Threads/<tid>/PPID          int
 *   Threads/<tid>/System_call   string: "openat" (no prefix)
 *   Threads/<tid>/Prio          int, as the events give it
 *   IRQs/<irq>                  int: a CPU that runs the handler
 *   SoftIRQs/<vec>              string: the most active state over CPUs
 *
 * Thread 0, the idle task (swapper), has one instance per CPU: its
 * attribute is "Threads/0_<cpu>", as Trace Compass names it.
 *
 * The handlers (kernel-sched.c, kernel-irq.c) follow Trace Compass's
 * kernel analysis; where they differ the function says why.  Everything
 * the provider knows about the past is in the state (state-provider.h):
 * a handler reads what it needs (the current thread of a CPU, a
 * thread's system call) from there.  Quarks are cached, in tables that
 * reset() empties (kernel-attrs.c).  This file: the provider class, and
 * which events go to which handler.
 */
#include <string.h>

#include "kernel-private.h"

/* The handler of the events of one name. */
struct tn_kernel_handler {
	tn_kernel_handler_fn fn;
	char arg[];		/* the system call's name, or "" */
};

static const struct {
	const char *name;
	tn_kernel_handler_fn fn;
} exact_names[] = {
	{ "sched_switch", tn_kernel_on_sched_switch },
	{ "sched_wakeup", tn_kernel_on_sched_wakeup },
	{ "sched_waking", tn_kernel_on_sched_wakeup },
	{ "sched_wakeup_new", tn_kernel_on_sched_wakeup },
	{ "sched_process_fork", tn_kernel_on_sched_process_fork },
	{ "sched_process_exec", tn_kernel_on_sched_process_exec },
	{ "sched_process_free", tn_kernel_on_sched_process_free },
	{ "sched_pi_setprio", tn_kernel_on_sched_pi_setprio },
	{ "lttng_statedump_process_state",
		tn_kernel_on_statedump_process_state },
	{ "irq_handler_entry", tn_kernel_on_irq_entry },
	{ "irq_handler_exit", tn_kernel_on_irq_exit },
	/* LTTng 2.7 and later prefix the softirq events with irq_ */
	{ "softirq_raise", tn_kernel_on_softirq_raise },
	{ "softirq_entry", tn_kernel_on_softirq_entry },
	{ "softirq_exit", tn_kernel_on_softirq_exit },
	{ "irq_softirq_raise", tn_kernel_on_softirq_raise },
	{ "irq_softirq_entry", tn_kernel_on_softirq_entry },
	{ "irq_softirq_exit", tn_kernel_on_softirq_exit },
	/* LTTng 2.0 to 2.5: one exit event for every system call */
	{ "exit_syscall", tn_kernel_on_syscall_exit },
};

static const struct {
	const char *prefix;
	tn_kernel_handler_fn fn;
} prefixes[] = {
	{ "syscall_entry_", tn_kernel_on_syscall_entry },
	{ "compat_syscall_entry_", tn_kernel_on_syscall_entry },
	{ "syscall_exit_", tn_kernel_on_syscall_exit },
	{ "compat_syscall_exit_", tn_kernel_on_syscall_exit },
	/* LTTng 2.0 to 2.5: sys_openat, compat_sys_openat */
	{ "sys_", tn_kernel_on_syscall_entry },
	{ "compat_sys_", tn_kernel_on_syscall_entry },
};

/* The handler of the events named name (g_free it), or NULL. */
static struct tn_kernel_handler *classify(const char *name)
{
	struct tn_kernel_handler *h;

	/* userspace events are provider:event */
	if (strchr(name, ':'))
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(exact_names); i++) {
		if (strcmp(name, exact_names[i].name))
			continue;
		h = g_malloc(sizeof(*h) + 1);
		h->fn = exact_names[i].fn;
		h->arg[0] = '\0';
		return h;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		size_t len = strlen(prefixes[i].prefix);
		size_t rest;

		if (strncmp(name, prefixes[i].prefix, len) || !name[len])
			continue;
		rest = strlen(name + len);
		h = g_malloc(sizeof(*h) + rest + 1);
		h->fn = prefixes[i].fn;
		memcpy(h->arg, name + len, rest + 1);
		return h;
	}
	return NULL;
}

static bool kernel_applies(const char *const *names)
{
	for (size_t i = 0; names[i]; i++) {
		struct tn_kernel_handler *h = classify(names[i]);

		g_free(h);
		if (h)
			return true;
	}
	return false;
}

static void *kernel_create(void)
{
	struct tn_kernel *k = g_new0(struct tn_kernel, 1);

	k->handlers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		g_free);
	k->cpus = g_array_new(FALSE, FALSE, sizeof(struct tn_kcpu));
	k->threads = g_hash_table_new_full(g_direct_hash, g_direct_equal,
		NULL, g_free);
	for (int i = 0; i < TOP_COUNT; i++)
		k->top[i] = -1;
	return k;
}

static void kernel_destroy(void *data)
{
	struct tn_kernel *k = data;

	if (!k)
		return;
	g_hash_table_destroy(k->handlers);
	g_array_free(k->cpus, TRUE);
	g_hash_table_destroy(k->threads);
	g_free(k);
}

static void kernel_reset(void *data)
{
	struct tn_kernel *k = data;

	g_array_set_size(k->cpus, 0);
	g_hash_table_remove_all(k->threads);
	for (int i = 0; i < TOP_COUNT; i++)
		k->top[i] = -1;
}

static int kernel_handle_event(void *data, struct tn_state *state,
		const struct tn_event *ev, const struct tn_position *pos,
		struct tn_error *err)
{
	struct tn_kernel *k = data;
	const char *name = tn_event_get_name(ev);
	size_t slot = ((uintptr_t) name >> 4) % G_N_ELEMENTS(k->recent);
	struct tn_kernel_handler *h;
	gpointer key, found;
	struct tn_kctx c;

	if (!ev->has_ns)
		return 0;
	if (k->recent[slot].at == name && !strcmp(k->recent[slot].name, name)) {
		h = k->recent[slot].handler;
	} else {
		if (g_hash_table_lookup_extended(k->handlers, name, &key,
				&found)) {
			h = found;
		} else {
			h = classify(name);
			key = g_strdup(name);
			g_hash_table_insert(k->handlers, key, h);
		}
		k->recent[slot].at = name;
		k->recent[slot].name = key;
		k->recent[slot].handler = h;
	}
	if (!h)
		return 0;
	c = (struct tn_kctx){
		.k = k, .state = state, .ev = ev,
		.at = { .ns = ev->ns, .has_pos = true, .pos = *pos },
		.cpu = tn_event_get_cpu(ev), .arg = h->arg, .err = err,
	};
	return h->fn(&c);
}

const struct tn_state_provider_class tn_state_provider_kernel = {
	.name = "kernel",
	.description = "Linux kernel: CPUs, threads, IRQs and softirqs "
		"(LTTng 2.x kernel events)",
	.applies = kernel_applies,
	.create = kernel_create,
	.destroy = kernel_destroy,
	.reset = kernel_reset,
	.handle_event = kernel_handle_event,
};
