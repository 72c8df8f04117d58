/* sync-match.c - the TCP packets sent on one host and received on
 * another, as points between the two hosts' clocks (see sync.h). */
#include <string.h>

#include "tracenav/sync.h"
#include "sync-private.h"

/* The events that carry a packet: lttng-modules' (2.9 and later) with
 * the TCP header under the network header, and the older addon
 * module's with the fields in the payload. */
#define NET_PATH "network_header.transport_header."

struct flavour {
	const char *event;
	bool send;
	const char *seq, *ack_seq, *flags;
};

static const struct flavour flavours[] = {
	{ "net_dev_queue", true, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "netif_receive_skb", false, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "net_if_receive_skb", false, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "inet_sock_local_out", true, "seq", "ack_seq", "flags" },
	{ "inet_sock_local_in", false, "seq", "ack_seq", "flags" },
};

/* A packet: the TCP header's seq, ack_seq and flags. */
struct packet_key {
	uint64_t seq, ack_seq, flags;
};

/* A send or a receipt waiting for its other half. */
struct pending {
	bool send;
	size_t host;
	int64_t ns;
};

struct tn_sync_matcher {
	struct tn_sync_graph graph;
	GHashTable *host_of_name;	/* name -> index + 1 */
	GHashTable *host_of_stream;	/* stream key -> index + 1 */
	GHashTable *pending;		/* struct packet_key -> pending */
	uint64_t matched, unmatched, duplicates;
};

static guint hash_key(gconstpointer p)
{
	const struct packet_key *k = p;

	return (guint) (k->seq * 2654435761u ^ k->ack_seq * 40503u ^
		k->flags);
}

static gboolean equal_keys(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(struct packet_key)) == 0;
}

static const char *host_name_of_info(const struct tn_trace_info *info,
		size_t i, char *buf, size_t size)
{
	if (info->hostname && *info->hostname)
		return info->hostname;
	if (info->name && *info->name)
		return info->name;
	g_snprintf(buf, size, "trace %zu", i);
	return buf;
}

static size_t add_host(struct tn_sync_matcher *m, GPtrArray *names,
		const char *name)
{
	gpointer found = g_hash_table_lookup(m->host_of_name, name);

	if (found)
		return GPOINTER_TO_SIZE(found) - 1;
	g_ptr_array_add(names, g_strdup(name));
	g_hash_table_insert(m->host_of_name, g_strdup(name),
		GSIZE_TO_POINTER(names->len));
	return names->len - 1;
}

/* Whether info reads directory dir. */
static bool info_has_dir(const struct tn_trace_info *info, const char *dir)
{
	for (size_t d = 0; d < info->dir_count; d++)
		if (strcmp(info->dirs[d], dir) == 0)
			return true;
	return false;
}

/* The hosts in the order of the trace directories' paths (the first
 * one's host is the reference when it matched), then any other. */
static void find_hosts(struct tn_sync_matcher *m, const struct tn_trace *trace)
{
	size_t infos = tn_trace_get_info_count(trace);
	GPtrArray *names = g_ptr_array_new();
	char buf[32];

	for (size_t d = 0; d < tn_trace_get_dir_count(trace); d++)
		for (size_t i = 0; i < infos; i++) {
			const struct tn_trace_info *info =
				tn_trace_borrow_info(trace, i);

			if (info_has_dir(info, tn_trace_get_dir(trace, d)))
				add_host(m, names, host_name_of_info(info, i,
					buf, sizeof(buf)));
		}
	for (size_t i = 0; i < infos; i++)
		add_host(m, names, host_name_of_info(
			tn_trace_borrow_info(trace, i), i, buf, sizeof(buf)));
	m->graph.host_count = names->len;
	m->graph.names = (char **) g_ptr_array_free(names, FALSE);
}

struct tn_sync_matcher *tn_sync_matcher_create(const struct tn_trace *trace)
{
	struct tn_sync_matcher *m = g_new0(struct tn_sync_matcher, 1);
	size_t n;

	m->host_of_name = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	m->host_of_stream = g_hash_table_new(g_direct_hash, g_direct_equal);
	m->pending = g_hash_table_new_full(hash_key, equal_keys, g_free,
		g_free);
	find_hosts(m, trace);
	n = m->graph.host_count;
	m->graph.pairs = g_new0(struct tn_sync_pair, n * n);
	m->graph.matches = g_new0(uint64_t, n * n);
	for (size_t i = 0; i < n * n; i++)
		tn_sync_pair_init(&m->graph.pairs[i]);
	return m;
}

void tn_sync_matcher_destroy(struct tn_sync_matcher *m)
{
	size_t n;

	if (!m)
		return;
	n = m->graph.host_count;
	for (size_t i = 0; i < n * n; i++)
		tn_sync_pair_fini(&m->graph.pairs[i]);
	for (size_t i = 0; i < n; i++)
		g_free(m->graph.names[i]);
	g_free(m->graph.names);
	g_free(m->graph.pairs);
	g_free(m->graph.matches);
	g_hash_table_destroy(m->host_of_name);
	g_hash_table_destroy(m->host_of_stream);
	g_hash_table_destroy(m->pending);
	g_free(m);
}

