/* kernel-events.h - what a Linux kernel event is, by its name: the one
 * classifier of the LTTng kernel events that the state provider, the
 * analyses and the sequence diagram's kernel loader share (internal:
 * not part of the public API).
 *
 * Names as LTTng 2.0 and later write them: the scheduler's, the
 * statedump's, irq and softirq handlers (LTTng 2.7 and later prefix the
 * softirq events with irq_), and system calls (syscall_entry_NAME,
 * syscall_exit_NAME and their compat_ twins; before LTTng 2.6,
 * sys_NAME, compat_sys_NAME and one exit_syscall for every call).
 * Userspace events (provider:event) are none of them.
 */
#ifndef TRACENAV_CORE_KERNEL_EVENTS_H
#define TRACENAV_CORE_KERNEL_EVENTS_H

#include <stddef.h>

#include "tracenav/event.h"

enum tn_kevent {
	TN_KEVENT_OTHER,
	TN_KEVENT_SCHED_SWITCH,
	TN_KEVENT_SCHED_WAKING,
	TN_KEVENT_SCHED_WAKEUP,
	TN_KEVENT_SCHED_WAKEUP_NEW,
	TN_KEVENT_PROCESS_FORK,
	TN_KEVENT_PROCESS_EXEC,
	TN_KEVENT_PROCESS_EXIT,
	TN_KEVENT_PROCESS_FREE,
	TN_KEVENT_PI_SETPRIO,
	TN_KEVENT_STATEDUMP_PROCESS,
	TN_KEVENT_IRQ_ENTRY,
	TN_KEVENT_IRQ_EXIT,
	TN_KEVENT_SOFTIRQ_RAISE,
	TN_KEVENT_SOFTIRQ_ENTRY,
	TN_KEVENT_SOFTIRQ_EXIT,
	TN_KEVENT_SYSCALL_ENTRY,
	TN_KEVENT_SYSCALL_EXIT,
	TN_KEVENT_COUNT
};

/* What the events of one name are. */
struct tn_kevent_class {
	enum tn_kevent kind;
	/* A system call's entry or exit: the call's name ("openat"; ""
	 * for exit_syscall). */
	const char *syscall;
};

/* The kind of the events named name; for a system call, *syscall (may
 * be NULL) gets where the call's name starts in name. */
enum tn_kevent tn_kevent_classify(const char *name, const char **syscall);

/* Classes by name, remembered: a few names take most events, each
 * classified once.  One thread at a time. */
struct tn_kevent_memo;

struct tn_kevent_memo *tn_kevent_memo_create(void);
void tn_kevent_memo_destroy(struct tn_kevent_memo *memo);

/* The class of the events named name (NULL: other), valid as long as
 * the memo. */
const struct tn_kevent_class *tn_kevent_memo_get(struct tn_kevent_memo *memo,
		const char *name);

/* The class of ev: from its record when a decoding thread made one
 * (event-record.h), else by its name through memo.  NULL: other. */
const struct tn_kevent_class *tn_kevent_of_event(struct tn_kevent_memo *memo,
		const struct tn_event *ev);

#endif
