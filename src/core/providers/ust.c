/* ust.c - the userspace (LTTng-UST) state provider: the processes and
 * threads that userspace events come from, and the call stacks of
 * programs built with -finstrument-functions and traced with
 * liblttng-ust-cyg-profile.
 *
 * The attributes (doc/tracenav.1, STATE SYSTEM):
 *
 *   Processes/<vpid>/Name                      string: its procname
 *   Processes/<vpid>/Threads/<vtid>            string: the thread's
 *                                              procname
 *   Processes/<vpid>/Threads/<vtid>/Call_stack a stack of strings: the
 *                                              addresses of the
 *                                              functions entered
 *
 * Who emitted an event comes from its vpid, vtid and procname contexts
 * (lttng add-context -u -t vpid -t vtid -t procname); a trace without
 * vpid puts its threads under Processes/unknown.  The statedump
 * (lttng_ust_statedump:*) says which processes exist and their names.
 *
 * Only events named provider:event are looked at (kernel events with a
 * vtid context are the kernel provider's business).
 *
 * The call stack holds the functions' addresses in hex, as the event
 * list prints them ("0x40472B"), whatever symbols the user has: a query
 * names them in its result (tn_state_query_options.symbols, from a
 * symbol mapping file, symbols.h), so that the state's snapshots, and
 * the cache that keeps them, never depend on the symbols.
 * libbabeltrace2's debug-info filter does not help here, as it
 * resolves the event's ip context (where the tracepoint fired, inside
 * liblttng-ust-cyg-profile), not the addr field.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "provider-classes.h"
#include "provider-fields.h"

#define UNKNOWN_PID INT64_MIN

struct process_quarks {
	int node;
	int name;		/* Name, -1 until added */
	int threads;		/* Threads, -1 until added */
};

struct thread_quarks {
	int node;
	int call_stack;		/* -1 until added */
};

struct thread_key {
	int64_t vpid;
	int64_t vtid;
};

/* The process and the thread last looked up (NULL: none): most events
 * come from a thread that just had one. */
struct last_seen {
	int64_t vpid;
	struct process_quarks *p;
	struct thread_key key;
	struct thread_quarks *t;
};

struct ust {
	int processes;		/* the top attribute, -1 until added */
	GHashTable *by_vpid;	/* gint64 vpid -> struct process_quarks */
	GHashTable *by_vtid;	/* struct thread_key -> struct thread_quarks */
	struct last_seen last;
};

static guint thread_key_hash(gconstpointer p)
{
	const struct thread_key *key = p;

	return (guint) ((uint64_t) key->vtid * 2654435761u ^
		(uint64_t) key->vpid);
}

static gboolean thread_key_equal(gconstpointer a, gconstpointer b)
{
	const struct thread_key *x = a, *y = b;

	return x->vpid == y->vpid && x->vtid == y->vtid;
}

/* What one event says about who emitted it. */
struct who {
	bool has_vpid, has_vtid;
	int64_t vpid, vtid;
	const char *procname;	/* NULL when the event has none */
};

static bool context_int(const struct tn_event *ev, const char *name,
		int64_t *out)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_CONTEXTS, name, &v))
		return false;
	if (v.type == TN_VALUE_SIGNED)
		*out = v.s;
	else if (v.type == TN_VALUE_UNSIGNED)
		*out = (int64_t) v.u;
	else
		return false;
	return true;
}

static void find_who(const struct tn_event *ev, struct who *who)
{
	struct tn_field_value v;

	who->has_vpid = context_int(ev, "vpid", &who->vpid);
	who->has_vtid = context_int(ev, "vtid", &who->vtid);
	who->procname = NULL;
	if (tn_event_find_field(ev, TN_SCOPE_CONTEXTS, "procname", &v) &&
			v.type == TN_VALUE_STRING)
		who->procname = v.string;
}

/* ---- quarks ---- */

static struct process_quarks *process_get(struct ust *u,
		struct tn_state *state, int64_t vpid)
{
	struct process_quarks *p;
	char name[32];
	gint64 *key;

	if (u->last.p && u->last.vpid == vpid)
		return u->last.p;
	p = g_hash_table_lookup(u->by_vpid, &vpid);
	if (p) {
		u->last.vpid = vpid;
		u->last.p = p;
		return p;
	}
	if (u->processes < 0)
		u->processes = tn_state_quark_child(state, TN_STATE_ROOT,
			"Processes");
	if (vpid == UNKNOWN_PID)
		snprintf(name, sizeof(name), "unknown");
	else
		snprintf(name, sizeof(name), "%" PRId64, vpid);
	p = g_new(struct process_quarks, 1);
	p->node = tn_state_quark_child(state, u->processes, name);
	p->name = -1;
	p->threads = -1;
	key = g_new(gint64, 1);
	*key = vpid;
	g_hash_table_insert(u->by_vpid, key, p);
	return p;
}

static struct thread_quarks *thread_get(struct ust *u, struct tn_state *state,
		struct process_quarks *p, int64_t vpid, int64_t vtid)
{
	struct thread_key key = { vpid, vtid }, *copy;
	struct thread_quarks *t;
	char name[32];

	if (u->last.t && u->last.key.vpid == vpid && u->last.key.vtid == vtid)
		return u->last.t;
	t = g_hash_table_lookup(u->by_vtid, &key);
	if (t) {
		u->last.key = key;
		u->last.t = t;
		return t;
	}
	if (p->threads < 0)
		p->threads = tn_state_quark_child(state, p->node, "Threads");
	snprintf(name, sizeof(name), "%" PRId64, vtid);
	t = g_new(struct thread_quarks, 1);
	t->node = tn_state_quark_child(state, p->threads, name);
	t->call_stack = -1;
	copy = g_new(struct thread_key, 1);
	*copy = key;
	g_hash_table_insert(u->by_vtid, copy, t);
	return t;
}

