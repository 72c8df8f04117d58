/* fuzz-time.c - libFuzzer harness of the time forms (src/core/time.c):
 * what --begin and --end take (tn_time_parse()) and what goto, range
 * and t take (tn_time_parse_extended()), in local time and in UTC.
 *
 * Checks: every text the basic parser takes, the extended one takes
 * with the same meaning; a failure says "invalid time ..."; a parsed
 * time printed back as tracenav prints it parses again to the same
 * time (the seconds form always, the date form in UTC; in local time
 * an hour apart at most, where a clock is turned back); a time of day
 * is within a day and resolves against any reference. */
#include "tests/fuzz/fuzz.h"
#include "tracenav/time.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A zone with daylight saving time (Central Europe), written out so
 * that no time zone database is needed. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	return 0;
}

static void check_failure(const char *text, const struct tn_error *err)
{
	FUZZ_CHECK(g_str_has_prefix(err->message, "invalid time \""),
		"\"%s\": %s", text, err->message);
}

/* printed, parsed by parse (gmt) as an absolute time: ns again, or an
 * hour apart when tolerant. */
static void check_again(const char *printed, bool gmt, bool extended,
		int64_t ns, bool tolerant)
{
	struct tn_time_spec again;
	struct tn_error err;
	int status = extended ?
		tn_time_parse_extended(printed, gmt, &again, &err) :
		tn_time_parse(printed, gmt, &again, &err);

	FUZZ_CHECK(status == 0, "\"%s\" (gmt %d): %s", printed, gmt,
		err.message);
	FUZZ_CHECK(again.ns == ns || (tolerant && (again.ns - ns ==
		3600 * TN_NS_PER_S || ns - again.ns == 3600 * TN_NS_PER_S)),
		"\"%s\" (gmt %d) is %" G_GINT64_FORMAT ", not %"
		G_GINT64_FORMAT, printed, gmt, again.ns, ns);
}

static void check_spec(const char *text, const struct tn_time_spec *spec,
		bool gmt)
{
	static const int64_t references[] = {
		0, -1, INT64_C(1700000000123456789), INT64_MAX, INT64_MIN,
	};
	GString *printed = g_string_new(NULL);

	switch (spec->kind) {
	case TN_TIME_ABSOLUTE:
		FUZZ_CHECK(spec->ns != INT64_MIN, "\"%s\"", text);
		tn_time_format_seconds(printed, spec->ns);
		check_again(printed->str, gmt, false, spec->ns, false);
		g_string_truncate(printed, 0);
		tn_time_format_wall(printed, spec->ns, gmt, true);
		check_again(printed->str, gmt, false, spec->ns, !gmt);
		check_again(printed->str, gmt, true, spec->ns, !gmt);
		break;
	case TN_TIME_OF_DAY:
		FUZZ_CHECK(spec->ns >= 0 && spec->ns < 86401 * TN_NS_PER_S,
			"\"%s\": %" G_GINT64_FORMAT, text, spec->ns);
		for (size_t i = 0; i < G_N_ELEMENTS(references); i++)
			(void) tn_time_resolve(spec, references[i], gmt);
		/* Second 60 prints as the next day's first second. */
		if (spec->ns >= 86400 * TN_NS_PER_S)
			break;
		tn_time_format_wall(printed, spec->ns, true, false);
		check_again(printed->str, gmt, false, spec->ns, false);
		break;
	case TN_TIME_RELATIVE:
		g_string_printf(printed, "%s%" G_GUINT64_FORMAT " ns",
			spec->ns < 0 ? "-" : "+", spec->ns < 0 ?
			0 - (guint64) spec->ns : (guint64) spec->ns);
		check_again(printed->str, gmt, true, spec->ns, false);
		break;
	case TN_TIME_BEGIN:
	case TN_TIME_END:
		break;
	}
	g_string_free(printed, TRUE);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);

	for (int gmt = 0; gmt < 2; gmt++) {
		struct tn_time_spec spec, extended;
		struct tn_error err;
		int status;
		double clock = fuzz_clock_start();
		int basic = tn_time_parse(text, gmt, &spec, &err);

		fuzz_clock_stop(clock);
		if (basic == 0) {
			FUZZ_CHECK(spec.kind == TN_TIME_ABSOLUTE ||
				spec.kind == TN_TIME_OF_DAY, "\"%s\"", text);
			check_spec(text, &spec, gmt);
			FUZZ_CHECK(tn_time_parse_extended(text, gmt, &extended,
				&err) == 0 && extended.kind == spec.kind &&
				extended.ns == spec.ns, "\"%s\": %s", text,
				err.message);
		} else {
			check_failure(text, &err);
		}
		clock = fuzz_clock_start();
		status = tn_time_parse_extended(text, gmt, &extended, &err);
		fuzz_clock_stop(clock);
		if (status == 0)
			check_spec(text, &extended, gmt);
		else
			check_failure(text, &err);
	}
	g_free(text);
}
