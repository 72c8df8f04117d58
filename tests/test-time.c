/* test-time.c - unit tests of src/core/time.c.
 *
 * Known answers come from the babeltrace2 2.0.4 CLI on real traces (e.g.
 * multi-domains: first event at 1565032541.344453871 s, printed
 * "19:15:41.344453871" in UTC) and from `date -d`.  Every check that
 * depends on the time zone sets TZ itself, so the test passes in any TZ.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "tracenav/time.h"

#define S(seconds) ((int64_t) (seconds) * TN_NS_PER_S)

/* multi-domains' first event. */
#define EVENT_NS (S(1565032541) + 344453871)

#define ACCEPTED "use HH:MM[:SS[.NS]], YYYY-MM-DD [HH:MM[:SS[.NS]]] or " \
	"[-]SEC[.NS]"

static char *saved_tz;
static bool had_tz;

static void use_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void save_tz(void)
{
	const char *tz = getenv("TZ");

	had_tz = tz != NULL;
	saved_tz = tz ? strdup(tz) : NULL;
}

static void restore_tz(void)
{
	if (had_tz)
		setenv("TZ", saved_tz, 1);
	else
		unsetenv("TZ");
	tzset();
	free(saved_tz);
}

/* ---- Helpers: one TAP line each --------------------------------------- */

static void parses_to(const char *text, bool gmt, enum tn_time_kind kind,
		int64_t ns, const char *what)
{
	struct tn_time_spec spec = { TN_TIME_ABSOLUTE, -42 };
	struct tn_error err;
	gchar *shown = g_strescape(text, NULL);
	int rc;

	tn_error_set(&err, "stale");
	rc = tn_time_parse(text, gmt, &spec, &err);
	if (!tap_ok(rc == 0 && spec.kind == kind && spec.ns == ns &&
			err.message[0] == '\0', "parse \"%s\"%s: %s", shown,
			gmt ? " (gmt)" : "", what))
		printf("#   rc %d, kind %d, ns %" PRId64 ", error \"%s\"\n"
			"#   want kind %d, ns %" PRId64 "\n", rc, spec.kind,
			spec.ns, err.message, kind, ns);
	g_free(shown);
}

/* The text is rejected, out is untouched and the message is exactly
 * "invalid time \"<trimmed text>\": <reason>". */
static void rejects(const char *text, const char *quoted, const char *reason,
		const char *what)
{
	struct tn_time_spec spec = { TN_TIME_OF_DAY, 42 };
	struct tn_error err = { "" };
	char want[TN_ERROR_MAX];
	gchar *shown = g_strescape(text, NULL);
	int rc;

	snprintf(want, sizeof(want), "invalid time \"%s\": %s", quoted,
		reason);
	rc = tn_time_parse(text, false, &spec, &err);
	if (!tap_ok(rc == -1 && spec.kind == TN_TIME_OF_DAY && spec.ns == 42 &&
			strcmp(err.message, want) == 0,
			"reject \"%s\": %s", shown, what))
		printf("#   rc %d, error \"%s\"\n#   want \"%s\"\n", rc,
			err.message, want);
	g_free(shown);
}

/* tn_time_parse_extended(): text parses to kind and ns. */
static void ext_parses_to(const char *text, bool gmt, enum tn_time_kind kind,
		int64_t ns, const char *what)
{
	struct tn_time_spec spec = { TN_TIME_OF_DAY, -42 };
	struct tn_error err;
	gchar *shown = g_strescape(text, NULL);
	int rc;

	tn_error_set(&err, "stale");
	rc = tn_time_parse_extended(text, gmt, &spec, &err);
	if (!tap_ok(rc == 0 && spec.kind == kind && spec.ns == ns &&
			err.message[0] == '\0', "extended \"%s\"%s: %s", shown,
			gmt ? " (gmt)" : "", what))
		printf("#   rc %d, kind %d, ns %" PRId64 ", error \"%s\"\n"
			"#   want kind %d, ns %" PRId64 "\n", rc, spec.kind,
			spec.ns, err.message, kind, ns);
	g_free(shown);
}

/* tn_time_parse_extended() rejects text with exactly the message
 * "invalid time \"<quoted>\": <reason>", out untouched. */
