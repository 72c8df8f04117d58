/* merge-heap.c - which stream's message the merge hands out next: the
 * choice of libbabeltrace2 2.0's muxer, found with a binary heap (see
 * merge-heap.h). */
#include <glib.h>
#include <stdlib.h>

#include "merge-heap.h"

#define NO_SLOT SIZE_MAX

struct tied_head {
	size_t place;
	size_t u;
};

struct tn_merge_heap {
	size_t count;
	tn_merge_compare_func compare;
	void *data;
	/* The scan order: order[0..active) are the active upstreams;
	 * place[u] is u's index there.  ended[0..ended_count) are the
	 * ended ones, in the order they ended. */
	size_t *order;
	size_t *place;
	size_t active;
	size_t *ended;
	size_t ended_count;
	/* The heads: a binary min-heap of upstreams (nodes[0..len)), by
	 * (time, comparison, place); slot[u] is u's index in nodes. */
	size_t *nodes;
	size_t len;
	size_t *slot;
	int64_t *ns;
	const void **item;
	bool *fragile;
	size_t fragile_count;
	int64_t last_ns;	/* the time of the last head taken */
	/* Scratch for the ties settled by scanning. */
	struct tied_head *tied;
	size_t *stack;
};

struct tn_merge_heap *tn_merge_heap_create(size_t count,
		tn_merge_compare_func compare, void *data)
{
	struct tn_merge_heap *heap = g_new0(struct tn_merge_heap, 1);

	heap->count = count;
	heap->compare = compare;
	heap->data = data;
	heap->order = g_new(size_t, count);
	heap->place = g_new(size_t, count);
	heap->ended = g_new(size_t, count);
	heap->nodes = g_new(size_t, count);
	heap->slot = g_new(size_t, count);
	heap->ns = g_new0(int64_t, count);
	heap->item = g_new0(const void *, count);
	heap->fragile = g_new0(bool, count);
	heap->tied = g_new(struct tied_head, count);
	heap->stack = g_new(size_t, count);
	for (size_t u = 0; u < count; u++) {
		heap->order[u] = u;
		heap->place[u] = u;
		heap->slot[u] = NO_SLOT;
	}
	heap->active = count;
	heap->last_ns = INT64_MIN;
	return heap;
}

void tn_merge_heap_destroy(struct tn_merge_heap *heap)
{
	if (!heap)
		return;
	g_free(heap->order);
	g_free(heap->place);
	g_free(heap->ended);
	g_free(heap->nodes);
	g_free(heap->slot);
	g_free(heap->ns);
	g_free(heap->item);
	g_free(heap->fragile);
	g_free(heap->tied);
	g_free(heap->stack);
	g_free(heap);
}

/* Whether upstream a's head goes before b's. */
static bool goes_before(const struct tn_merge_heap *heap, size_t a, size_t b)
{
	int order;

	if (heap->ns[a] != heap->ns[b])
		return heap->ns[a] < heap->ns[b];
	order = heap->compare(heap->item[a], heap->item[b], heap->data);
	if (order != 0)
		return order < 0;
	return heap->place[a] < heap->place[b];
}

static void put_node(struct tn_merge_heap *heap, size_t i, size_t u)
{
	heap->nodes[i] = u;
	heap->slot[u] = i;
}

static void sift_up(struct tn_merge_heap *heap, size_t i)
{
	size_t u = heap->nodes[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!goes_before(heap, u, heap->nodes[parent]))
			break;
		put_node(heap, i, heap->nodes[parent]);
		i = parent;
	}
	put_node(heap, i, u);
}

static void sift_down(struct tn_merge_heap *heap, size_t i)
{
	size_t u = heap->nodes[i];

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= heap->len)
			break;
		if (child + 1 < heap->len &&
		    goes_before(heap, heap->nodes[child + 1],
			    heap->nodes[child]))
			child++;
		if (!goes_before(heap, heap->nodes[child], u))
			break;
		put_node(heap, i, heap->nodes[child]);
		i = child;
	}
	put_node(heap, i, u);
}

/* Restore the heap after the key of the node at i changed. */
static void resift(struct tn_merge_heap *heap, size_t i)
{
	if (i > 0 && goes_before(heap, heap->nodes[i],
			heap->nodes[(i - 1) / 2]))
		sift_up(heap, i);
	else
		sift_down(heap, i);
}

void tn_merge_heap_set_head(struct tn_merge_heap *heap, size_t u,
		bool has_time, int64_t ns, const void *item, bool fragile)
{
	size_t i = heap->slot[u];

	if (i != NO_SLOT && heap->fragile[u])
		heap->fragile_count--;
	heap->ns[u] = has_time ? ns : heap->last_ns;
	heap->item[u] = item;
	heap->fragile[u] = fragile;
	if (fragile)
		heap->fragile_count++;
	if (i == NO_SLOT) {
		put_node(heap, heap->len++, u);
		sift_up(heap, heap->len - 1);
	} else {
		resift(heap, i);
	}
}

