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

/* The handler of each kind of event (kernel-events.h); NULL for the
 * events that change nothing. */
static const tn_kernel_handler_fn handlers[TN_KEVENT_COUNT] = {
	[TN_KEVENT_SCHED_SWITCH] = tn_kernel_on_sched_switch,
	[TN_KEVENT_SCHED_WAKING] = tn_kernel_on_sched_wakeup,
	[TN_KEVENT_SCHED_WAKEUP] = tn_kernel_on_sched_wakeup,
	[TN_KEVENT_SCHED_WAKEUP_NEW] = tn_kernel_on_sched_wakeup,
	[TN_KEVENT_PROCESS_FORK] = tn_kernel_on_sched_process_fork,
	[TN_KEVENT_PROCESS_EXEC] = tn_kernel_on_sched_process_exec,
	[TN_KEVENT_PROCESS_FREE] = tn_kernel_on_sched_process_free,
	[TN_KEVENT_PI_SETPRIO] = tn_kernel_on_sched_pi_setprio,
	[TN_KEVENT_STATEDUMP_PROCESS] = tn_kernel_on_statedump_process_state,
	[TN_KEVENT_IRQ_ENTRY] = tn_kernel_on_irq_entry,
	[TN_KEVENT_IRQ_EXIT] = tn_kernel_on_irq_exit,
	[TN_KEVENT_SOFTIRQ_RAISE] = tn_kernel_on_softirq_raise,
	[TN_KEVENT_SOFTIRQ_ENTRY] = tn_kernel_on_softirq_entry,
	[TN_KEVENT_SOFTIRQ_EXIT] = tn_kernel_on_softirq_exit,
	[TN_KEVENT_SYSCALL_ENTRY] = tn_kernel_on_syscall_entry,
	[TN_KEVENT_SYSCALL_EXIT] = tn_kernel_on_syscall_exit,
};

#define PAYLOAD(event, path) { event, TN_SCOPE_PAYLOAD, path }

/* What the handlers read (kernel-sched.c, kernel-irq.c). */
static const struct tn_field_want kernel_wants[] = {
	PAYLOAD("sched_switch", "prev_tid"),
	PAYLOAD("sched_switch", "next_tid"),
	PAYLOAD("sched_switch", "prev_state"),
	PAYLOAD("sched_switch", "prev_comm"),
	PAYLOAD("sched_switch", "next_comm"),
	PAYLOAD("sched_switch", "prev_prio"),
	PAYLOAD("sched_switch", "next_prio"),
	PAYLOAD("sched_wakeup*", "tid"),
	PAYLOAD("sched_wakeup*", "prio"),
	PAYLOAD("sched_wakeup*", "comm"),
	PAYLOAD("sched_waking", "tid"),
	PAYLOAD("sched_waking", "prio"),
	PAYLOAD("sched_waking", "comm"),
	PAYLOAD("sched_process_fork", "parent_tid"),
	PAYLOAD("sched_process_fork", "child_tid"),
	PAYLOAD("sched_process_fork", "child_comm"),
	PAYLOAD("sched_process_exec", "filename"),
	PAYLOAD("sched_process_exec", "tid"),
	PAYLOAD("sched_process_free", "tid"),
	PAYLOAD("sched_pi_setprio", "tid"),
	PAYLOAD("sched_pi_setprio", "newprio"),
	PAYLOAD("lttng_statedump_process_state", "name"),
	PAYLOAD("lttng_statedump_process_state", "tid"),
	PAYLOAD("lttng_statedump_process_state", "ppid"),
	PAYLOAD("lttng_statedump_process_state", "mode"),
	PAYLOAD("lttng_statedump_process_state", "status"),
	PAYLOAD("irq_handler_*", "irq"),
	PAYLOAD("softirq_*", "vec"),
	PAYLOAD("irq_softirq_*", "vec"),
	{ NULL, 0, NULL },
};

static bool kernel_applies(const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (handlers[tn_kevent_classify(names[i], NULL)])
			return true;
	return false;
}

static void *kernel_create(void)
{
	struct tn_kernel *k = g_new0(struct tn_kernel, 1);

	k->kinds = tn_kevent_memo_create();
	k->cpus = g_ptr_array_new_with_free_func(g_free);
	k->cpu_order = g_array_new(FALSE, FALSE, sizeof(struct tn_kcpu_node));
	for (int i = 0; i < 2; i++)
		k->top_lines[i] = g_array_new(FALSE, FALSE, sizeof(int));
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
	tn_kevent_memo_destroy(k->kinds);
	tn_kernel_forget_lines(k);
	g_ptr_array_free(k->cpus, TRUE);
	g_array_free(k->cpu_order, TRUE);
	for (int i = 0; i < 2; i++)
		g_array_free(k->top_lines[i], TRUE);
	g_hash_table_destroy(k->threads);
	g_free(k);
}

static void kernel_reset(void *data)
{
	struct tn_kernel *k = data;

	tn_kernel_forget_lines(k);
	g_ptr_array_set_size(k->cpus, 0);
	g_array_set_size(k->cpu_order, 0);
	g_hash_table_remove_all(k->threads);
	memset(k->thread_memo, 0, sizeof(k->thread_memo));
	for (int i = 0; i < TOP_COUNT; i++)
		k->top[i] = -1;
}

static int kernel_handle_event(void *data, struct tn_state *state,
		const struct tn_event *ev, const struct tn_position *pos,
		struct tn_error *err)
{
	struct tn_kernel *k = data;
	const struct tn_kevent_class *cls;
	struct tn_kctx c;

	if (!ev->has_ns)
		return 0;
	cls = tn_kevent_of_event(k->kinds, ev);
	if (!cls || !handlers[cls->kind])
		return 0;
	c = (struct tn_kctx){
		.k = k, .state = state, .ev = ev,
		.at = { .ns = ev->ns, .has_pos = true, .pos = *pos },
		.cpu = tn_event_get_cpu(ev), .arg = cls->syscall, .err = err,
	};
	return handlers[cls->kind](&c);
}

const struct tn_state_provider_class tn_state_provider_kernel = {
	.name = "kernel",
	.description = "Linux kernel: CPUs, threads, IRQs and softirqs "
		"(LTTng 2.x kernel events)",
	.applies = kernel_applies,
	.wants = kernel_wants,
	.create = kernel_create,
	.destroy = kernel_destroy,
	.reset = kernel_reset,
	.handle_event = kernel_handle_event,
};