static void ext_rejects(const char *text, const char *quoted,
		const char *reason, const char *what)
{
	struct tn_time_spec spec = { TN_TIME_OF_DAY, 42 };
	struct tn_error err = { "" };
	char want[TN_ERROR_MAX];
	gchar *shown = g_strescape(text, NULL);
	int rc;

	snprintf(want, sizeof(want), "invalid time \"%s\": %s", quoted,
		reason);
	rc = tn_time_parse_extended(text, false, &spec, &err);
	if (!tap_ok(rc == -1 && spec.kind == TN_TIME_OF_DAY && spec.ns == 42 &&
			strcmp(err.message, want) == 0,
			"extended rejects \"%s\": %s", shown, what))
		printf("#   rc %d, error \"%s\"\n#   want \"%s\"\n", rc,
			err.message, want);
	g_free(shown);
}

static void resolves_to(const char *time_of_day, int64_t reference_ns,
		bool gmt, int64_t want, const char *what)
{
	struct tn_time_spec spec = { TN_TIME_ABSOLUTE, 0 };
	int64_t got = INT64_MIN;

	if (tn_time_parse(time_of_day, gmt, &spec, NULL) == 0)
		got = tn_time_resolve(&spec, reference_ns, gmt);
	tap_int_eq(got, want, "resolve \"%s\"%s: %s", time_of_day,
		gmt ? " (gmt)" : "", what);
}

static void wall_is(int64_t ns, bool gmt, bool with_date, const char *want,
		const char *what)
{
	/* Starts non-empty to check that the function appends. */
	GString *out = g_string_new("[");

	tn_time_format_wall(out, ns, gmt, with_date);
	tap_str_eq(out->str + 1, want, "wall %" PRId64 "%s%s: %s", ns,
		gmt ? " gmt" : "", with_date ? " date" : "", what);
	g_string_free(out, TRUE);
}

static void seconds_is(int64_t ns, const char *want, const char *what)
{
	GString *out = g_string_new("");

	tn_time_format_seconds(out, ns);
	tap_str_eq(out->str, want, "seconds %" PRId64 ": %s", ns, what);
	g_string_free(out, TRUE);
}

static void delta_is(int64_t delta, const char *want, const char *what)
{
	GString *out = g_string_new("");

	tn_time_format_delta(out, delta);
	tap_str_eq(out->str, want, "delta %" PRId64 ": %s", delta, what);
	g_string_free(out, TRUE);
}

/* ---- Parsing ------------------------------------------------------------ */

static void test_parse_dates(void)
{
	use_tz("America/Montreal");
	parses_to("2019-08-05 15:15:41.344453871", false, TN_TIME_ABSOLUTE,
		EVENT_NS, "local summer time (EDT, UTC-4), 9-digit fraction");
	parses_to("2019-08-05 19:15:41.344453871", true, TN_TIME_ABSOLUTE,
		EVENT_NS, "gmt ignores TZ");
	parses_to("2024-01-15 12:00", false, TN_TIME_ABSOLUTE, S(1705338000),
		"HH:MM, local winter time (EST, UTC-5)");
	parses_to("2024-01-15 12:00:30.5", false, TN_TIME_ABSOLUTE,
		S(1705338030) + 500000000, "1-digit fraction means 1/10 s");
	parses_to("2024-03-10 01:59:59", false, TN_TIME_ABSOLUTE,
		S(1710053999), "last second of EST before spring forward");
	parses_to("2024-03-10 03:00", false, TN_TIME_ABSOLUTE, S(1710054000),
		"first second of EDT, one second later");
	parses_to("2024-11-03 00:30", false, TN_TIME_ABSOLUTE, S(1730608200),
		"before fall back (EDT)");
	parses_to("2024-11-03 02:30", false, TN_TIME_ABSOLUTE, S(1730619000),
		"after fall back (EST)");
	parses_to("2024-03-10", false, TN_TIME_ABSOLUTE, S(1710046800),
		"date alone is local midnight");
	parses_to("2024-03-10", true, TN_TIME_ABSOLUTE, S(1710028800),
		"date alone, gmt is UTC midnight");
	parses_to("2024-02-29", true, TN_TIME_ABSOLUTE, S(1709164800),
		"leap day");
	parses_to("1970-01-01 00:00", true, TN_TIME_ABSOLUTE, 0,
		"the epoch itself");

	use_tz("Asia/Kolkata");
	parses_to("2024-03-10", false, TN_TIME_ABSOLUTE, S(1710009000),
		"local midnight in UTC+5:30");
	parses_to("2024-03-10", true, TN_TIME_ABSOLUTE, S(1710028800),
		"gmt is UTC midnight in any TZ");
}

