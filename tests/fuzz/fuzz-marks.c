/* fuzz-marks.c - libFuzzer harness of the marks file (src/core/marks.c:
 * tn_marks_parse(), what tn_marks_load() reads).
 *
 * The input is a marks file, then, after a NUL byte, the trace's path
 * that a save writes in its comment (a path may hold any byte but
 * NUL).
 *
 * Checks: a refused file gets a reason and leaves no mark; the marks
 * of an accepted one are in trace order, each once; written back
 * (tn_marks_format(), what a save writes) they load the same; the next
 * and previous mark of each are its neighbours. */
#include "tests/fuzz/fuzz.h"
#include "tracenav/marks.h"

static void check_order(const struct tn_marks *marks)
{
	size_t count = tn_marks_count(marks);

	for (size_t i = 0; i < count; i++) {
		const struct tn_position *pos = tn_marks_get(marks, i);
		bool wrapped;

		FUZZ_CHECK(i == 0 || tn_position_compare(tn_marks_get(marks,
			i - 1), pos) < 0, "mark %zu", i);
		FUZZ_CHECK(tn_marks_has(marks, pos), "mark %zu", i);
		FUZZ_CHECK(tn_marks_find(marks, pos, true, true, &wrapped) ==
			(long) ((i + 1) % count), "after mark %zu", i);
		FUZZ_CHECK(tn_marks_find(marks, pos, false, true, &wrapped) ==
			(long) ((i + count - 1) % count), "before mark %zu", i);
	}
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t file_size = nul ? (size_t) (nul - data) : size;
	struct tn_marks *marks = tn_marks_create();
	struct tn_marks *again = tn_marks_create();
	char *trace_path = nul ? fuzz_text(nul + 1, size - file_size - 1) :
		g_strdup("/traces/kernel");
	GString *text = g_string_new(NULL);
	struct tn_error err;
	double clock = fuzz_clock_start();
	int status = tn_marks_parse(marks, (const char *) data, file_size,
		&err);

	fuzz_clock_stop(clock);
	if (status) {
		FUZZ_CHECK(err.message[0] && tn_marks_count(marks) == 0,
			"a refused file");
		goto out;
	}
	check_order(marks);
	tn_marks_format(marks, trace_path, text);
	FUZZ_CHECK(tn_marks_parse(again, text->str, text->len, &err) == 0,
		"the marks saved do not load: %s", err.message);
	FUZZ_CHECK(tn_marks_count(again) == tn_marks_count(marks),
		"%zu marks saved, %zu loaded", tn_marks_count(marks),
		tn_marks_count(again));
	for (size_t i = 0; i < tn_marks_count(marks); i++)
		FUZZ_CHECK(tn_position_compare(tn_marks_get(marks, i),
			tn_marks_get(again, i)) == 0, "mark %zu", i);
out:
	g_string_free(text, TRUE);
	g_free(trace_path);
	tn_marks_destroy(marks);
	tn_marks_destroy(again);
}
