/* fuzz-cache.c - libFuzzer harness of the index cache's loader
 * (src/core/cache.c through cache-private.h: the decoder of
 * tn_cache_load(), state snapshots' section included).
 *
 * The input is a whole cache file.  It is decoded as it is (the header,
 * the format version and the checksum refuse most damage), then sealed
 * (tn_cache_seal(): the current format version, the payload's length
 * and the checksum put in their places) and decoded again, so that the
 * payload's own checks are reached whatever the version of the corpus's
 * files.
 *
 * Checks: a refused file says why; a loaded index is consistent
 * (checkpoints from rank 0 in order within the events, counts per name,
 * per interval and per bin within the events, packet tables not empty)
 * and answers queries; saved again (tn_cache_encode()) it loads again,
 * and saving that gives the same bytes. */
#include "tests/fuzz/fuzz.h"
#include "src/core/cache-private.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/state-history.h"

static void check_checkpoints(const struct tn_index *index)
{
	const struct tn_checkpoint *cps = index->checkpoints;

	FUZZ_CHECK((index->checkpoint_count == 0) ==
		(index->event_count == 0), "%zu checkpoints, %" PRIu64
		" events", index->checkpoint_count, index->event_count);
	for (size_t i = 0; i < index->checkpoint_count; i++) {
		FUZZ_CHECK(i > 0 ? cps[i].rank > cps[i - 1].rank &&
			cps[i].rank - cps[i - 1].rank <= TN_INDEX_INTERVAL :
			cps[i].rank == 0, "checkpoint %zu", i);
		FUZZ_CHECK(cps[i].rank < index->event_count, "checkpoint %zu",
			i);
	}
}

static void check_counts(const struct tn_index *index)
{
	uint64_t total = 0;

	for (size_t i = 0; i < index->class_count; i++) {
		FUZZ_CHECK(index->classes[i].name &&
			index->classes[i].count <= index->event_count - total,
			"class %zu", i);
		total += index->classes[i].count;
	}
	if (index->interval_class_start) {
		const size_t *start = index->interval_class_start;

		FUZZ_CHECK(start[0] == 0, "interval starts");
		for (size_t i = 0; i < index->checkpoint_count; i++) {
			FUZZ_CHECK(start[i] <= start[i + 1], "interval %zu",
				i);
			for (size_t e = start[i]; e < start[i + 1]; e++)
				FUZZ_CHECK(index->interval_classes[e].key <
					index->class_count &&
					index->interval_classes[e].count > 0,
					"interval %zu, entry %zu", i, e);
		}
	}
	/* The sources: each found where it is, their entries in range. */
	for (size_t i = 0; i < index->source_count; i++)
		FUZZ_CHECK(tn_index_find_source(index, &index->sources[i]) ==
			(long) i, "source %zu", i);
	if (index->interval_source_start) {
		const size_t *start = index->interval_source_start;
		uint64_t lost = 0;

		FUZZ_CHECK(start[0] == 0 && index->interval_lost,
			"interval sources");
		for (size_t i = 0; i < index->checkpoint_count; i++) {
			FUZZ_CHECK(start[i] <= start[i + 1], "interval %zu",
				i);
			for (size_t e = start[i]; e < start[i + 1]; e++)
				FUZZ_CHECK(index->interval_sources[e].key <
					index->source_count &&
					index->interval_sources[e].count > 0,
					"interval %zu, source entry %zu", i, e);
			lost += index->interval_lost[i];
		}
		FUZZ_CHECK(lost <= index->discarded_events, "%" PRIu64
			" lost in the intervals", lost);
	}
	total = 0;
	for (size_t i = 0; i < index->bin_count; i++) {
		FUZZ_CHECK(index->bins[i] <= index->event_count - total,
			"bin %zu", i);
		total += index->bins[i];
	}
	FUZZ_CHECK(index->packet_tables, "packet tables");
	for (size_t i = 0; i < tn_packets_get_table_count(
			index->packet_tables); i++)
		FUZZ_CHECK(tn_packets_get_packet_count(index->packet_tables,
			i) > 0, "packet table %zu", i);
}

