/* state-index.c - the state's child index: the table that finds an
 * attribute by its parent and name (open addressing, linear probing,
 * at most half full), and the hidden attributes dropped from it (see
 * state-private.h).  Below state.c (which adds attributes) and
 * state-undo.c (which hides them). */
#include <limits.h>
#include <string.h>

#include "src/core/huge-pages.h"
#include "src/core/state-private.h"

/* FNV-1a over the name, seeded with the parent, then mixed (the table
 * takes the low bits). */
static uint32_t child_hash(int parent, const char *name, size_t len)
{
	uint32_t h = 2166136261u ^ ((uint32_t) parent * 0x9e3779b1u);

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char) name[i];
		h *= 16777619u;
	}
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

int tn_state_find_child(const struct tn_state *state, int parent,
		const char *name, size_t len)
{
	uint32_t h, i;

	if (!state->slots)
		return -1;
	h = child_hash(parent, name, len);
	for (i = h & state->slot_mask;; i = (i + 1) & state->slot_mask) {
		const struct tn_state_slot *slot = &state->slots[i];
		const struct tn_state_attr *attr;

		if (slot->quark < 0)
			return -1;
		if (slot->hash != h)
			continue;
		attr = &state->attrs[slot->quark];
		if (attr->parent == parent && tn_state_name_is(attr->name, name, len))
			return slot->quark < state->count ? slot->quark : -1;
	}
}

static void slot_insert(struct tn_state_slot *slots, uint32_t mask,
		uint32_t hash, int quark)
{
	uint32_t i = hash & mask;

	while (slots[i].quark >= 0)
		i = (i + 1) & mask;
	slots[i] = (struct tn_state_slot) { hash, quark };
}

void tn_state_index_reserve(struct tn_state *state, int count)
{
	uint32_t size = state->slots ? state->slot_mask + 1 : 0;
	uint32_t new_size = size ? size : 64;
	struct tn_state_slot *slots;

	while ((uint64_t) count * 2 > new_size)
		new_size *= 2;
	if (new_size == size)
		return;
	slots = tn_huge_pages_alloc(new_size * sizeof(*slots));
	for (uint32_t i = 0; i < new_size; i++)
		slots[i].quark = -1;
	for (uint32_t i = 0; i < size; i++) {
		if (state->slots[i].quark >= 0)
			slot_insert(slots, new_size - 1, state->slots[i].hash,
				state->slots[i].quark);
	}
	g_free(state->slots);
	state->slots = slots;
	state->slot_mask = new_size - 1;
}

void tn_state_index_insert(struct tn_state *state, int parent,
		const char *name, size_t len, int quark)
{
	slot_insert(state->slots, state->slot_mask,
		child_hash(parent, name, len), quark);
}

/* Remove quark's slot from the child index (linear probing: the
 * entries after it that may move back, do). */
static void slot_remove(struct tn_state *state, int quark)
{
	const struct tn_state_attr *attr = &state->attrs[quark];
	struct tn_state_slot *slots = state->slots;
	uint32_t mask = state->slot_mask;
	uint32_t i = child_hash(attr->parent, attr->name,
		strlen(attr->name)) & mask;

	while (slots[i].quark != quark)
		i = (i + 1) & mask;
	for (;;) {
		uint32_t j = i, home;

		do {
			j = (j + 1) & mask;
			if (slots[j].quark < 0) {
				slots[i].quark = -1;
				return;
			}
			home = slots[j].hash & mask;
			/* Stays when its home is cyclically in (i, j]. */
		} while (i <= j ? (home > i && home <= j) :
			(home > i || home <= j));
		slots[i] = slots[j];
		i = j;
	}
}

