/* network.c - the TCP packets that hosts exchanged (net-packet.h) as
 * messages of a sequence diagram: an arrow from the thread that sent a
 * packet on one host to the thread that received it on another, its
 * signal the packet's sequence number and, once received, its latency:
 * the receipt's time minus the send's, on the corrected clocks when
 * the trace reads on them (sync on), so that a latency below zero says
 * that the clocks disagree.
 *
 * Lifelines are threads of a host, "HOST/name-tid": the thread that
 * runs on the event's CPU, as the last sched_switch of that CPU in the
 * window says (the state system keeps one set of CPUs for all hosts, so
 * the loader follows them itself).  Before the window's first
 * sched_switch on a CPU, its lifeline is "HOST/cpuN".  A receipt runs
 * in a soft IRQ: its thread is the one it interrupted.
 *
 * An end is added as a message at once, to its own lifeline until its
 * other end says who is there: a receipt completes the message of its
 * send, and a send the message of a receipt read before it (clocks
 * that disagree: its latency is below zero).  An end whose other one is
 * not in the window goes to or comes from the lifeline "network" when
 * the window ends, as does a packet sent (or received) again before its
 * other end came (a retransmission).
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "loader-classes.h"
#include "src/core/net-packet.h"
#include "src/core/providers/provider-fields.h"

#define UNKNOWN_END "network"

/* An end read, waiting for its other end. */
struct seen {
	uint64_t serial;
	int64_t ns;
	size_t lifeline;	/* its thread's */
};

/* A message whose other end will not come in the window. */
struct orphan {
	uint64_t serial;
	size_t lifeline;	/* its end's thread */
	bool receive;		/* that end is the receipt */
};

struct network {
	/* "HOST\nCPU" -> the lifeline name of the thread running there. */
	GHashTable *threads;
	/* struct tn_net_key -> struct seen: the sends waiting for their
	 * receipt, and the receipts read before their send (on clocks
	 * that disagree). */
	GHashTable *sends, *receipts;
	GArray *orphans;	/* struct orphan: an end read again */
	GString *key, *name, *signal;
};

static bool applies(const struct tn_seq_loader_input *input)
{
	return tn_net_packet_names_apply(input->names);
}

static void add_wants(const struct tn_seq_loader_input *input,
		GArray *wants)
{
	static const struct tn_field_want sched[] = {
		{ "sched_switch", TN_SCOPE_PAYLOAD, "next_comm" },
		{ "sched_switch", TN_SCOPE_PAYLOAD, "next_tid" },
	};

	(void) input;
	tn_net_packet_add_wants(wants);
	g_array_append_vals(wants, sched, G_N_ELEMENTS(sched));
}

static void *create(const struct tn_seq_loader_input *input)
{
	struct network *n = g_new0(struct network, 1);

	(void) input;
	n->threads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		g_free);
	n->sends = g_hash_table_new_full(tn_net_key_hash, tn_net_key_equal,
		g_free, g_free);
	n->receipts = g_hash_table_new_full(tn_net_key_hash,
		tn_net_key_equal, g_free, g_free);
	n->orphans = g_array_new(FALSE, FALSE, sizeof(struct orphan));
	n->key = g_string_new(NULL);
	n->name = g_string_new(NULL);
	n->signal = g_string_new(NULL);
	return n;
}

static void destroy(void *data)
{
	struct network *n = data;

	g_hash_table_destroy(n->threads);
	g_hash_table_destroy(n->sends);
	g_hash_table_destroy(n->receipts);
	g_array_free(n->orphans, TRUE);
	g_string_free(n->key, TRUE);
	g_string_free(n->name, TRUE);
	g_string_free(n->signal, TRUE);
	g_free(n);
}

static void reset(void *data)
{
	struct network *n = data;

	g_hash_table_remove_all(n->threads);
	g_hash_table_remove_all(n->sends);
	g_hash_table_remove_all(n->receipts);
	g_array_set_size(n->orphans, 0);
}

static const char *host_of(const struct tn_event *ev)
{
	const char *host = tn_event_get_hostname(ev);

	if (!host || !*host)
		host = tn_event_get_trace_name(ev);
	return host ? host : "?";
}

/* n->key: the key of ev's CPU in n->threads. */
static void cpu_key(struct network *n, const struct tn_event *ev)
{
	g_string_printf(n->key, "%s\n%" PRId64, host_of(ev),
		tn_event_get_cpu(ev));
}

/* A sched_switch: who runs on its CPU from now on. */
static void note_switch(struct network *n, const struct tn_event *ev)
{
	const char *comm = tn_provider_field_string(ev, "next_comm");
	int64_t tid;

	if (!comm || !tn_provider_field_int(ev, "next_tid", &tid))
		return;
	cpu_key(n, ev);
	g_hash_table_replace(n->threads, g_strdup(n->key->str),
		g_strdup_printf("%s/%s-%" PRId64, host_of(ev), comm, tid));
}

