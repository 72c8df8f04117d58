/* sync-tree.c - from the lines between pairs of hosts to a correction
 * per host: a spanning tree rooted at the reference host, the lines
 * composed along it (see sync-private.h). */
#include "sync-private.h"

/* A link between two hosts, solved. */
struct link {
	enum tn_sync_quality quality;
	struct tn_sync_transform f;	/* T_j = f(T_i), i < j */
	long double accuracy;
	uint64_t matches;
};

static int rank_of(enum tn_sync_quality quality)
{
	switch (quality) {
	case TN_SYNC_ACCURATE:
		return 3;
	case TN_SYNC_APPROXIMATE:
		return 2;
	case TN_SYNC_INCOMPLETE:
		return 1;
	default:
		return 0;	/* not a link to follow */
	}
}

static bool better(const struct link *a, const struct link *b)
{
	if (!b)
		return true;
	if (rank_of(a->quality) != rank_of(b->quality))
		return rank_of(a->quality) > rank_of(b->quality);
	return a->matches > b->matches;
}

/* The transform from host v's clock to host u's, over their link. */
static void across(const struct link *link, size_t u, size_t v,
		struct tn_sync_transform *g)
{
	if (u < v)
		tn_sync_transform_inverse(&link->f, g);	/* T_v = f(T_u) */
	else
		*g = link->f;				/* T_u = f(T_v) */
}

static void grow_tree(struct tn_sync *sync, const struct link *links,
		size_t n, size_t root, bool *in_tree)
{
	in_tree[root] = true;
	for (;;) {
		const struct link *best = NULL;
		size_t from = 0, to = 0;
		struct tn_sync_transform g;

		for (size_t u = 0; u < n; u++) {
			if (!in_tree[u])
				continue;
			for (size_t v = 0; v < n; v++) {
				const struct link *l = &links[MIN(u, v) * n +
					MAX(u, v)];

				if (in_tree[v] || u == v || !l->matches ||
				    !rank_of(l->quality) || !better(l, best))
					continue;
				best = l;
				from = u;
				to = v;
			}
		}
		if (!best)
			return;
		in_tree[to] = true;
		across(best, from, to, &g);
		tn_sync_transform_compose(&sync->hosts[from].transform, &g,
			&sync->hosts[to].transform);
		sync->hosts[to].quality = best->quality;
		sync->hosts[to].accuracy = best->accuracy;
		sync->hosts[to].matches = best->matches;
		sync->hosts[to].parent = (int) from;
	}
}

struct tn_sync *tn_sync_solve(const struct tn_sync_graph *graph)
{
	size_t n = graph->host_count, root = n;
	struct link *links = g_new0(struct link, n * n);
	struct tn_sync *sync = g_new0(struct tn_sync, 1);
	bool *in_tree = g_new0(bool, n);
	uint64_t *involved = g_new0(uint64_t, n);

	sync->host_count = n;
	sync->hosts = g_new0(struct tn_sync_host, n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			struct link *l = &links[i * n + j];

			l->matches = graph->matches[i * n + j];
			l->quality = tn_sync_pair_solve(&graph->pairs[i * n + j],
				&l->f, &l->accuracy);
			involved[i] += l->matches;
			involved[j] += l->matches;
			if (l->matches && root == n)
				root = i;
		}
	for (size_t i = 0; i < n; i++) {
		struct tn_sync_host *host = &sync->hosts[i];

		host->name = g_strdup(graph->names[i]);
		tn_sync_transform_init(&host->transform);
		host->quality = involved[i] ? TN_SYNC_FAILED : TN_SYNC_ABSENT;
		host->accuracy = -1;
		host->parent = -1;
	}
	if (root == n)
		root = 0;	/* nothing matched: the first keeps its clock */
	if (n > 0) {
		sync->hosts[root].quality = TN_SYNC_REFERENCE;
		sync->hosts[root].accuracy = 0;
		sync->hosts[root].matches = involved[root];
		grow_tree(sync, links, n, root, in_tree);
	}
	g_free(involved);
	g_free(in_tree);
	g_free(links);
	return sync;
}