/* Rebuild the child index from the slots of the quarks below count. */
static void slots_keep_below(struct tn_state *state, int count)
{
	uint32_t size = state->slot_mask + 1;
	struct tn_state_slot *old = state->slots;
	struct tn_state_slot *slots = tn_huge_pages_alloc(
		size * sizeof(*slots));

	for (uint32_t i = 0; i < size; i++)
		slots[i].quark = -1;
	for (uint32_t i = 0; i < size; i++) {
		uint32_t j;

		if (old[i].quark < 0 || old[i].quark >= count)
			continue;
		for (j = old[i].hash & state->slot_mask; slots[j].quark >= 0;)
			j = (j + 1) & state->slot_mask;
		slots[j] = old[i];
	}
	g_free(old);
	state->slots = slots;
}

void tn_state_index_defer(struct tn_state *state)
{
	state->deferring = true;
	state->deferred_from = INT_MAX;
}

/* Fewer deferred attributes than this are indexed one by one. */
#define SORT_MIN 4096
/* Bits of the slot numbers sorted by in each pass. */
#define RADIX_BITS 11

/* Sort items by their home slot (hash & mask), in passes of RADIX_BITS
 * bits from the lowest (each pass stable); returns the sorted array,
 * items or spare. */
static struct tn_state_slot *sort_by_home(struct tn_state_slot *items,
		struct tn_state_slot *spare, size_t n, uint32_t mask)
{
	enum { RADIX = 1 << RADIX_BITS };
	size_t *at = g_new(size_t, RADIX);
	struct tn_state_slot *swap;

	for (unsigned shift = 0; shift < 32 && (mask >> shift) != 0;
	     shift += RADIX_BITS) {
		size_t sum = 0;

		memset(at, 0, RADIX * sizeof(*at));
		for (size_t i = 0; i < n; i++)
			at[((items[i].hash & mask) >> shift) & (RADIX - 1)]++;
		for (size_t d = 0; d < RADIX; d++) {
			size_t count = at[d];

			at[d] = sum;
			sum += count;
		}
		for (size_t i = 0; i < n; i++)
			spare[at[((items[i].hash & mask) >> shift) &
				(RADIX - 1)]++] = items[i];
		swap = items;
		items = spare;
		spare = swap;
	}
	g_free(at);
	return items;
}

void tn_state_index_resume(struct tn_state *state)
{
	int from = state->deferred_from;
	size_t n = from < state->count ? (size_t) (state->count - from) : 0;
	struct tn_state_slot *items, *spare, *sorted;

	state->deferring = false;
	state->deferred_from = INT_MAX;
	if (n == 0)
		return;
	items = g_new(struct tn_state_slot, n);
	for (size_t i = 0; i < n; i++) {
		const struct tn_state_attr *attr = &state->attrs[from + i];

		items[i].hash = child_hash(attr->parent, attr->name,
			strlen(attr->name));
		items[i].quark = from + (int) i;
	}
	/* In the order of their home slots, the table is written from its
	 * start to its end, not at random. */
	spare = n >= SORT_MIN ? g_new(struct tn_state_slot, n) : NULL;
	sorted = spare ? sort_by_home(items, spare, n, state->slot_mask) :
		items;
	for (size_t i = 0; i < n; i++)
		slot_insert(state->slots, state->slot_mask, sorted[i].hash,
			sorted[i].quark);
	g_free(items);
	g_free(spare);
}

void tn_state_drop_hidden(struct tn_state *state)
{
	int count = state->count;
	bool rebuild = state->kept - count > count / 2;

	/* From the last: each is the last child of its parent. */
	for (int q = state->kept - 1; q >= count; q--) {
		struct tn_state_attr *attr = &state->attrs[q];
		struct tn_state_children *siblings = attr->parent ==
			TN_STATE_ROOT ? &state->root :
			&state->attrs[attr->parent].children;

		g_assert(siblings->count > 0 &&
			siblings->quarks[siblings->count - 1] == q);
		siblings->count--;
		if (!rebuild)
			slot_remove(state, q);
		g_free(attr->children.quarks);
		attr->children = (struct tn_state_children) { 0 };
	}
	if (rebuild && state->kept > count)
		slots_keep_below(state, count);
	state->kept = count;
}
