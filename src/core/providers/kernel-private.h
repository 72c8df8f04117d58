/* kernel-private.h - what the files of the Linux kernel state provider
 * share: kernel.c (the class, and which events go to which handler),
 * kernel-attrs.c (its attributes: cached quarks, values, the status of
 * a CPU), kernel-sched.c (the scheduler, the statedump and system
 * calls), kernel-irq.c (interrupts and softirqs).  kernel.c lists the
 * attributes. */
#ifndef TRACENAV_CORE_KERNEL_PRIVATE_H
#define TRACENAV_CORE_KERNEL_PRIVATE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "provider-classes.h"
#include "provider-fields.h"
#include "src/core/kernel-events.h"

/* The values of the Status attributes. */
#define K_USERMODE "usermode"
#define K_SYSCALL "syscall"
#define K_INTERRUPTED "interrupted"
#define K_WAIT_CPU "wait_cpu"
#define K_WAIT_BLOCKED "wait_blocked"
#define K_UNKNOWN "unknown"
#define K_IDLE "idle"
#define K_IRQ "irq"
#define K_SOFTIRQ "softirq"
/* and of CPUs/<n>/Soft_IRQs/<vec> and SoftIRQs/<vec> */
#define K_RAISED "raised"
#define K_RUNNING "running"
#define K_RUNNING_RAISED "running_raised"

/* CPU numbers beyond this are taken for garbage. */
#define K_MAX_CPU (1 << 20)
/* Slots of the memo of thread lookups (a power of 2). */
#define K_THREAD_MEMO 64

enum tn_kthread_attr {
	KT_STATUS, KT_EXEC_NAME, KT_PPID, KT_SYSTEM_CALL, KT_PRIO, KT_COUNT,
};

enum tn_kcpu_attr {
	KC_STATUS, KC_CURRENT_THREAD, KC_IRQS, KC_SOFT_IRQS, KC_COUNT,
};

enum tn_ktop {
	TOP_THREADS, TOP_CPUS, TOP_IRQS, TOP_SOFTIRQS, TOP_COUNT,
};

/* Their names ("Status", "Current_thread", "Threads"...). */
extern const char *const tn_kernel_thread_attr_names[KT_COUNT];
extern const char *const tn_kernel_cpu_attr_names[KC_COUNT];
extern const char *const tn_kernel_top_names[TOP_COUNT];

/* Cached quarks: K_UNSEEN until looked up, -1 when looked up and not
 * there (an attribute is added only when a value is set in it, and
 * only through these caches, which reset() empties). */
#define K_UNSEEN (-2)
struct tn_kthread {
	int node;		/* Threads/<tid> */
	int attr[KT_COUNT];
};

/* Lines (irqs, softirq vecs) up to this number have their quarks
 * cached; others are looked up by name each time. */
#define K_LINE_CACHE_MAX 4096

struct tn_kcpu {
	int node;		/* CPUs/<n> */
	int attr[KC_COUNT];
	/* The quarks of IRQs/<irq> and Soft_IRQs/<vec> under it, by
	 * number (int; -2: not looked up, -1: none), or NULL. */
	GArray *lines[2];
};

/* A node of CPUs/ and its number, in the order of the state's
 * children. */
struct tn_kcpu_node {
	int64_t cpu;
	struct tn_kcpu *q;	/* NULL: a name that is no CPU number */
};

/* The provider's data: only quark caches, which reset() empties. */
struct tn_kernel {
	/* What each event is, by its name. */
	struct tn_kevent_memo *kinds;
	int top[TOP_COUNT];
	/* struct tn_kcpu *, by CPU number (NULL: not seen): each CPU
	 * its own block, so that a handler's pointer stays valid when a
	 * CPU with a higher number is added. */
	GPtrArray *cpus;
	/* The quarks of IRQs/<irq> and SoftIRQs/<vec>, as lines above. */
	GArray *top_lines[2];
	/* CPUs/'s children in order (struct tn_kcpu_node). */
	GArray *cpu_order;
	GHashTable *threads;	/* thread key -> struct tn_kthread */
	/* The threads last looked up, by key (0: none): most events are
	 * about a thread of the few on the CPUs. */
	struct {
		int64_t key;
		struct tn_kthread *t;
	} thread_memo[K_THREAD_MEMO];
};

/* What a handler works with: one event. */
struct tn_kctx {
	struct tn_kernel *k;
	struct tn_state *state;
	const struct tn_event *ev;
	struct tn_state_stamp at;
	int64_t cpu;		/* -1 when the trace does not say */
	const char *arg;	/* the system call's name, for its entry */
	struct tn_error *err;
};

/* ---- kernel-attrs.c ---- */