/* What the session asks of a loaded index. */
static void query(const struct tn_index *index)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_set *set;
	struct tn_match_counts *counts;
	struct tn_error err;
	uint64_t ranks[] = { 0, index->event_count / 2, index->event_count,
		UINT64_MAX };

	for (size_t i = 0; i < G_N_ELEMENTS(ranks); i++) {
		const struct tn_checkpoint *cp =
			tn_index_checkpoint_for_rank(index, ranks[i]);

		FUZZ_CHECK(!cp == (index->checkpoint_count == 0) &&
			(!cp || cp->rank <= ranks[i]), "rank %" PRIu64,
			ranks[i]);
		if (cp)
			(void) tn_index_checkpoint_for_position(index,
				&cp->pos);
	}
	FUZZ_CHECK(tn_filter_stack_push(stack, TN_FILTER_EXPR,
		"name =~ \"s\"", &err) == 0, "%s", err.message);
	set = tn_filter_stack_snapshot(stack, false);
	counts = tn_match_counts_from_names(index, set);
	if (counts) {
		uint64_t matches = counts->before[counts->interval_count];

		FUZZ_CHECK(counts->interval_count == index->checkpoint_count,
			"match counts");
		for (size_t i = 0; i < counts->interval_count; i++)
			FUZZ_CHECK(counts->before[i] <= counts->before[i + 1],
				"match counts %zu", i);
		FUZZ_CHECK(matches <= index->event_count, "%" PRIu64
			" matches", matches);
		if (matches > 0)
			FUZZ_CHECK(tn_match_counts_interval_of(counts,
				matches - 1) < counts->interval_count,
				"interval of the last match");
		tn_match_counts_destroy(counts);
	}
	tn_filter_set_unref(set);
	tn_filter_stack_destroy(stack);
}

/* Save again, load, save: the same bytes. */
static void check_round_trip(const struct tn_index *index,
		const struct tn_state_snapshots *snapshots)
{
	GByteArray *saved = tn_cache_encode(index, snapshots), *again;
	struct tn_state_snapshots *snapshots2;
	struct tn_index *index2;
	struct tn_error err;

	FUZZ_CHECK(tn_cache_decode(saved->data, saved->len, &index2,
		&snapshots2, &err) == TN_CACHE_HIT,
		"a saved index does not load: %s", err.message);
	FUZZ_CHECK(index2->event_count == index->event_count &&
		index2->checkpoint_count == index->checkpoint_count &&
		index2->class_count == index->class_count &&
		index2->bin_count == index->bin_count &&
		!snapshots2 == !snapshots, "a saved index loads otherwise");
	again = tn_cache_encode(index2, snapshots2);
	FUZZ_CHECK(again->len == saved->len &&
		memcmp(again->data, saved->data, saved->len) == 0,
		"saved twice, %u and %u bytes", saved->len, again->len);
	g_byte_array_free(again, TRUE);
	g_byte_array_free(saved, TRUE);
	tn_index_destroy(index2);
	tn_state_snapshots_destroy(snapshots2);
}

/* Decode data; with check, a loaded index is checked to the end. */
static void decode(const uint8_t *data, size_t size, bool check)
{
	struct tn_state_snapshots *snapshots;
	struct tn_index *index;
	struct tn_error err = { "" };
	double clock = fuzz_clock_start();
	enum tn_cache_status status = tn_cache_decode(data, size, &index,
		&snapshots, &err);

	fuzz_clock_stop(clock);
	if (status != TN_CACHE_HIT) {
		FUZZ_CHECK((status == TN_CACHE_MISS ||
			status == TN_CACHE_INVALID) && err.message[0],
			"status %d", status);
		return;
	}
	if (check) {
		check_checkpoints(index);
		check_counts(index);
		query(index);
		check_round_trip(index, snapshots);
	}
	tn_index_destroy(index);
	tn_state_snapshots_destroy(snapshots);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	uint8_t *sealed = g_memdup2(data, size);

	decode(data, size, false);
	tn_cache_seal(sealed, size);
	decode(sealed, size, true);
	g_free(sealed);
}