void tn_sync_matcher_add_wants(const struct tn_sync_matcher *m,
		GArray *wants)
{
	(void) m;
	for (size_t i = 0; i < G_N_ELEMENTS(flavours); i++) {
		const struct flavour *f = &flavours[i];
		struct tn_field_want want[3] = {
			{ f->event, TN_SCOPE_PAYLOAD, f->seq },
			{ f->event, TN_SCOPE_PAYLOAD, f->ack_seq },
			{ f->event, TN_SCOPE_PAYLOAD, f->flags },
		};

		g_array_append_vals(wants, want, 3);
	}
}

static const struct flavour *flavour_of(const char *name)
{
	if (name[0] != 'n' && name[0] != 'i')
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(flavours); i++)
		if (strcmp(name, flavours[i].event) == 0)
			return &flavours[i];
	return NULL;
}

static bool read_unsigned(const struct tn_event *ev, const char *path,
		uint64_t *out)
{
	struct tn_field_value v;

	if (!tn_event_find_field(ev, TN_SCOPE_PAYLOAD, path, &v))
		return false;
	if (v.type == TN_VALUE_UNSIGNED)
		*out = v.u;
	else if (v.type == TN_VALUE_SIGNED)
		*out = (uint64_t) v.s;
	else
		return false;
	return true;
}

/* The host of ev's trace (found once per stream). */
static size_t host_of(struct tn_sync_matcher *m, const struct tn_event *ev)
{
	const void *stream = tn_event_get_stream_key(ev);
	gpointer found = g_hash_table_lookup(m->host_of_stream, stream);
	const char *name;

	if (found)
		return GPOINTER_TO_SIZE(found) - 1;
	name = tn_event_get_hostname(ev);
	if (!name || !*name)
		name = tn_event_get_trace_name(ev);
	found = name ? g_hash_table_lookup(m->host_of_name, name) : NULL;
	/* A trace not among the trace's infos: the first host's clock. */
	if (!found)
		found = GSIZE_TO_POINTER(1);
	g_hash_table_insert(m->host_of_stream, (gpointer) (uintptr_t) stream,
		found);
	return GPOINTER_TO_SIZE(found) - 1;
}

/* A send on one host and its receipt on another: a point above the
 * line between them (sent by the lower-numbered host) or below. */
static void add_match(struct tn_sync_matcher *m, const struct pending *send,
		const struct pending *receipt)
{
	size_t n = m->graph.host_count;
	bool above = send->host < receipt->host;
	size_t i = above ? send->host : receipt->host;
	size_t j = above ? receipt->host : send->host;

	if (above)
		tn_sync_pair_add(&m->graph.pairs[i * n + j], true, send->ns,
			receipt->ns);
	else
		tn_sync_pair_add(&m->graph.pairs[i * n + j], false,
			receipt->ns, send->ns);
	m->graph.matches[i * n + j]++;
	m->matched++;
}

void tn_sync_matcher_event(struct tn_sync_matcher *m,
		const struct tn_event *ev)
{
	const struct flavour *f;
	struct packet_key key;
	struct pending now, *waiting;

	if (ev->kind != TN_EVENT_KIND_EVENT || !ev->has_ns ||
	    !(f = flavour_of(tn_event_get_name(ev))))
		return;
	if (!read_unsigned(ev, f->seq, &key.seq) ||
	    !read_unsigned(ev, f->ack_seq, &key.ack_seq) ||
	    !read_unsigned(ev, f->flags, &key.flags))
		return;		/* not a TCP packet */
	now.send = f->send;
	now.host = host_of(m, ev);
	now.ns = ev->recorded_ns;
	waiting = g_hash_table_lookup(m->pending, &key);
	if (!waiting) {
		g_hash_table_insert(m->pending, g_memdup2(&key, sizeof(key)),
			g_memdup2(&now, sizeof(now)));
	} else if (waiting->send == now.send) {
		m->duplicates++;	/* the first one waits on */
	} else if (waiting->host == now.host) {
		m->unmatched++;		/* on one host: not a clock's */
	} else {
		if (now.send)
			add_match(m, &now, waiting);
		else
			add_match(m, waiting, &now);
		g_hash_table_remove(m->pending, &key);
	}
}

struct tn_sync *tn_sync_matcher_finish(struct tn_sync_matcher *m)
{
	struct tn_sync *sync = tn_sync_solve(&m->graph);

	/* What is used is what is printed (and saved, and loaded). */
	tn_sync_round(sync);

	sync->matched = m->matched;
	sync->unmatched = m->unmatched + g_hash_table_size(m->pending);
	sync->duplicates = m->duplicates;
	return sync;
}