void tn_merge_heap_drop_head(struct tn_merge_heap *heap, size_t u)
{
	size_t i = heap->slot[u];
	size_t last;

	if (i == NO_SLOT)
		return;
	if (heap->fragile[u])
		heap->fragile_count--;
	heap->fragile[u] = false;
	heap->item[u] = NULL;
	heap->slot[u] = NO_SLOT;
	last = heap->nodes[--heap->len];
	if (i < heap->len) {
		put_node(heap, i, last);
		resift(heap, i);
	}
}

void tn_merge_heap_end(struct tn_merge_heap *heap, size_t u)
{
	size_t place = heap->place[u];
	size_t last = heap->order[heap->active - 1];

	tn_merge_heap_drop_head(heap, u);
	/* As g_ptr_array_remove_index_fast() in the muxer. */
	heap->order[place] = last;
	heap->place[last] = place;
	heap->active--;
	heap->ended[heap->ended_count++] = u;
	/* last moved up in the scan order: it may now win its ties. */
	if (last != u && heap->slot[last] != NO_SLOT)
		sift_up(heap, heap->slot[last]);
}

static int compare_places(const void *a, const void *b)
{
	const struct tied_head *x = a, *y = b;

	return x->place < y->place ? -1 : x->place > y->place;
}

/* The muxer's scan over the heads tied at the smallest time: in scan
 * order, a head replaces the chosen one when the comparison puts it
 * strictly first. */
static size_t scan_ties(struct tn_merge_heap *heap)
{
	int64_t ns = heap->ns[heap->nodes[0]];
	size_t tied = 0, depth = 0, chosen;

	/* The heads at the smallest time form a subtree around the root:
	 * a parent is never later than its children. */
	heap->stack[depth++] = 0;
	while (depth > 0) {
		size_t i = heap->stack[--depth];

		if (heap->ns[heap->nodes[i]] != ns)
			continue;
		heap->tied[tied].u = heap->nodes[i];
		heap->tied[tied++].place = heap->place[heap->nodes[i]];
		for (size_t child = 2 * i + 1; child <= 2 * i + 2 &&
				child < heap->len; child++)
			heap->stack[depth++] = child;
	}
	qsort(heap->tied, tied, sizeof(*heap->tied), compare_places);
	chosen = heap->tied[0].u;
	for (size_t k = 1; k < tied; k++)
		if (heap->compare(heap->item[heap->tied[k].u],
				heap->item[chosen], heap->data) < 0)
			chosen = heap->tied[k].u;
	return chosen;
}

static bool root_is_tied(const struct tn_merge_heap *heap)
{
	int64_t ns = heap->ns[heap->nodes[0]];

	return (heap->len > 1 && heap->ns[heap->nodes[1]] == ns) ||
		(heap->len > 2 && heap->ns[heap->nodes[2]] == ns);
}

int tn_merge_heap_take(struct tn_merge_heap *heap, size_t *u, int64_t *ns)
{
	size_t chosen;

	if (heap->len == 0)
		return 0;
	chosen = heap->nodes[0];
	if (heap->fragile_count >= 2 && root_is_tied(heap))
		chosen = scan_ties(heap);
	*u = chosen;
	*ns = heap->ns[chosen];
	if (heap->ns[chosen] < heap->last_ns)
		return -1;
	heap->last_ns = heap->ns[chosen];
	return 1;
}

int64_t tn_merge_heap_get_last_time(const struct tn_merge_heap *heap)
{
	return heap->last_ns;
}

size_t tn_merge_heap_get_active_count(const struct tn_merge_heap *heap)
{
	return heap->active;
}

size_t tn_merge_heap_get_upstream(const struct tn_merge_heap *heap, size_t i)
{
	return i < heap->active ? heap->order[i] : heap->ended[i - heap->active];
}

void tn_merge_heap_restart(struct tn_merge_heap *heap)
{
	for (size_t k = 0; k < heap->ended_count; k++) {
		heap->order[heap->active + k] = heap->ended[k];
		heap->place[heap->ended[k]] = heap->active + k;
	}
	heap->active = heap->count;
	heap->ended_count = 0;
	for (size_t i = 0; i < heap->len; i++) {
		size_t u = heap->nodes[i];

		heap->slot[u] = NO_SLOT;
		heap->item[u] = NULL;
		heap->fragile[u] = false;
	}
	heap->len = 0;
	heap->fragile_count = 0;
	heap->last_ns = INT64_MIN;
}
