/* kernel-sched.c - the kernel state provider's handlers of the
 * scheduler's events, of the statedump of the threads that existed
 * before tracing began, and of system calls (see kernel-private.h). */
#include <string.h>

#include "kernel-private.h"

/* The comm of a task holds at most 15 bytes (TASK_COMM_LEN - 1). */
#define COMM_MAX 15

static bool is_running(const char *status)
{
	return status && (!strcmp(status, K_USERMODE) ||
		!strcmp(status, K_SYSCALL) || !strcmp(status, K_INTERRUPTED));
}

/* The status of a thread that sched_switch takes off its CPU, from
 * prev_state: NULL for a dead thread.  The kernel's values moved in
 * Linux 4.14 (TASK_DEAD from 0x40 to 0x80, TASK_PARKED to 0x40), so
 * the labels of an enumeration, when the metadata has them, decide
 * first. */
static const char *switched_out_status(const struct tn_field_value *v)
{
	uint64_t s = v->type == TN_VALUE_SIGNED ? (uint64_t) v->s : v->u;

	/* TASK_RUNNING, maybe with a flag above the states: preempted */
	if ((s & 0xff) == 0)
		return K_WAIT_CPU;
	if (s & 0x3)	/* TASK_INTERRUPTIBLE, TASK_UNINTERRUPTIBLE */
		return K_WAIT_BLOCKED;
	for (uint64_t i = 0; i < v->label_count; i++) {
		const char *label = v->labels[i];

		if (strstr(label, "DEAD") || strstr(label, "ZOMBIE"))
			return NULL;
		if (strstr(label, "PARKED") || strstr(label, "STOPPED") ||
				strstr(label, "TRACED"))
			return K_WAIT_BLOCKED;
	}
	if (s & 0xf0)	/* EXIT_DEAD, EXIT_ZOMBIE, TASK_DEAD (both) */
		return NULL;
	if (s & 0xc)	/* __TASK_STOPPED, __TASK_TRACED */
		return K_WAIT_BLOCKED;
	return K_UNKNOWN;
}

int tn_kernel_on_sched_switch(struct tn_kctx *c)
{
	struct tn_field_value state;
	struct tn_kthread *prev, *next;
	struct tn_kcpu *q = tn_kernel_cpu(c);
	int64_t prev_tid, next_tid, prio;
	const char *comm, *status;
	int rc;

	if (!q || !tn_provider_field_int(c->ev, "prev_tid", &prev_tid) ||
			!tn_provider_field_int(c->ev, "next_tid", &next_tid) ||
			!tn_event_find_field(c->ev, TN_SCOPE_PAYLOAD,
				"prev_state", &state) ||
			(state.type != TN_VALUE_SIGNED &&
			 state.type != TN_VALUE_UNSIGNED))
		return 0;
	prev = tn_kernel_thread(c, prev_tid);
	next = tn_kernel_thread(c, next_tid);
	if (!prev || !next)
		return 0;

	status = switched_out_status(&state);
	if (tn_kernel_set_str(c, prev, KT_STATUS, status) < 0 ||
			tn_kernel_set_str(c, next, KT_STATUS,
				tn_kernel_running(c, next)) < 0)
		return -1;
	if ((comm = tn_provider_field_string(c->ev, "prev_comm")) &&
			tn_kernel_set_str(c, prev, KT_EXEC_NAME, comm) < 0)
		return -1;
	if ((comm = tn_provider_field_string(c->ev, "next_comm")) &&
			tn_kernel_set_str(c, next, KT_EXEC_NAME, comm) < 0)
		return -1;
	if (tn_provider_field_int(c->ev, "prev_prio", &prio) &&
			tn_kernel_set_int(c, prev, KT_PRIO, prio) < 0)
		return -1;
	if (tn_provider_field_int(c->ev, "next_prio", &prio) &&
			tn_kernel_set_int(c, next, KT_PRIO, prio) < 0)
		return -1;
	if (tn_kernel_set(c, tn_kernel_cpu_attr(c, q, KC_CURRENT_THREAD),
			tn_state_value_int((int32_t) next_tid)) < 0)
		return -1;
	tn_kernel_update_cpu(c, q, &rc);
	return rc;
}