static void test_parse_time_of_day(void)
{
	parses_to("12:34", false, TN_TIME_OF_DAY, S(12 * 3600 + 34 * 60),
		"HH:MM");
	parses_to("12:34:56", false, TN_TIME_OF_DAY,
		S(12 * 3600 + 34 * 60 + 56), "HH:MM:SS");
	parses_to("00:00:00.000000001", true, TN_TIME_OF_DAY, 1,
		"fraction of 9 digits, smallest");
	parses_to("23:59:59.999999999", false, TN_TIME_OF_DAY,
		S(86400) - 1, "last nanosecond of a day");
	parses_to("  12:34 \t", false, TN_TIME_OF_DAY, S(12 * 3600 + 34 * 60),
		"surrounding blanks are ignored");
}

static void test_parse_seconds(void)
{
	parses_to("1565032541.344453871", false, TN_TIME_ABSOLUTE, EVENT_NS,
		"seconds and 9-digit fraction");
	parses_to("1.5", false, TN_TIME_ABSOLUTE, 1500000000,
		"fraction is a fraction");
	parses_to("0.000000001", false, TN_TIME_ABSOLUTE, 1, "one nanosecond");
	parses_to("007", false, TN_TIME_ABSOLUTE, S(7), "leading zeros");
	parses_to("-1.5", false, TN_TIME_ABSOLUTE, -1500000000,
		"negative: the sign applies to the fraction too");
	parses_to("-0.5", false, TN_TIME_ABSOLUTE, -500000000,
		"negative below one second");
	parses_to("-0", false, TN_TIME_ABSOLUTE, 0, "minus zero");
	parses_to("9223372036.854775807", false, TN_TIME_ABSOLUTE, INT64_MAX,
		"largest");
	parses_to("-9223372036.854775807", false, TN_TIME_ABSOLUTE,
		-INT64_MAX, "most negative accepted");
	parses_to("\n1.5\n", false, TN_TIME_ABSOLUTE, 1500000000,
		"newlines are blanks");
}

static void test_parse_rejections(void)
{
	rejects("", "", ACCEPTED, "empty");
	rejects(" \t ", "", ACCEPTED, "only blanks");
	rejects("12:3", "12:3", ACCEPTED, "one-digit minute");
	rejects("12:34.5", "12:34.5", ACCEPTED, "fraction without seconds");
	rejects("1.2345678901", "1.2345678901", ACCEPTED,
		"fraction of 10 digits");
	rejects("1.", "1.", ACCEPTED, "dot without fraction");
	rejects(".5", ".5", ACCEPTED, "fraction without seconds");
	rejects("+1", "+1", ACCEPTED, "plus sign");
	rejects("2024-1-01", "2024-1-01", ACCEPTED, "one-digit month");
	rejects("2024-01-01T12:00", "2024-01-01T12:00", ACCEPTED, "ISO T");
	rejects("2024-01-01  12:00", "2024-01-01  12:00", ACCEPTED,
		"two spaces between date and time");
	rejects(" abc ", "abc", ACCEPTED, "letters, quoted trimmed");
	rejects("9223372036.854775808", "9223372036.854775808",
		"too large; at most 9223372036.854775807 seconds either way",
		"one past INT64_MAX ns");
	rejects("-9223372036.854775808", "-9223372036.854775808",
		"too large; at most 9223372036.854775807 seconds either way",
		"INT64_MIN ns");
	rejects("99999999999999999999", "99999999999999999999",
		"too large; at most 9223372036.854775807 seconds either way",
		"more seconds than int64");
	rejects("2024-13-01", "2024-13-01",
		"month 13 is out of range (01 to 12)", "month 13");
	rejects("2023-02-29", "2023-02-29",
		"day 29 is out of range (01 to 28 for 2023-02)",
		"February 29 of a common year");
	rejects("2024-01-01 25:00", "2024-01-01 25:00",
		"hour 25 is out of range (00 to 23)", "hour 25");
	rejects("12:61", "12:61", "minute 61 is out of range (00 to 59)",
		"minute 61");
	rejects("12:00:61", "12:00:61",
		"second 61 is out of range (00 to 60)", "second 61");
	use_tz("UTC");
	rejects("1969-12-31 23:59", "1969-12-31 23:59",
		"it is before the Unix epoch (1970-01-01 00:00:00 UTC)",
		"before the epoch");
	rejects("2262-04-12", "2262-04-12", "it is too late to count in "
		"64-bit nanoseconds (after 2262-04-11)", "after int64 ns");
}

