/* kernel.c - the Linux kernel's threads as a sequence diagram: a
 * wake-up is a message from the thread that runs on the waking CPU to
 * the thread it wakes; a fork creates the child's lifeline, an exit
 * stops it.  Lifelines are threads, named "name-tid" (the idle task of
 * CPU n is "swapper/n-0", as its comm says).
 *
 * The waker is what the state system says runs on the event's CPU
 * (CPUs/<n>/Current_thread of the kernel state provider), so the loader
 * needs the state: without it (or while the state does not know the
 * CPU's thread yet: no sched_switch on it so far) a wake-up is left
 * out, never given a wrong sender.
 *
 * The events, as LTTng records them:
 *   - sched_waking (Linux 4.3 and later) is emitted on the waker's CPU,
 *     in its context; the sched_wakeup of the same thread that follows
 *     is emitted when the thread is put on its run queue, maybe on
 *     another CPU.  When the trace has both, the waking is the send of
 *     the message and the next sched_wakeup of the same tid is its
 *     receive (a sched_wakeup without a waking before it in the window
 *     is the end of a message whose send was not read: left out);
 *   - otherwise (older kernels, or sched_waking not enabled) a
 *     sched_wakeup is emitted in the waker's context, and is the whole
 *     message: both ends at it;
 *   - sched_wakeup_new (a new thread's first wake-up, in its parent's
 *     context) is a whole message too, signal "wakeup_new".
 *
 * A lifeline keeps the name its thread had when it appeared in the
 * window (an exec renames a thread: its lifeline stays), so that a
 * fork's creation mark, the thread's messages and its exit's stop mark
 * are on one lifeline; an exit frees the tid for a new thread.
 */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "loader-classes.h"
#include "src/core/seq-field-text.h"
#include "src/core/kernel-events.h"
#include "tracenav/state.h"

enum kind { OTHER = 1, WAKING, WAKEUP, WAKEUP_NEW, FORK, EXIT };

struct kernel {
	/* The trace has sched_waking and sched_wakeup: a message is a
	 * waking and the wakeup after it. */
	bool paired;
	struct tn_kevent_memo *kinds;	/* what each event is */
	/* Thread key (tid, or -(cpu + 1) for the idle task of a CPU) ->
	 * the name of its lifeline in this window (owned). */
	GHashTable *names;
	/* tid -> the serial of its waking's message, waiting for the
	 * wakeup. */
	GHashTable *pending;
	GString *path, *name;
};

static bool has_name(const char *const *names, const char *name)
{
	for (size_t i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* A trace with wake-ups (forks and exits alone make no message). */
static bool applies(const struct tn_seq_loader_input *input)
{
	return has_name(input->names, "sched_waking") ||
		has_name(input->names, "sched_wakeup") ||
		has_name(input->names, "sched_wakeup_new");
}

static void *create(const struct tn_seq_loader_input *input)
{
	struct kernel *k = g_new0(struct kernel, 1);

	k->paired = has_name(input->names, "sched_waking") &&
		has_name(input->names, "sched_wakeup");
	k->kinds = tn_kevent_memo_create();
	k->names = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
		g_free);
	k->pending = g_hash_table_new_full(g_int64_hash, g_int64_equal,
		g_free, g_free);
	k->path = g_string_new(NULL);
	k->name = g_string_new(NULL);
	return k;
}

static void destroy(void *data)
{
	struct kernel *k = data;

	tn_kevent_memo_destroy(k->kinds);
	g_hash_table_destroy(k->names);
	g_hash_table_destroy(k->pending);
	g_string_free(k->path, TRUE);
	g_string_free(k->name, TRUE);
	g_free(k);
}

static void reset(void *data)
{
	struct kernel *k = data;

	g_hash_table_remove_all(k->names);
	g_hash_table_remove_all(k->pending);
}

static enum kind event_kind(struct kernel *k, const struct tn_event *ev)
{
	const struct tn_kevent_class *cls = tn_kevent_of_event(k->kinds, ev);

	switch (cls ? cls->kind : TN_KEVENT_OTHER) {
	case TN_KEVENT_SCHED_WAKING:
		return WAKING;
	case TN_KEVENT_SCHED_WAKEUP:
		return WAKEUP;
	case TN_KEVENT_SCHED_WAKEUP_NEW:
		return WAKEUP_NEW;
	case TN_KEVENT_PROCESS_FORK:
		return FORK;
	case TN_KEVENT_PROCESS_EXIT:
		return EXIT;
	default:
		return OTHER;
	}
}

/* The integer field name of ev's payload: false when it has none. */
static bool field_int(const struct tn_event *ev, const char *name,
		int64_t *out)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, name, &v))
		return false;
	if (v.type == TN_VALUE_SIGNED)
		*out = v.s;
	else if (v.type == TN_VALUE_UNSIGNED && v.u <= INT64_MAX)
		*out = (int64_t) v.u;
	else
		return false;
	return true;
}

