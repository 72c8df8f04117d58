/* kernel-events.c - the Linux kernel events by name (see
 * kernel-events.h). */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "pointer-hash.h"
#include "event-record-data.h"
#include "kernel-events.h"

static const struct {
	const char *name;
	enum tn_kevent kind;
} exact_names[] = {
	{ "sched_switch", TN_KEVENT_SCHED_SWITCH },
	{ "sched_waking", TN_KEVENT_SCHED_WAKING },
	{ "sched_wakeup", TN_KEVENT_SCHED_WAKEUP },
	{ "sched_wakeup_new", TN_KEVENT_SCHED_WAKEUP_NEW },
	{ "sched_process_fork", TN_KEVENT_PROCESS_FORK },
	{ "sched_process_exec", TN_KEVENT_PROCESS_EXEC },
	{ "sched_process_exit", TN_KEVENT_PROCESS_EXIT },
	{ "sched_process_free", TN_KEVENT_PROCESS_FREE },
	{ "sched_pi_setprio", TN_KEVENT_PI_SETPRIO },
	{ "lttng_statedump_process_state", TN_KEVENT_STATEDUMP_PROCESS },
	{ "irq_handler_entry", TN_KEVENT_IRQ_ENTRY },
	{ "irq_handler_exit", TN_KEVENT_IRQ_EXIT },
	{ "softirq_raise", TN_KEVENT_SOFTIRQ_RAISE },
	{ "softirq_entry", TN_KEVENT_SOFTIRQ_ENTRY },
	{ "softirq_exit", TN_KEVENT_SOFTIRQ_EXIT },
	{ "irq_softirq_raise", TN_KEVENT_SOFTIRQ_RAISE },
	{ "irq_softirq_entry", TN_KEVENT_SOFTIRQ_ENTRY },
	{ "irq_softirq_exit", TN_KEVENT_SOFTIRQ_EXIT },
	{ "exit_syscall", TN_KEVENT_SYSCALL_EXIT },
};

static const struct {
	const char *prefix;
	enum tn_kevent kind;
} prefixes[] = {
	{ "syscall_entry_", TN_KEVENT_SYSCALL_ENTRY },
	{ "compat_syscall_entry_", TN_KEVENT_SYSCALL_ENTRY },
	{ "syscall_exit_", TN_KEVENT_SYSCALL_EXIT },
	{ "compat_syscall_exit_", TN_KEVENT_SYSCALL_EXIT },
	{ "sys_", TN_KEVENT_SYSCALL_ENTRY },
	{ "compat_sys_", TN_KEVENT_SYSCALL_ENTRY },
};

enum tn_kevent tn_kevent_classify(const char *name, const char **syscall)
{
	if (syscall)
		*syscall = "";
	if (!name || strchr(name, ':'))
		return TN_KEVENT_OTHER;
	for (size_t i = 0; i < G_N_ELEMENTS(exact_names); i++)
		if (strcmp(name, exact_names[i].name) == 0)
			return exact_names[i].kind;
	for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		size_t len = strlen(prefixes[i].prefix);

		if (strncmp(name, prefixes[i].prefix, len) || !name[len])
			continue;
		if (syscall)
			*syscall = name + len;
		return prefixes[i].kind;
	}
	return TN_KEVENT_OTHER;
}

#define MEMO_SLOTS 128

/* A name classified: its own copy of the name, then the class. */
struct entry {
	struct tn_kevent_class cls;
	char *name;
};

struct tn_kevent_memo {
	/* The last name seen in each slot, by the address the caller gave
	 * (an event class's name: the same for all its events). */
	struct {
		const char *at;
		struct entry *entry;
	} slots[MEMO_SLOTS];
	GHashTable *by_name;	/* name -> struct entry */
};

static void entry_free(gpointer data)
{
	struct entry *e = data;

	g_free(e->name);
	g_free(e);
}

struct tn_kevent_memo *tn_kevent_memo_create(void)
{
	struct tn_kevent_memo *memo = g_new0(struct tn_kevent_memo, 1);

	memo->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
		entry_free);
	return memo;
}

void tn_kevent_memo_destroy(struct tn_kevent_memo *memo)
{
	if (!memo)
		return;
	g_hash_table_destroy(memo->by_name);
	g_free(memo);
}

const struct tn_kevent_class *tn_kevent_memo_get(struct tn_kevent_memo *memo,
		const char *name)
{
	size_t slot;
	struct entry *e;
	const char *syscall;

	if (!name)
		return NULL;
	slot = tn_pointer_slot(name, MEMO_SLOTS);
	/* The address may hold another name now (a class freed, another
	 * made): the text decides. */
	e = memo->slots[slot].entry;
	if (memo->slots[slot].at != name || strcmp(e->name, name)) {
		e = g_hash_table_lookup(memo->by_name, name);
		if (!e) {
			e = g_new(struct entry, 1);
			e->name = g_strdup(name);
			e->cls.kind = tn_kevent_classify(e->name, &syscall);
			e->cls.syscall = syscall;
			g_hash_table_insert(memo->by_name, e->name, e);
		}
		memo->slots[slot].at = name;
		memo->slots[slot].entry = e;
	}
	return e->cls.kind == TN_KEVENT_OTHER ? NULL : &e->cls;
}

const struct tn_kevent_class *tn_kevent_of_event(struct tn_kevent_memo *memo,
		const struct tn_event *ev)
{
	if (ev->record)
		return ev->record->kevent;
	return tn_kevent_memo_get(memo, tn_event_get_name(ev));
}