/* ---- The extended forms (goto) ----------------------------------------- */

#define UNITS "use s, ms, us or ns"
#define TOO_LARGE "too large; at most 9223372036.854775807 seconds either way"

static void test_extended_relative(void)
{
	ext_parses_to("+10ms", false, TN_TIME_RELATIVE, 10000000, "+10ms");
	ext_parses_to("-2.5s", false, TN_TIME_RELATIVE, -2500000000,
		"-2.5s: back, a fraction of seconds");
	ext_parses_to("+300us", false, TN_TIME_RELATIVE, 300000, "+300us");
	ext_parses_to("+1500ns", false, TN_TIME_RELATIVE, 1500, "+1500ns");
	ext_parses_to("+1.5us", false, TN_TIME_RELATIVE, 1500,
		"a fraction of microseconds");
	ext_parses_to("+0.000001ms", false, TN_TIME_RELATIVE, 1,
		"one ns written in ms");
	ext_parses_to("+2.000ns", false, TN_TIME_RELATIVE, 2,
		"zeros past the nanosecond are fine");
	ext_parses_to("+.5s", false, TN_TIME_RELATIVE, 500000000,
		"no digit before the dot");
	ext_parses_to("-0s", false, TN_TIME_RELATIVE, 0, "minus zero");
	ext_parses_to(" +10 ms ", false, TN_TIME_RELATIVE, 10000000,
		"blanks around and before the unit");
	ext_parses_to("+9223372036.854775807s", false, TN_TIME_RELATIVE,
		INT64_MAX, "the largest");
	ext_parses_to("-2.5", false, TN_TIME_ABSOLUTE, -2500000000,
		"-2.5 without a unit: seconds from origin, as babeltrace2");
	ext_rejects("+10qs", "+10qs", "unknown unit \"qs\": " UNITS,
		"an unknown unit");
	ext_rejects("-1m", "-1m", "unknown unit \"m\": " UNITS,
		"minutes are no unit");
	ext_rejects("+10", "+10", "a time from the current event needs a "
		"unit: s, ms, us or ns (+10ms)", "+N needs a unit");
	ext_rejects("+0.5ns", "+0.5ns", "finer than a nanosecond",
		"half a nanosecond");
	ext_rejects("+1.0001us", "+1.0001us", "finer than a nanosecond",
		"a tenth of a nanosecond");
	ext_rejects("+9223372036.854775808s", "+9223372036.854775808s",
		TOO_LARGE, "one past the largest");
	ext_rejects("+99999999999999999999ns", "+99999999999999999999ns",
		TOO_LARGE, "more than int64");
	ext_rejects("+10000000000s", "+10000000000s", TOO_LARGE,
		"10^10 s does not fit");
	ext_rejects("+", "+", TN_TIME_EXTENDED_FORMS, "a sign alone");
	ext_rejects("+1.s", "+1.s", TN_TIME_EXTENDED_FORMS,
		"a dot without digits");
}

static void test_extended_words(void)
{
	ext_parses_to("begin", false, TN_TIME_BEGIN, 0, "begin");
	ext_parses_to(" end ", false, TN_TIME_END, 0, "end");
	ext_rejects("beginning", "beginning", TN_TIME_EXTENDED_FORMS,
		"only the word begin");
	ext_rejects("END", "END", TN_TIME_EXTENDED_FORMS, "lower case");
}