/* sched_wakeup, sched_waking, sched_wakeup_new: a thread that does not
 * run waits for a CPU.  Trace Compass also makes an interrupted thread
 * wait; here it still runs (it holds its CPU).  The comm, when the
 * event has it, names a thread seen for the first time. */
int tn_kernel_on_sched_wakeup(struct tn_kctx *c)
{
	struct tn_kthread *t;
	int64_t tid, prio;
	const char *comm;

	if (!tn_provider_field_int(c->ev, "tid", &tid) ||
			!(t = tn_kernel_thread(c, tid)))
		return 0;
	if (!is_running(tn_kernel_str(c, t, KT_STATUS)) &&
			tn_kernel_set_str(c, t, KT_STATUS, K_WAIT_CPU) < 0)
		return -1;
	if (tn_provider_field_int(c->ev, "prio", &prio) &&
			tn_kernel_set_int(c, t, KT_PRIO, prio) < 0)
		return -1;
	if ((comm = tn_provider_field_string(c->ev, "comm")) &&
			tn_kernel_set_str(c, t, KT_EXEC_NAME, comm) < 0)
		return -1;
	return 0;
}

/* A new thread: its parent (the thread that forked it, as Trace Compass
 * has it), its name, and a wait for its first CPU.  It returns from
 * the parent's system call (clone), so it is in that call too. */
int tn_kernel_on_sched_process_fork(struct tn_kctx *c)
{
	struct tn_kthread *parent, *child;
	int64_t parent_tid, child_tid;
	const char *comm, *syscall;

	if (!tn_provider_field_int(c->ev, "parent_tid", &parent_tid) ||
			!tn_provider_field_int(c->ev, "child_tid",
				&child_tid) || child_tid == 0 ||
			!(parent = tn_kernel_thread(c, parent_tid)) ||
			!(child = tn_kernel_thread(c, child_tid)))
		return 0;
	if (tn_kernel_set_int(c, child, KT_PPID, parent_tid) < 0 ||
			tn_kernel_set_str(c, child, KT_STATUS, K_WAIT_CPU) < 0)
		return -1;
	if ((comm = tn_provider_field_string(c->ev, "child_comm")) &&
			tn_kernel_set_str(c, child, KT_EXEC_NAME, comm) < 0)
		return -1;
	syscall = tn_kernel_str(c, parent, KT_SYSTEM_CALL);
	if (syscall && tn_kernel_set_str(c, child, KT_SYSTEM_CALL, syscall) < 0)
		return -1;
	return 0;
}

/* The comm a task gets from exec: the file's base name, cut to what
 * the kernel keeps (cut before a UTF-8 sequence rather than in it). */