/* Set quark to the string s unless it holds it already. */
static int set_string(struct tn_state *state, int quark, const char *s,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	const struct tn_state_value *now = tn_state_get_value(state, quark);
	struct tn_state_value value;

	if (now->type == TN_STATE_STRING && !strcmp(now->u.s, s))
		return 0;
	value = tn_state_value_string(s);
	return tn_state_modify(state, quark, &value, at, err);
}

/* ---- the call stack ---- */

enum call { CALL_NONE, CALL_ENTRY, CALL_EXIT };

static enum call call_of(const char *name)
{
	static const char *const providers[] = {
		"lttng_ust_cyg_profile:", "lttng_ust_cyg_profile_fast:",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(providers); i++) {
		size_t len = strlen(providers[i]);

		if (strncmp(name, providers[i], len))
			continue;
		if (!strcmp(name + len, "func_entry"))
			return CALL_ENTRY;
		if (!strcmp(name + len, "func_exit"))
			return CALL_EXIT;
	}
	return CALL_NONE;
}

static int on_call(struct tn_state *state, const struct tn_event *ev,
		struct thread_quarks *t, enum call call,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	struct tn_state_value value;
	char text[32];
	int64_t addr;

	if (t->call_stack < 0)
		t->call_stack = tn_state_quark_child(state, t->node,
			"Call_stack");
	if (call == CALL_EXIT)
		return tn_state_pop(state, t->call_stack, NULL, at, err);
	if (!tn_provider_field_int(ev, "addr", &addr))
		return 0;
	/* as the event list prints addresses */
	snprintf(text, sizeof(text), "0x%" PRIX64, (uint64_t) addr);
	value = tn_state_value_string(text);
	return tn_state_push(state, t->call_stack, &value, at, err);
}

/* ---- the provider ---- */

static bool ust_applies(const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (strchr(names[i], ':'))
			return true;
	return false;
}

static void *ust_create(void)
{
	struct ust *u = g_new0(struct ust, 1);

	u->processes = -1;
	u->by_vpid = g_hash_table_new_full(g_int64_hash, g_int64_equal,
		g_free, g_free);
	u->by_vtid = g_hash_table_new_full(thread_key_hash, thread_key_equal,
		g_free, g_free);
	return u;
}

static void ust_destroy(void *data)
{
	struct ust *u = data;

	if (!u)
		return;
	g_hash_table_destroy(u->by_vpid);
	g_hash_table_destroy(u->by_vtid);
	g_free(u);
}

static void ust_reset(void *data)
{
	struct ust *u = data;

	u->processes = -1;
	g_hash_table_remove_all(u->by_vpid);
	g_hash_table_remove_all(u->by_vtid);
	u->last.p = NULL;
	u->last.t = NULL;
}

static int ust_handle_event(void *data, struct tn_state *state,
		const struct tn_event *ev, const struct tn_position *pos,
		struct tn_error *err)
{
	static const char statedump[] = "lttng_ust_statedump:";
	struct ust *u = data;
	const char *name = tn_event_get_name(ev);
	struct tn_state_stamp at;
	struct process_quarks *p;
	struct thread_quarks *t;
	const char *procname;
	enum call call;
	struct who who = { 0 };
	int64_t vpid;

	if (!ev->has_ns || !strchr(name, ':'))
		return 0;
	find_who(ev, &who);
	if (!who.has_vpid && !who.has_vtid)
		return 0;
	at = (struct tn_state_stamp){
		.ns = ev->ns, .has_pos = true, .pos = *pos,
	};
	vpid = who.has_vpid ? who.vpid : UNKNOWN_PID;
	p = process_get(u, state, vpid);

	/* the process's name: its main thread's, or the statedump's */
	procname = NULL;
	if (!strncmp(name, statedump, sizeof(statedump) - 1))
		procname = tn_provider_field_string(ev, "procname");
	else if (who.has_vpid && who.procname &&
			(!who.has_vtid || who.vtid == who.vpid ||
			 p->name < 0 || tn_state_get_value(state,
				p->name)->type == TN_STATE_NULL))
		procname = who.procname;
	if (procname && who.has_vpid) {
		if (p->name < 0)
			p->name = tn_state_quark_child(state, p->node, "Name");
		if (set_string(state, p->name, procname, &at, err) < 0)
			return -1;
	}

	if (!who.has_vtid)
		return 0;
	t = thread_get(u, state, p, vpid, who.vtid);
	if (who.procname &&
			set_string(state, t->node, who.procname, &at, err) < 0)
		return -1;
	call = call_of(name);
	if (call != CALL_NONE)
		return on_call(state, ev, t, call, &at, err);
	return 0;
}

/* What find_who() and the handlers read. */
static const struct tn_field_want ust_wants[] = {
	{ NULL, TN_SCOPE_CONTEXTS, "vpid" },
	{ NULL, TN_SCOPE_CONTEXTS, "vtid" },
	{ NULL, TN_SCOPE_CONTEXTS, "procname" },
	{ "lttng_ust_cyg_profile*", TN_SCOPE_PAYLOAD, "addr" },
	{ "lttng_ust_statedump:*", TN_SCOPE_PAYLOAD, "procname" },
	{ NULL, 0, NULL },
};

const struct tn_state_provider_class tn_state_provider_ust = {
	.name = "ust",
	.description = "userspace (LTTng-UST): processes, threads and "
		"call stacks (cyg-profile)",
	.applies = ust_applies,
	.wants = ust_wants,
	.create = ust_create,
	.destroy = ust_destroy,
	.reset = ust_reset,
	.handle_event = ust_handle_event,
};
