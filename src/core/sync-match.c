/* sync-match.c - the TCP packets sent on one host and received on
 * another (net-packet.h), as points between the two hosts' clocks (see
 * sync.h). */
#include <string.h>

#include "tracenav/sync.h"
#include "net-packet.h"
#include "sync-private.h"

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
	GHashTable *pending;		/* struct tn_net_key -> pending */
	uint64_t matched, unmatched, duplicates;
};

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

bool tn_sync_matcher_applies(const struct tn_trace *trace)
{
	const char *const *names = tn_trace_get_event_names(trace);
	struct tn_sync_matcher *m;
	bool hosts;

	if (!tn_net_packet_names_apply(names))
		return false;
	m = tn_sync_matcher_create(trace);
	hosts = m->graph.host_count > 1;
	tn_sync_matcher_destroy(m);
	return hosts;
}

struct tn_sync_matcher *tn_sync_matcher_create(const struct tn_trace *trace)
{
	struct tn_sync_matcher *m = g_new0(struct tn_sync_matcher, 1);
	size_t n;

	m->host_of_name = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	m->host_of_stream = g_hash_table_new(g_direct_hash, g_direct_equal);
	m->pending = g_hash_table_new_full(tn_net_key_hash, tn_net_key_equal,
		g_free, g_free);
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
	tn_net_packet_add_wants(wants);
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
	struct tn_net_key key;
	struct pending now, *waiting;

	if (!ev->has_ns || !tn_net_packet_of_event(ev, &key, &now.send))
		return;
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