static void test_extended_iso(void)
{
	use_tz("America/Montreal");
	ext_parses_to("2019-08-05T19:15:41.344453871Z", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "Z is UTC, whatever TZ");
	ext_parses_to("2019-08-05t19:15:41.344453871z", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "lower-case t and z");
	ext_parses_to("2019-08-05T21:15:41.344453871+02:00", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "+02:00: two hours east");
	ext_parses_to("2019-08-05T21:15:41.344453871+0200", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "+0200");
	ext_parses_to("2019-08-05T21:15:41.344453871+02", true,
		TN_TIME_ABSOLUTE, EVENT_NS, "+02, gmt changes nothing");
	ext_parses_to("2019-08-05T13:45:41.344453871-05:30", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "-05:30: west, half hours");
	ext_parses_to("2019-08-05 19:15:41.344453871Z", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "a blank for the T");
	ext_parses_to("2019-08-05T19:15:41,344453871Z", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "a comma before the fraction");
	ext_parses_to("2019-08-05T15:15:41.344453871", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "no zone: local time (EDT)");
	ext_parses_to("2019-08-05T19:15:41.344453871", true,
		TN_TIME_ABSOLUTE, EVENT_NS, "no zone, gmt: UTC");
	ext_parses_to("2019-08-05T19:15Z", false, TN_TIME_ABSOLUTE,
		S(1565032500), "minutes only");
	ext_parses_to("2019-08-05 15:15:41.344453871", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "babeltrace2's form still");
	ext_rejects("2019-08-05T25:00Z", "2019-08-05T25:00Z",
		"hour 25 is out of range (00 to 23)", "hour 25");
	ext_rejects("2019-02-30T10:00Z", "2019-02-30T10:00Z",
		"day 30 is out of range (01 to 28 for 2019-02)", "February 30");
	ext_rejects("2019-08-05T10:00+24:00", "2019-08-05T10:00+24:00",
		"the zone offset 24:00 is out of range (at most 23:59)",
		"offset 24 hours");
	ext_rejects("2019-08-05T10:00+02:0", "2019-08-05T10:00+02:0",
		TN_TIME_EXTENDED_FORMS, "a one-digit offset minute");
	ext_rejects("2019-08-05T10:00:00.1234567890Z",
		"2019-08-05T10:00:00.1234567890Z", TN_TIME_EXTENDED_FORMS,
		"ten digits of fraction");
	ext_rejects("1969-12-31T23:00Z", "1969-12-31T23:00Z",
		"it is before the Unix epoch (1970-01-01 00:00:00 UTC)",
		"before the epoch");
	ext_rejects("1970-01-01T00:30+01:00", "1970-01-01T00:30+01:00",
		"it is before the Unix epoch (1970-01-01 00:00:00 UTC)",
		"before the epoch once the offset is taken off");
}

static void test_extended_bracketed(void)
{
	use_tz("UTC");
	ext_parses_to("[19:15:41.344453871]", false, TN_TIME_OF_DAY,
		S(19 * 3600 + 15 * 60 + 41) + 344453871,
		"babeltrace2's default: a time of day");
	ext_parses_to("[2019-08-05 19:15:41.344453871]", false,
		TN_TIME_ABSOLUTE, EVENT_NS, "--clock-date");
	ext_parses_to("[1565032541.344453871]", false, TN_TIME_ABSOLUTE,
		EVENT_NS, "--clock-seconds");
	ext_parses_to("[2019-08-05 19:15:41.344453871] (+0.000000472)",
		false, TN_TIME_ABSOLUTE, EVENT_NS, "with the delta after it");
	ext_parses_to("[19:15:41.344453871] (+?.????????\?) box "
		"sched_switch: { cpu_id = 0 }, { prev_comm = \"a]b\" }",
		false, TN_TIME_OF_DAY, S(19 * 3600 + 15 * 60 + 41) + 344453871,
		"a whole pasted line");
	ext_parses_to("[ 19:15:41.5 ]", false, TN_TIME_OF_DAY,
		S(19 * 3600 + 15 * 60 + 41) + 500000000,
		"blanks inside the brackets");
	ext_rejects("[19:15:41.344453871", "[19:15:41.344453871",
		"the bracket [ is not closed", "no closing bracket");
	ext_rejects("[+10ms]", "[+10ms]", "no time in the brackets: use "
		"[HH:MM:SS.NS], [YYYY-MM-DD HH:MM:SS.NS] or [SEC.NS], as "
		"babeltrace2 prints them", "a relative time is not printed");
	ext_rejects("[19:61]", "19:61", "minute 61 is out of range "
		"(00 to 59)", "an error inside names the inside");
	ext_rejects("19:15:41.5 (+0.1)", "19:15:41.5 (+0.1)",
		TN_TIME_EXTENDED_FORMS, "without brackets, nothing may follow");
}