static const char *field_string(const struct tn_event *ev, const char *name)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, name, &v) ||
	    v.type != TN_VALUE_STRING)
		return NULL;
	return v.string ? v.string : "";
}

/* The key of thread tid in names: the idle task (tid 0) has one per
 * CPU. */
static int64_t thread_key(int64_t tid, int64_t cpu)
{
	return tid == 0 ? -(cpu + 1) : tid;
}

/* The thread that runs on cpu, as the state says: false when it does
 * not know. */
/* n (>= 0) in decimal, as the state names CPUs. */
static void decimal(char out[24], int64_t n)
{
	char digits[24];
	size_t len = 0;

	do {
		digits[len++] = (char) ('0' + n % 10);
		n /= 10;
	} while (n > 0);
	for (size_t i = 0; i < len; i++)
		out[i] = digits[len - 1 - i];
	out[len] = '\0';
}

static bool current_thread(struct kernel *k, const struct tn_state *state,
		int64_t cpu, int64_t *tid)
{
	const struct tn_state_value *v;
	char number[24];
	int quark;

	(void) k;
	if (!state || cpu < 0)
		return false;
	/* CPUs/<cpu>/Current_thread, a name at a time (a wake-up in
	 * three: no path to make and split). */
	decimal(number, cpu);
	if ((quark = tn_state_quark_child_lookup(state, TN_STATE_ROOT,
			"CPUs")) < 0 ||
	    (quark = tn_state_quark_child_lookup(state, quark, number)) < 0 ||
	    (quark = tn_state_quark_child_lookup(state, quark,
			"Current_thread")) < 0)
		return false;
	v = tn_state_get_value(state, quark);
	if (v->type == TN_STATE_INT)
		*tid = v->u.i;
	else if (v->type == TN_STATE_LONG)
		*tid = v->u.l;
	else
		return false;
	return true;
}

/* The name the state gives thread tid (on cpu, for the idle task), or
 * NULL. */
static const char *state_name(struct kernel *k, const struct tn_state *state,
		int64_t tid, int64_t cpu)
{
	const struct tn_state_value *v;
	int quark;

	if (!state)
		return NULL;
	if (tid == 0)
		g_string_printf(k->path, "Threads/0_%" PRId64 "/Exec_name",
			cpu);
	else
		g_string_printf(k->path, "Threads/%" PRId64 "/Exec_name", tid);
	quark = tn_state_quark_lookup(state, TN_STATE_ROOT, k->path->str);
	if (quark < 0)
		return NULL;
	v = tn_state_get_value(state, quark);
	return v->type == TN_STATE_STRING ? v->u.s : NULL;
}

/* The lifeline of thread tid (on cpu), at at: the one it has in this
 * window, else a new one named after comm (NULL: the state's name, else
 * "?"). */
static size_t lifeline(struct kernel *k, struct tn_seq_model *model,
		const struct tn_state *state, int64_t tid, int64_t cpu,
		const char *comm, const struct tn_seq_point *at)
{
	int64_t key = thread_key(tid, cpu);
	char *name = g_hash_table_lookup(k->names, &key);

	if (!name) {
		if (!comm)
			comm = state_name(k, state, tid, cpu);
		name = g_strdup_printf("%s-%" PRId64, comm ? comm : "?", tid);
		g_hash_table_insert(k->names, g_memdup2(&key, sizeof(key)),
			name);
	}
	return tn_seq_model_lifeline(model, name, TN_SEQ_THREAD, at);
}

/* A wake-up of thread tid (comm: its name, may be NULL) by the thread
 * current on the event's CPU: a message sent at at, received there too
 * unless whole is false (the wakeup comes later). */
