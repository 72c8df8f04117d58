/* index-tally.c - counts per key and checkpoint interval for one worker
 * of the index build (see index-tally.h). */
#include "index-tally.h"

void tn_index_tallies_init(struct tn_index_tallies *t,
		GDestroyNotify key_free)
{
	t->keys = g_ptr_array_new_with_free_func(key_free);
	t->tallies = g_ptr_array_new_with_free_func(g_free);
	t->starts = g_array_new(FALSE, FALSE, sizeof(size_t));
	t->entries = g_array_new(FALSE, FALSE,
		sizeof(struct tn_interval_count));
	t->touched = g_ptr_array_new();
}

void tn_index_tallies_fini(struct tn_index_tallies *t)
{
	if (!t->keys)
		return;
	g_ptr_array_free(t->keys, TRUE);
	g_ptr_array_free(t->tallies, TRUE);
	g_array_free(t->starts, TRUE);
	g_array_free(t->entries, TRUE);
	g_ptr_array_free(t->touched, TRUE);
	t->keys = NULL;
}

struct tn_index_tally *tn_index_tallies_add(struct tn_index_tallies *t,
		gpointer key)
{
	struct tn_index_tally *tally = g_new0(struct tn_index_tally, 1);

	tally->id = t->keys->len;
	g_ptr_array_add(t->keys, key);
	g_ptr_array_add(t->tallies, tally);
	return tally;
}

void tn_index_tallies_close(struct tn_index_tallies *t)
{
	for (guint i = 0; i < t->touched->len; i++) {
		struct tn_index_tally *tally = g_ptr_array_index(t->touched, i);
		struct tn_interval_count entry = { tally->id,
			tally->in_interval };

		g_array_append_val(t->entries, entry);
		tally->in_interval = 0;
	}
	g_ptr_array_set_size(t->touched, 0);
}

void tn_index_tallies_next_interval(struct tn_index_tallies *t)
{
	size_t start;

	tn_index_tallies_close(t);
	start = t->entries->len;
	g_array_append_val(t->starts, start);
}

guint tn_index_tallies_get_interval_count(const struct tn_index_tallies *t)
{
	return t->starts->len;
}

const struct tn_interval_count *tn_index_tallies_borrow_interval(
		const struct tn_index_tallies *t, guint k, size_t *count)
{
	size_t from = g_array_index(t->starts, size_t, k);
	size_t to = k + 1 < t->starts->len ?
		g_array_index(t->starts, size_t, k + 1) : t->entries->len;

	*count = to - from;
	return to > from ? &g_array_index(t->entries,
		struct tn_interval_count, from) : NULL;
}