/* The top attribute `which`, added. */
int tn_kernel_top(struct tn_kctx *c, enum tn_ktop which);

/* Threads/<tid> (added; tid 0 is Threads/0_<the event's CPU>), or NULL
 * for a tid that names no thread (negative, or 0 on an unknown CPU). */
struct tn_kthread *tn_kernel_thread(struct tn_kctx *c,
		int64_t tid);

/* An attribute of a thread: its quark, added when add, else -1 when it
 * does not exist. */
int tn_kernel_attr(struct tn_kctx *c, struct tn_kthread *t,
		enum tn_kthread_attr a, bool add);

/* CPUs/<the event's CPU> (added), or NULL when the CPU is unknown. */
struct tn_kcpu *tn_kernel_cpu(struct tn_kctx *c);

/* Forget the cached quarks of the CPUs' and the top lines. */
void tn_kernel_forget_lines(struct tn_kernel *k);

/* Every node of CPUs/ in the state, in the order of its children, with
 * its number and cached quarks (tn_kcpu_node). */
const GArray *tn_kernel_cpu_order(struct tn_kctx *c);

/* An attribute of a CPU, added; or (lookup) -1 when it does not exist. */
int tn_kernel_cpu_attr(struct tn_kctx *c, struct tn_kcpu *q,
		enum tn_kcpu_attr a);
int tn_kernel_cpu_find(struct tn_kctx *c,
		struct tn_kcpu *q, enum tn_kcpu_attr a);

/* The value of quark (may be -1: no value) as a string (NULL when it is
 * not one; interned: valid until the state is cleared) or an int. */
const char *tn_kernel_string_of(struct tn_kctx *c, int quark);
bool tn_kernel_int_of(struct tn_kctx *c, int quark, int32_t *out);
bool tn_kernel_is_null(struct tn_kctx *c, int quark);

/* Set quark to value at the event (nothing to do when it holds that
 * value).  0, or -1 with c->err. */
int tn_kernel_set(struct tn_kctx *c, int quark,
		struct tn_state_value value);

/* n in decimal, the name of an attribute ("42"): a faster snprintf. */
#define K_NUMBER_SIZE 24
void tn_kernel_number(char out[K_NUMBER_SIZE], int64_t n);

/* Set a thread's attribute to the string s (NULL: null; null in an
 * attribute that does not exist leaves it so) or to an int. */
int tn_kernel_set_str(struct tn_kctx *c,
		struct tn_kthread *t, enum tn_kthread_attr a,
		const char *s);
int tn_kernel_set_int(struct tn_kctx *c,
		struct tn_kthread *t, enum tn_kthread_attr a,
		int64_t v);
const char *tn_kernel_str(struct tn_kctx *c,
		struct tn_kthread *t, enum tn_kthread_attr a);

/* What a thread that gets (back) its CPU does: its system call, if it
 * was in one, else user code. */
const char *tn_kernel_running(struct tn_kctx *c,
		struct tn_kthread *t);

/* The thread running on the event's CPU, or NULL when the trace has not
 * said yet (no sched_switch on that CPU). */
struct tn_kthread *tn_kernel_current(struct tn_kctx *c);

/* Set the CPU's status from what the state says it does: a handler,
 * then a softirq, then its current thread.  Returns the status (one of
 * the K_ strings; NULL when the current thread is unknown), *rc 0 or -1
 * with c->err. */
const char *tn_kernel_update_cpu(struct tn_kctx *c,
		struct tn_kcpu *q, int *rc);

/* ---- the handlers: 0, or -1 with c->err ---- */

typedef int (*tn_kernel_handler_fn)(struct tn_kctx *c);

/* kernel-sched.c */
int tn_kernel_on_sched_switch(struct tn_kctx *c);
int tn_kernel_on_sched_wakeup(struct tn_kctx *c);
int tn_kernel_on_sched_process_fork(struct tn_kctx *c);
int tn_kernel_on_sched_process_exec(struct tn_kctx *c);
int tn_kernel_on_sched_process_free(struct tn_kctx *c);
int tn_kernel_on_sched_pi_setprio(struct tn_kctx *c);
int tn_kernel_on_statedump_process_state(struct tn_kctx *c);
int tn_kernel_on_syscall_entry(struct tn_kctx *c);
int tn_kernel_on_syscall_exit(struct tn_kctx *c);

/* kernel-irq.c */
int tn_kernel_on_irq_entry(struct tn_kctx *c);
int tn_kernel_on_irq_exit(struct tn_kctx *c);
int tn_kernel_on_softirq_raise(struct tn_kctx *c);
int tn_kernel_on_softirq_entry(struct tn_kctx *c);
int tn_kernel_on_softirq_exit(struct tn_kctx *c);

#endif