static void wake(struct kernel *k, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_state *state,
		const char *signal, bool whole, const struct tn_seq_point *at)
{
	struct tn_seq_message m = { .kind = TN_SEQ_ASYNC, .signal = signal };
	int64_t cpu = tn_event_get_cpu(ev), waker, tid;
	uint64_t serial;

	if (!field_int(ev, "tid", &tid) || !current_thread(k, state, cpu,
			&waker))
		return;
	m.from = lifeline(k, model, state, waker, cpu, NULL, at);
	/* The woken thread's CPU is not the event's: its idle task is
	 * never woken (tid 0 is taken as the event CPU's). */
	m.to = lifeline(k, model, state, tid, cpu, field_string(ev, "comm"),
		at);
	m.send.present = true;
	m.send.at = *at;
	if (whole) {
		m.receive.present = true;
		m.receive.at = *at;
	}
	serial = tn_seq_model_add_message(model, &m);
	if (!whole)
		g_hash_table_replace(k->pending, g_memdup2(&tid, sizeof(tid)),
			g_memdup2(&serial, sizeof(serial)));
}

/* The wakeup that ends the message of a waking. */
static void woken(struct kernel *k, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_seq_point *at)
{
	uint64_t *serial;
	int64_t tid;

	if (!field_int(ev, "tid", &tid) ||
	    !(serial = g_hash_table_lookup(k->pending, &tid)))
		return;
	tn_seq_model_set_end(model, *serial, true, at);
	g_hash_table_remove(k->pending, &tid);
}

static void fork_thread(struct kernel *k, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_state *state,
		const struct tn_seq_point *at)
{
	int64_t tid, cpu = tn_event_get_cpu(ev), key;
	size_t index;

	if (!field_int(ev, "child_tid", &tid) || tid <= 0)
		return;
	/* A new thread: a new lifeline, even if the tid was seen. */
	key = thread_key(tid, cpu);
	g_hash_table_remove(k->names, &key);
	index = lifeline(k, model, state, tid, cpu,
		field_string(ev, "child_comm"), at);
	tn_seq_model_set_created(model, index, at);
}

static void exit_thread(struct kernel *k, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_state *state,
		const struct tn_seq_point *at)
{
	int64_t tid, cpu = tn_event_get_cpu(ev), key;
	size_t index;

	if (!field_int(ev, "tid", &tid) || tid <= 0)
		return;
	index = lifeline(k, model, state, tid, cpu, field_string(ev, "comm"),
		at);
	tn_seq_model_set_stopped(model, index, at);
	key = thread_key(tid, cpu);
	g_hash_table_remove(k->names, &key);
	g_hash_table_remove(k->pending, &tid);
}

static int handle_event(void *data, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_position *pos,
		const struct tn_state *state, struct tn_error *err)
{
	struct kernel *k = data;
	struct tn_seq_point at = { pos->ns, *pos };

	(void) err;
	switch (event_kind(k, ev)) {
	case WAKING:
		wake(k, model, ev, state, "wakeup", !k->paired, &at);
		break;
	case WAKEUP:
		if (k->paired)
			woken(k, model, ev, &at);
		else
			wake(k, model, ev, state, "wakeup", true, &at);
		break;
	case WAKEUP_NEW:
		wake(k, model, ev, state, "wakeup_new", true, &at);
		break;
	case FORK:
		fork_thread(k, model, ev, state, &at);
		break;
	case EXIT:
		exit_thread(k, model, ev, state, &at);
		break;
	case OTHER:
		break;
	}
	return 0;
}

static void add_wants(const struct tn_seq_loader_input *input,
		GArray *wants)
{
	static const struct tn_field_want table[] = {
		{ "sched_wak*", TN_SCOPE_PAYLOAD, "tid" },
		{ "sched_wak*", TN_SCOPE_PAYLOAD, "comm" },
		{ "sched_process_fork", TN_SCOPE_PAYLOAD, "child_tid" },
		{ "sched_process_fork", TN_SCOPE_PAYLOAD, "child_comm" },
		{ "sched_process_exit", TN_SCOPE_PAYLOAD, "tid" },
		{ "sched_process_exit", TN_SCOPE_PAYLOAD, "comm" },
	};

	(void) input;
	g_array_append_vals(wants, table, G_N_ELEMENTS(table));
}

const struct tn_seq_loader_class tn_seq_loader_kernel = {
	.name = "kernel",
	.description = "Linux kernel: wake-ups as messages between threads "
		"(from the thread running on the waking CPU), forks and "
		"exits as the creation and stop of lifelines",
	.needs_state = true,
	.applies = applies,
	.add_wants = add_wants,
	.create = create,
	.destroy = destroy,
	.reset = reset,
	.handle_event = handle_event,
};