static void exec_comm(const char *filename, char out[COMM_MAX + 1])
{
	const char *base = strrchr(filename, '/');
	size_t len;

	base = base && base[1] ? base + 1 : filename;
	len = strlen(base);
	if (len > COMM_MAX) {
		len = COMM_MAX;
		while (len > 0 && ((unsigned char) base[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(out, base, len);
	out[len] = '\0';
}

/* exec gives the thread a new name (Trace Compass waits for the next
 * sched_switch to tell it). */
int tn_kernel_on_sched_process_exec(struct tn_kctx *c)
{
	struct tn_kthread *t;
	const char *filename = tn_provider_field_string(c->ev, "filename");
	char comm[COMM_MAX + 1];
	int64_t tid;

	if (!filename)
		return 0;
	t = tn_provider_field_int(c->ev, "tid", &tid) ?
		tn_kernel_thread(c, tid) : tn_kernel_current(c);
	if (!t)
		return 0;
	exec_comm(filename, comm);
	return tn_kernel_set_str(c, t, KT_EXEC_NAME, comm);
}

/* The thread is gone: all its attributes become null. */
int tn_kernel_on_sched_process_free(struct tn_kctx *c)
{
	struct tn_kthread *t;
	int64_t tid;

	if (!tn_provider_field_int(c->ev, "tid", &tid) || tid == 0 ||
			!(t = tn_kernel_thread(c, tid)))
		return 0;
	return tn_state_remove(c->state, t->node, &c->at, c->err);
}

int tn_kernel_on_sched_pi_setprio(struct tn_kctx *c)
{
	struct tn_kthread *t;
	int64_t tid, prio;

	if (!tn_provider_field_int(c->ev, "tid", &tid) ||
			!tn_provider_field_int(c->ev, "newprio", &prio) ||
			!(t = tn_kernel_thread(c, tid)))
		return 0;
	return tn_kernel_set_int(c, t, KT_PRIO, prio);
}

/* The status of a thread in lttng_statedump_process_state (LTTng's
 * enum lttng_process_status), NULL for a dead one.  A thread in
 * LTTNG_RUN is in a system call when the mode field says so. */
static const char *statedump_status(int64_t status, int64_t mode)
{
	switch (status) {
	case 1:	/* LTTNG_WAIT_FORK: a new thread that has not run yet */
	case 2:	/* LTTNG_WAIT_CPU */
		return K_WAIT_CPU;
	case 5:	/* LTTNG_WAIT */
		return K_WAIT_BLOCKED;
	case 6:	/* LTTNG_RUN */
		return mode == 1 ? K_SYSCALL : K_USERMODE;
	case 7:	/* LTTNG_DEAD */
		return NULL;
	default: /* LTTNG_UNNAMED, LTTNG_EXIT, LTTNG_ZOMBIE */
		return K_UNKNOWN;
	}
}

static bool unset(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a)
{
	return tn_kernel_is_null(c, tn_kernel_attr(c, t, a, false));
}

/* The threads that existed when tracing began.  The statedump runs
 * while the trace records, so what events said already wins: only the
 * attributes still null are set. */
int tn_kernel_on_statedump_process_state(struct tn_kctx *c)
{
	struct tn_kthread *t;
	int64_t tid, ppid, status, mode = -1;
	const char *name = tn_provider_field_string(c->ev, "name");

	if (!tn_provider_field_int(c->ev, "tid", &tid) ||
			!(t = tn_kernel_thread(c, tid)))
		return 0;
	if (name && unset(c, t, KT_EXEC_NAME) &&
			tn_kernel_set_str(c, t, KT_EXEC_NAME, name) < 0)
		return -1;
	if (tn_provider_field_int(c->ev, "ppid", &ppid) &&
			unset(c, t, KT_PPID) &&
			tn_kernel_set_int(c, t, KT_PPID, ppid) < 0)
		return -1;
	tn_provider_field_int(c->ev, "mode", &mode);
	if (tn_provider_field_int(c->ev, "status", &status) &&
			unset(c, t, KT_STATUS) &&
			tn_kernel_set_str(c, t, KT_STATUS,
				statedump_status(status, mode)) < 0)
		return -1;
	return 0;
}

/* System calls: the thread on the CPU and the CPU itself enter one, or
 * get back to user code. */

int tn_kernel_on_syscall_entry(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct tn_kthread *t;

	if (!q)
		return 0;
	if ((t = tn_kernel_current(c)) &&
			(tn_kernel_set_str(c, t, KT_SYSTEM_CALL, c->arg) < 0 ||
			 tn_kernel_set_str(c, t, KT_STATUS, K_SYSCALL) < 0))
		return -1;
	return tn_kernel_set(c, tn_kernel_cpu_attr(c, q, KC_STATUS),
		tn_state_value_string(K_SYSCALL));
}

int tn_kernel_on_syscall_exit(struct tn_kctx *c)
{
	struct tn_kcpu *q = tn_kernel_cpu(c);
	struct tn_kthread *t;

	if (!q)
		return 0;
	if ((t = tn_kernel_current(c)) &&
			(tn_kernel_set_str(c, t, KT_SYSTEM_CALL, NULL) < 0 ||
			 tn_kernel_set_str(c, t, KT_STATUS, K_USERMODE) < 0))
		return -1;
	return tn_kernel_set(c, tn_kernel_cpu_attr(c, q, KC_STATUS),
		tn_state_value_string(K_USERMODE));
}