/* ---- Resolving ---------------------------------------------------------- */

static void test_resolve(void)
{
	/* 2019-08-06 02:00 UTC is 2019-08-05 22:00 in Montreal. */
	int64_t late_evening = S(1565056800);
	struct tn_time_spec absolute = { TN_TIME_ABSOLUTE, -7 };

	use_tz("America/Montreal");
	resolves_to("12:00", EVENT_NS, false, S(1565020800),
		"on the local date of the reference (EDT)");
	resolves_to("12:00", EVENT_NS, true, S(1565006400),
		"on the UTC date of the reference");
	resolves_to("01:00", late_evening, false, S(1564981200),
		"local date is the day before the UTC date");
	resolves_to("01:00", late_evening, true, S(1565053200),
		"UTC date of the same reference");
	resolves_to("15:15:41.344453871", EVENT_NS, false, EVENT_NS,
		"fraction kept");
	resolves_to("01:00", S(1710086400), false, S(1710050400),
		"DST day, before the change (EST)");
	resolves_to("12:00", S(1710050400), false, S(1710086400),
		"DST day, after the change (EDT)");
	use_tz("Asia/Kolkata");
	/* 2024-03-09 20:00 UTC is 2024-03-10 01:30 in Kolkata. */
	resolves_to("00:00", S(1710014400), false, S(1710009000),
		"local midnight is 18:30 UTC the day before");
	resolves_to("12:00", -500000000, true, S(43200),
		"reference -0.5 s truncates to 1970-01-01, like the trimmer");
	tap_int_eq(tn_time_resolve(&absolute, EVENT_NS, false), -7,
		"resolve an absolute time: returned as is");
}

/* ---- Formatting --------------------------------------------------------- */

static void test_format_wall(void)
{
	use_tz("UTC");
	wall_is(EVENT_NS, false, false, "19:15:41.344453871",
		"local in UTC, as the CLI prints multi-domains");
	use_tz("America/Montreal");
	wall_is(EVENT_NS, true, true, "2019-08-05 19:15:41.344453871",
		"gmt with date");
	wall_is(EVENT_NS, false, true, "2019-08-05 15:15:41.344453871",
		"local EDT with date");
	wall_is(S(1705338000), false, true, "2024-01-15 12:00:00.000000000",
		"local EST with date");
	use_tz("Asia/Kolkata");
	wall_is(EVENT_NS, false, true, "2019-08-06 00:45:41.344453871",
		"local date after the UTC date");
	wall_is(0, true, true, "1970-01-01 00:00:00.000000000", "the epoch");
	wall_is(-1500000000, true, true, "-1.500000000",
		"negative falls back to seconds");
}

static void test_format_seconds(void)
{
	seconds_is(EVENT_NS, "1565032541.344453871", "as --clock-seconds");
	seconds_is(0, "0.000000000", "zero");
	seconds_is(-1500000000, "-1.500000000", "negative with fraction");
	seconds_is(-500000000, "-0.500000000", "negative below one second");
	seconds_is(-1000000000, "-1.000000000", "negative whole second");
	seconds_is(INT64_MAX, "9223372036.854775807", "INT64_MAX");
	seconds_is(INT64_MIN, "-9223372036.854775808", "INT64_MIN");
}

static void test_format_delta(void)
{
	delta_is(0, "+0.000000000", "zero");
	delta_is(76267, "+0.000076267", "as in wk-heartbeat-u");
	delta_is(11404514254, "+11.404514254", "multi-second, as in 2packets");
	delta_is(-2, "+18446744073.709551614", "negative taken as unsigned");
	delta_is(-1, "+?.?????????", "-1 is babeltrace2's \"unknown\"");
}

int main(void)
{
	save_tz();
	test_parse_dates();
	test_parse_time_of_day();
	test_parse_seconds();
	test_parse_rejections();
	test_extended_relative();
	test_extended_words();
	test_extended_iso();
	test_extended_bracketed();
	test_resolve();
	test_format_wall();
	test_format_seconds();
	test_format_delta();
	restore_tz();
	return tap_done();
}
