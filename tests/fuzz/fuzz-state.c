/* fuzz-state.c - libFuzzer harness of the state's binary forms, which
 * an index cache file holds once the state pass has run: the snapshots'
 * section (tn_state_snapshots_load(), src/core/state-snapshots.c), the
 * state blobs in it (tn_state_snapshots_restore(), through
 * src/core/state-delta.c) and the analyses kept with them
 * (tn_analysis_result_load(), src/core/analysis-save.c).
 *
 * The input is taken three ways: as a section, its trailing checksum
 * sealed (so that the checks behind it are reached), whose snapshots
 * are then restored and whose analyses loaded; as a state blob, applied
 * to an empty state without its checksum checked; as an analysis.
 *
 * Checks: a refusal says why; a state restored or applied saves to a
 * blob that restores to a state that saves the same bytes; an analysis
 * loaded saves and loads to the same bytes. */
#include "tests/fuzz/fuzz.h"
#include "src/core/analysis-private.h"
#include "src/core/bytes.h"
#include "src/core/state-history-private.h"
#include "tracenav/analysis.h"
#include "tracenav/state-history.h"
#include "tracenav/state.h"

/* Snapshots restored at most (each from its last full one). */
#define MAX_RESTORES 16

/* state saved, restored, saved again: the same bytes. */
static void check_state(const struct tn_state *state)
{
	GByteArray *saved = g_byte_array_new(), *again = g_byte_array_new();
	struct tn_state *restored = tn_state_create();
	struct tn_error err;

	tn_state_save(state, saved);
	FUZZ_CHECK(tn_state_restore(restored, saved->data, saved->len,
		&err) == 0, "a saved state does not restore: %s", err.message);
	tn_state_save(restored, again);
	FUZZ_CHECK(again->len == saved->len && memcmp(again->data,
		saved->data, saved->len) == 0, "a state saved twice: %u and "
		"%u bytes", saved->len, again->len);
	tn_state_destroy(restored);
	g_byte_array_free(saved, TRUE);
	g_byte_array_free(again, TRUE);
}

/* An analysis: loaded, saved, loaded and saved again, the same. */
static void check_analysis(const void *data, size_t size)
{
	struct tn_analysis_result *result, *again;
	GByteArray *saved, *saved_again;
	struct tn_error err = { "" };
	double clock = fuzz_clock_start();
	int status = tn_analysis_result_load(data, size, &result, &err);

	fuzz_clock_stop(clock);
	if (status) {
		FUZZ_CHECK(err.message[0], "a refusal without a reason");
		return;
	}
	saved = g_byte_array_new();
	saved_again = g_byte_array_new();
	tn_analysis_result_save(result, saved);
	FUZZ_CHECK(tn_analysis_result_load(saved->data, saved->len, &again,
		&err) == 0, "a saved analysis does not load: %s", err.message);
	tn_analysis_result_save(again, saved_again);
	FUZZ_CHECK(saved_again->len == saved->len && memcmp(saved_again->data,
		saved->data, saved->len) == 0, "an analysis saved twice");
	tn_analysis_result_destroy(again);
	tn_analysis_result_destroy(result);
	g_byte_array_free(saved, TRUE);
	g_byte_array_free(saved_again, TRUE);
}

static void fuzz_section(const uint8_t *data, size_t size)
{
	uint8_t *sealed = g_memdup2(data, size);
	struct tn_state_snapshots *snapshots;
	struct tn_state *state = tn_state_create();
	const char *const *names = tn_analysis_names();
	struct tn_error err = { "" };
	size_t count;
	double clock;
	int status;

	if (size >= 8)
		tn_bytes_set_le(sealed + size - 8,
			tn_bytes_hash64(sealed, size - 8), 8);
	clock = fuzz_clock_start();
	status = tn_state_snapshots_load(sealed, size, &snapshots, &err);
	fuzz_clock_stop(clock);
	if (status) {
		FUZZ_CHECK(err.message[0], "a refusal without a reason");
		goto out;
	}
	count = tn_state_snapshots_get_count(snapshots);
	for (size_t i = 0; i < count && i < MAX_RESTORES; i++) {
		clock = fuzz_clock_start();
		status = tn_state_snapshots_restore(snapshots, i, -1, state,
			&err);
		fuzz_clock_stop(clock);
		if (status)
			FUZZ_CHECK(err.message[0] &&
				tn_state_get_attribute_count(state) == 0,
				"snapshot %zu: a refusal", i);
		else
			check_state(state);
	}
	for (size_t i = 0; names[i]; i++) {
		char *name = g_strdup_printf("analysis/%s", names[i]);
		GBytes *blob = tn_state_snapshots_get_extra(snapshots, name);
		gsize len;

		if (blob) {
			check_analysis(g_bytes_get_data(blob, &len), (size_t) len);
			g_bytes_unref(blob);
		}
		g_free(name);
	}
	tn_state_snapshots_destroy(snapshots);
out:
	tn_state_destroy(state);
	g_free(sealed);
}

static void fuzz_blob(const uint8_t *data, size_t size)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	double clock = fuzz_clock_start();
	int status = tn_state_delta_apply(state, data, size, false, &err);

	fuzz_clock_stop(clock);
	if (status == 0)
		check_state(state);
	else
		FUZZ_CHECK(err.message[0], "a refusal without a reason");
	tn_state_destroy(state);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	fuzz_section(data, size);
	fuzz_blob(data, size);
	check_analysis(data, size);
}