/* The lifeline of the thread that runs ev. */
static size_t thread_lifeline(struct network *n, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_seq_point *at)
{
	const char *known;

	cpu_key(n, ev);
	known = g_hash_table_lookup(n->threads, n->key->str);
	if (known)
		return tn_seq_model_lifeline(model, known, TN_SEQ_THREAD, at);
	g_string_printf(n->name, "%s/cpu%" PRId64, host_of(ev),
		tn_event_get_cpu(ev));
	return tn_seq_model_lifeline(model, n->name->str, TN_SEQ_THREAD, at);
}

/* n->signal: the packet's, with its latency when latency_ns is not
 * INT64_MIN. */
static void set_signal(struct network *n, const struct tn_net_key *key,
		int64_t latency_ns)
{
	g_string_printf(n->signal, "TCP seq=%" PRIu64, key->seq);
	if (latency_ns == INT64_MIN)
		return;
	g_string_append_printf(n->signal, " (%s%" PRId64 ".%03" PRId64
		" us)", latency_ns < 0 ? "-" : "+",
		(latency_ns < 0 ? -latency_ns : latency_ns) / 1000,
		(latency_ns < 0 ? -latency_ns : latency_ns) % 1000);
}

/* A send or a receipt of a packet: it completes the message of the
 * other end when that was read, else it makes one with this end alone,
 * to its own lifeline until the other end (or the window's end) says
 * where the other end is. */
static void on_end(struct network *n, struct tn_seq_model *model,
		const struct tn_net_key *key, bool send,
		const struct tn_event *ev, const struct tn_seq_point *at)
{
	size_t here = thread_lifeline(n, model, ev, at);
	GHashTable *others = send ? n->receipts : n->sends;
	GHashTable *mine = send ? n->sends : n->receipts;
	const struct seen *other = g_hash_table_lookup(others, key);
	struct tn_seq_message message = {
		.kind = TN_SEQ_ASYNC, .from = here, .to = here,
	};
	struct seen seen = { 0, ev->recorded_ns, here };

	if (other) {
		set_signal(n, key, send ? other->ns - seen.ns :
			seen.ns - other->ns);
		tn_seq_model_set_route(model, other->serial,
			send ? here : other->lifeline,
			send ? other->lifeline : here, n->signal->str);
		tn_seq_model_set_end(model, other->serial, !send, at);
		g_hash_table_remove(others, key);
		return;
	}
	set_signal(n, key, INT64_MIN);
	message.signal = n->signal->str;
	message.send.present = send;
	message.receive.present = !send;
	message.send.at = message.receive.at = *at;
	seen.serial = tn_seq_model_add_message(model, &message);
	if (g_hash_table_contains(mine, key)) {
		struct orphan orphan = { seen.serial, here, !send };

		g_array_append_val(n->orphans, orphan);
	} else {
		g_hash_table_insert(mine, g_memdup2(key, sizeof(*key)),
			g_memdup2(&seen, sizeof(seen)));
	}
}

static int handle_event(void *data, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_position *pos,
		const struct tn_state *state, struct tn_error *err)
{
	struct network *n = data;
	const char *name = tn_event_get_name(ev);
	struct tn_seq_point at = { pos->ns, *pos };
	struct tn_net_key key;
	bool send;

	(void) state;
	(void) err;
	if (name[0] == 's' && strcmp(name, "sched_switch") == 0)
		note_switch(n, ev);
	else if (tn_net_packet_of_event(ev, &key, &send))
		on_end(n, model, &key, send, ev, &at);
	return 0;
}

/* The message of one end (of lifeline here; receive: the receipt)
 * from or to "network". */
static void to_network(struct tn_seq_model *model, uint64_t serial,
		size_t here, bool receive, size_t network)
{
	tn_seq_model_set_route(model, serial, receive ? network : here,
		receive ? here : network, NULL);
}

/* The ends left without their other one go from or to "network". */
static void finish(void *data, struct tn_seq_model *model)
{
	struct network *n = data;
	GHashTable *tables[2] = { n->sends, n->receipts };
	GHashTableIter iter;
	gpointer value;
	size_t network;

	if (g_hash_table_size(n->sends) == 0 &&
	    g_hash_table_size(n->receipts) == 0 && n->orphans->len == 0)
		return;
	network = tn_seq_model_lifeline(model, UNKNOWN_END, TN_SEQ_NODE,
		NULL);
	for (size_t t = 0; t < 2; t++) {
		g_hash_table_iter_init(&iter, tables[t]);
		while (g_hash_table_iter_next(&iter, NULL, &value)) {
			const struct seen *seen = value;

			to_network(model, seen->serial, seen->lifeline, t == 1,
				network);
		}
		g_hash_table_remove_all(tables[t]);
	}
	for (guint i = 0; i < n->orphans->len; i++) {
		const struct orphan *o = &g_array_index(n->orphans,
			struct orphan, i);

		to_network(model, o->serial, o->lifeline, o->receive, network);
	}
	g_array_set_size(n->orphans, 0);
}

const struct tn_seq_loader_class tn_seq_loader_network = {
	.name = "network",
	.description = "TCP packets sent on one host and received on another "
		"(net_dev_queue/netif_receive_skb, inet_sock_local_out/_in), "
		"with their latency",
	.applies = applies,
	.add_wants = add_wants,
	.create = create,
	.destroy = destroy,
	.reset = reset,
	.handle_event = handle_event,
	.finish = finish,
};
