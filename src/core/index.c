/* index.c - the checkpoint index: lookups and ownership.  It is built by
 * index-build.c and saved by cache.c. */
#include <glib.h>
#include <string.h>

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
	for (size_t i = 0; i < index->source_count; i++)
		g_free(index->sources[i].trace);
	g_free(index->sources);
	g_free(index->interval_source_start);
	g_free(index->interval_sources);
	g_free(index->interval_lost);
	g_free(index->checkpoints);
	g_free(index->bins);
	g_free(index->lost_bins);
	tn_packets_destroy(index->packet_tables);
	g_free(index);
}

#define COMPARE(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

int tn_index_source_compare(const struct tn_index_source *a,
		const struct tn_index_source *b)
{
	int order = strcmp(a->trace, b->trace);

	if (order)
		return order;
	if (a->stream_class_id != b->stream_class_id)
		return COMPARE(a->stream_class_id, b->stream_class_id);
	if (a->stream_id != b->stream_id)
		return COMPARE(a->stream_id, b->stream_id);
	return COMPARE(a->cpu, b->cpu);
}

long tn_index_find_source(const struct tn_index *index,
		const struct tn_index_source *key)
{
	size_t low = 0, high = index->source_count;

	while (low < high) {
		size_t mid = low + (high - low) / 2;
		int order = tn_index_source_compare(&index->sources[mid], key);

		if (order == 0)
			return (long) mid;
		if (order < 0)
			low = mid + 1;
		else
			high = mid;
	}
	return -1;
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
