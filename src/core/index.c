/* index.c - the checkpoint index: lookups and ownership.  It is built by
 * index-build.c and saved by cache.c. */
#include <glib.h>

#include "tracenav/index.h"

void tn_index_destroy(struct tn_index *index)
{
	if (!index)
		return;
	for (size_t i = 0; i < index->class_count; i++)
		g_free(index->classes[i].name);
	g_free(index->classes);
	g_free(index->interval_class_start);
	g_free(index->interval_classes);
	g_free(index->checkpoints);
	g_free(index->bins);
	g_free(index->lost_bins);
	tn_packets_destroy(index->packet_tables);
	g_free(index);
}

const struct tn_packet_tables *tn_index_borrow_packet_tables(
		const struct tn_index *index)
{
	return index ? index->packet_tables : NULL;
}

const struct tn_checkpoint *tn_index_checkpoint_for_rank(
		const struct tn_index *index, uint64_t rank)
{
	size_t low = 0, high = index->checkpoint_count;

	/* The first checkpoint whose rank is > rank is at `low`. */
	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (index->checkpoints[mid].rank <= rank)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? &index->checkpoints[low - 1] : NULL;
}

const struct tn_checkpoint *tn_index_checkpoint_for_position(
		const struct tn_index *index, const struct tn_position *pos)
{
	size_t low = 0, high = index->checkpoint_count;

	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (tn_position_compare(&index->checkpoints[mid].pos, pos) <= 0)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? &index->checkpoints[low - 1] : NULL;
}
