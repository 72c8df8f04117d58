/* time.c - parsing and formatting of points in time.
 *
 * The accepted forms and their meaning follow the flt.utils.trimmer
 * component of babeltrace2 2.0.4 (--begin/--end), and the printed forms
 * follow its default text output (sink.text.pretty), byte for byte.
 * Where babeltrace2 silently does something surprising with bad input, we
 * report an error instead; each such place says so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tracenav/time.h"

#define SECONDS_PER_DAY 86400

#define ACCEPTED_FORMS \
	"use HH:MM[:SS[.NS]], YYYY-MM-DD [HH:MM[:SS[.NS]]] or [-]SEC[.NS]"

/* The part of the user's text being parsed: [p, end). */
struct cursor {
	const char *p;
	const char *end;
};

/* The fields of "HH:MM[:SS[.NS]]", absent ones being 0. */
struct clock_fields {
	int hour;
	int minute;
	int second;
	int64_t ns;
};

struct date_fields {
	int year;
	int month;
	int day;
};

/* ---- Low-level scanning ------------------------------------------------ */

static bool at_end(const struct cursor *c)
{
	return c->p == c->end;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool take_char(struct cursor *c, char ch)
{
	if (at_end(c) || *c->p != ch)
		return false;
	c->p++;
	return true;
}

/* Exactly count digits, as a regular expression's [0-9]{count} would. */
static bool take_fixed_digits(struct cursor *c, int count, int *value)
{
	int v = 0;

	if (c->end - c->p < count)
		return false;
	for (int i = 0; i < count; i++) {
		if (!is_digit(c->p[i]))
			return false;
		v = v * 10 + (c->p[i] - '0');
	}
	c->p += count;
	*value = v;
	return true;
}

/* ".NS" with 1 to 9 digits, a fraction of a second: ".5" is 500000000 ns.
 * A tenth digit makes the whole text invalid, as in babeltrace2.  ",NS"
 * too, for ISO 8601: the callers of the other forms only call it on a
 * '.'. */
static bool take_fraction(struct cursor *c, int64_t *ns)
{
	int64_t v = 0;
	int digits = 0;

	if (!take_char(c, '.') && !take_char(c, ','))
		return false;
	while (!at_end(c) && is_digit(*c->p)) {
		if (++digits > 9)
			return false;
		v = v * 10 + (*c->p++ - '0');
	}
	if (digits == 0)
		return false;
	for (; digits < 9; digits++)
		v *= 10;
	*ns = v;
	return true;
}

/* One or more digits as an unsigned count of seconds.  Sets *overflow and
 * still consumes the digits when the value does not fit an int64_t. */
static bool take_seconds(struct cursor *c, int64_t *value, bool *overflow)
{
	int64_t v = 0;
	const char *start = c->p;

	*overflow = false;
	while (!at_end(c) && is_digit(*c->p)) {
		int digit = *c->p++ - '0';

		if (v > (INT64_MAX - digit) / 10)
			*overflow = true;
		else
			v = v * 10 + digit;
	}
	*value = v;
	return c->p > start;
}

/* "HH:MM[:SS[.NS]]" at the start of the text, what follows it left;
 * with iso, the fraction may follow a ',' too (ISO 8601). */
static bool take_clock_part(struct cursor *c, struct clock_fields *f,
		bool iso)
{
	*f = (struct clock_fields) { 0 };
	if (!take_fixed_digits(c, 2, &f->hour) || !take_char(c, ':') ||
			!take_fixed_digits(c, 2, &f->minute))
		return false;
	if (take_char(c, ':')) {
		if (!take_fixed_digits(c, 2, &f->second))
			return false;
		if (!at_end(c) && (*c->p == '.' || (iso && *c->p == ',')) &&
		    !take_fraction(c, &f->ns))
			return false;
	}
	return true;
}

/* "HH:MM[:SS[.NS]]" up to the end of the text. */
static bool take_clock(struct cursor *c, struct clock_fields *f)
{
	return take_clock_part(c, f, false) && at_end(c);
}

/* "YYYY-MM-DD", not necessarily up to the end of the text. */
static bool take_date(struct cursor *c, struct date_fields *d)
{
	return take_fixed_digits(c, 4, &d->year) && take_char(c, '-') &&
		take_fixed_digits(c, 2, &d->month) && take_char(c, '-') &&
		take_fixed_digits(c, 2, &d->day);
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
		ch == '\v' || ch == '\f';
}

static struct cursor trimmed(const char *text)
{
	struct cursor c = { text, text + strlen(text) };

	while (c.p < c.end && is_blank(*c.p))
		c.p++;
	while (c.end > c.p && is_blank(c.end[-1]))
		c.end--;
	return c;
}

/* ---- Validation -------------------------------------------------------- */

/* babeltrace2 hands out-of-range fields to mktime(), which silently
 * normalises them ("12:61" becomes 13:01).  A typo is likelier than
 * intent, so we reject them.  Second 60 is allowed: it is valid in a
 * struct tm (leap second) and mktime() gives the next minute. */
static int check_field(const struct cursor *text, const char *what,
		int value, int max, struct tn_error *err)
{
	if (value <= max)
		return 0;
	tn_error_set(err, "invalid time \"%.*s\": %s %02d is out of range "
		"(00 to %02d)", (int) (text->end - text->p), text->p, what,
		value, max);
	return -1;
}

static int check_clock(const struct cursor *text,
		const struct clock_fields *f, struct tn_error *err)
{
	if (check_field(text, "hour", f->hour, 23, err) ||
	    check_field(text, "minute", f->minute, 59, err) ||
	    check_field(text, "second", f->second, 60, err))
		return -1;
	return 0;
}

static bool is_leap_year(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int days_in_month(int year, int month)
{
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	if (month == 2 && is_leap_year(year))
		return 29;
	return days[month - 1];
}

/* Same reason as check_clock(): mktime() would turn 2024-02-30 into
 * 2024-03-01 without a word. */
static int check_date(const struct cursor *text,
		const struct date_fields *d, struct tn_error *err)
{
	int len = (int) (text->end - text->p);

	if (d->month < 1 || d->month > 12) {
		tn_error_set(err, "invalid time \"%.*s\": month %02d is out of "
			"range (01 to 12)", len, text->p, d->month);
		return -1;
	}
	if (d->day < 1 || d->day > days_in_month(d->year, d->month)) {
		tn_error_set(err, "invalid time \"%.*s\": day %02d is out of "
			"range (01 to %02d for %04d-%02d)", len, text->p, d->day,
			days_in_month(d->year, d->month), d->year, d->month);
		return -1;
	}
	return 0;
}

/* ---- Conversions ------------------------------------------------------- */

static int64_t clock_to_ns(const struct clock_fields *f)
{
	return ((int64_t) f->hour * 3600 + f->minute * 60 + f->second) *
		TN_NS_PER_S + f->ns;
}

static struct clock_fields ns_to_clock(int64_t ns_since_midnight)
{
	int64_t s = ns_since_midnight / TN_NS_PER_S;

	return (struct clock_fields) {
		.hour = (int) (s / 3600),
		.minute = (int) (s / 60 % 60),
		.second = (int) (s % 60),
		.ns = ns_since_midnight % TN_NS_PER_S,
	};
}

/* Seconds from the epoch of a date and clock time, in local time or UTC,
 * the way the trimmer computes it: tm_isdst = -1 lets mktime() pick
 * whether daylight saving time applies on that date. */
static time_t broken_down_to_seconds(const struct date_fields *d,
		const struct clock_fields *f, bool gmt)
{
	struct tm tm = {
		.tm_year = d->year - 1900,
		.tm_mon = d->month - 1,
		.tm_mday = d->day,
		.tm_hour = f->hour,
		.tm_min = f->minute,
		.tm_sec = f->second,
		.tm_isdst = -1,
	};

	return gmt ? timegm(&tm) : mktime(&tm);
}

/* seconds * 10^9 + ns when it fits an int64_t. */
static bool seconds_to_ns(int64_t seconds, int64_t ns, int64_t *out)
{
	if (seconds > (INT64_MAX - ns) / TN_NS_PER_S)
		return false;
	*out = seconds * TN_NS_PER_S + ns;
	return true;
}

/* ---- Parsing ----------------------------------------------------------- */

/* A date and time once converted to seconds from the epoch (plus ns):
 * 1 with out, or -1 with err when it cannot be counted. */
static int finish_date_time(const struct cursor *text, time_t seconds,
		int64_t frac_ns, struct tn_time_spec *out, struct tn_error *err)
{
	int len = (int) (text->end - text->p);
	int64_t ns;

	/* The trimmer treats a negative mktime() result as a failure (and
	 * then misbehaves); dates before the epoch make no sense for traces
	 * whose origin is the epoch anyway. */
	if (seconds < 0) {
		tn_error_set(err, "invalid time \"%.*s\": it is before the "
			"Unix epoch (1970-01-01 00:00:00 UTC)", len, text->p);
		return -1;
	}
	if (!seconds_to_ns(seconds, frac_ns, &ns)) {
		tn_error_set(err, "invalid time \"%.*s\": it is too late to "
			"count in 64-bit nanoseconds (after 2262-04-11)",
			len, text->p);
		return -1;
	}
	*out = (struct tn_time_spec) { TN_TIME_ABSOLUTE, ns };
	return 1;
}

static int parse_date_time(const struct cursor *text, struct cursor c,
		bool gmt, struct tn_time_spec *out, struct tn_error *err)
{
	struct date_fields d;
	struct clock_fields f = { 0 };

	if (!take_date(&c, &d))
		return 0;
	/* One space exactly, as in babeltrace2's "DATE TIME" pattern. */
	if (!at_end(&c) && (!take_char(&c, ' ') || !take_clock(&c, &f)))
		return 0;
	if (check_date(text, &d, err) || check_clock(text, &f, err))
		return -1;
	return finish_date_time(text, broken_down_to_seconds(&d, &f, gmt),
		f.ns, out, err);
}

static int parse_time_of_day(const struct cursor *text, struct cursor c,
		struct tn_time_spec *out, struct tn_error *err)
{
	struct clock_fields f;

	if (!take_clock(&c, &f))
		return 0;
	if (check_clock(text, &f, err))
		return -1;
	*out = (struct tn_time_spec) { TN_TIME_OF_DAY, clock_to_ns(&f) };
	return 1;
}

static int parse_seconds(const struct cursor *text, struct cursor c,
		struct tn_time_spec *out, struct tn_error *err)
{
	bool negative = take_char(&c, '-');
	bool overflow;
	int64_t seconds, frac = 0, ns;

	if (!take_seconds(&c, &seconds, &overflow))
		return 0;
	if (!at_end(&c) && (*c.p != '.' || !take_fraction(&c, &frac)))
		return 0;
	if (!at_end(&c))
		return 0;
	/* babeltrace2 does not check; its value would wrap around.  We also
	 * refuse -9223372036.854775808 (INT64_MIN), which the trimmer
	 * rejects as a bound. */
	if (overflow || !seconds_to_ns(seconds, frac, &ns)) {
		tn_error_set(err, "invalid time \"%.*s\": too large; at most "
			"9223372036.854775807 seconds either way",
			(int) (text->end - text->p), text->p);
		return -1;
	}
	*out = (struct tn_time_spec) { TN_TIME_ABSOLUTE, negative ? -ns : ns };
	return 1;
}

/* Each form parser returns 1 with *out when the text has its form, 0
 * when it has not (nothing set), -1 when it has its form but a bad value
 * (err is set). */
int tn_time_parse(const char *text, bool gmt, struct tn_time_spec *out,
		struct tn_error *err)
{
	struct cursor c = trimmed(text);
	int ret;

	ret = parse_date_time(&c, c, gmt, out, err);
	if (ret == 0)
		ret = parse_time_of_day(&c, c, out, err);
	if (ret == 0)
		ret = parse_seconds(&c, c, out, err);
	if (ret == 0) {
		tn_error_set(err, "invalid time \"%.*s\": " ACCEPTED_FORMS,
			(int) (c.end - c.p), c.p);
		return -1;
	}
	if (ret < 0)
		return -1;
	tn_error_clear(err);
	return 0;
}

/* ---- The extended forms of a jump --------------------------------------- */

/* The babeltrace2 forms and ISO 8601: 1, 0 or -1 as the form parsers. */
static int parse_absolute(const struct cursor *text, bool gmt,
		struct tn_time_spec *out, struct tn_error *err);

/* "+N[.F]UNIT" or "-N[.F]UNIT" (blanks allowed before the unit).  0 when
 * the text is no signed number, or a negative one without a unit
 * ("-2.5": seconds from origin). */
static int parse_relative(const struct cursor *text, struct cursor c,
		struct tn_time_spec *out, struct tn_error *err)
{
	static const struct {
		const char *name;
		int64_t ns;
		int digits;	/* of a fraction that stays whole ns */
	} units[] = {
		{ "s", TN_NS_PER_S, 9 }, { "ms", 1000000, 6 },
		{ "us", 1000, 3 }, { "ns", 1, 0 },
	};
	int len = (int) (text->end - text->p);
	bool negative = false, overflow = false;
	const char *digits, *frac = NULL, *unit;
	int64_t whole = 0, value, frac_ns = 0;
	int frac_len = 0, unit_len;
	size_t u;

	if (!take_char(&c, '+')) {
		if (!take_char(&c, '-'))
			return 0;
		negative = true;
	}
	digits = c.p;
	for (; !at_end(&c) && is_digit(*c.p); c.p++) {
		if (whole > (INT64_MAX - (*c.p - '0')) / 10)
			overflow = true;
		else
			whole = whole * 10 + (*c.p - '0');
	}
	if (take_char(&c, '.')) {
		frac = c.p;
		while (!at_end(&c) && is_digit(*c.p))
			c.p++;
		frac_len = (int) (c.p - frac);
	}
	if (c.p == digits || (frac && frac_len == 0))
		return 0;
	while (!at_end(&c) && is_blank(*c.p))
		c.p++;
	unit = c.p;
	unit_len = (int) (c.end - c.p);
	if (unit_len == 0) {
		if (negative)
			return 0;
		tn_error_set(err, "invalid time \"%.*s\": a time from the "
			"current event needs a unit: s, ms, us or ns (+10ms)",
			len, text->p);
		return -1;
	}
	for (u = 0; u < G_N_ELEMENTS(units); u++)
		if ((int) strlen(units[u].name) == unit_len &&
		    !memcmp(units[u].name, unit, (size_t) unit_len))
			break;
	if (u == G_N_ELEMENTS(units)) {
		tn_error_set(err, "invalid time \"%.*s\": unknown unit "
			"\"%.*s\": use s, ms, us or ns", len, text->p,
			unit_len, unit);
		return -1;
	}
	/* The fraction in ns: its digits beyond the unit's must be 0. */
	for (int i = 0; i < frac_len; i++) {
		if (i < units[u].digits) {
			frac_ns = frac_ns * 10 + (frac[i] - '0');
		} else if (frac[i] != '0') {
			tn_error_set(err, "invalid time \"%.*s\": finer than "
				"a nanosecond", len, text->p);
			return -1;
		}
	}
	for (int i = MIN(frac_len, units[u].digits); i < units[u].digits; i++)
		frac_ns *= 10;
	if (overflow || whole > (INT64_MAX - frac_ns) / units[u].ns) {
		tn_error_set(err, "invalid time \"%.*s\": too large; at most "
			"9223372036.854775807 seconds either way", len, text->p);
		return -1;
	}
	value = whole * units[u].ns + frac_ns;
	*out = (struct tn_time_spec) { TN_TIME_RELATIVE,
		negative ? -value : value };
	return 1;
}

/* An ISO 8601 zone: Z, or +HH, +HH:MM, +HHMM (or -): *offset_s east of
 * UTC.  false when it is none. */
static bool take_zone(struct cursor *c, int *offset_s, int *hour,
		int *minute)
{
	int sign;

	*hour = *minute = 0;
	if (take_char(c, 'Z') || take_char(c, 'z')) {
		*offset_s = 0;
		return true;
	}
	if (take_char(c, '+'))
		sign = 1;
	else if (take_char(c, '-'))
		sign = -1;
	else
		return false;
	if (!take_fixed_digits(c, 2, hour))
		return false;
	if (!at_end(c)) {
		take_char(c, ':');
		if (!take_fixed_digits(c, 2, minute))
			return false;
	}
	*offset_s = sign * (*hour * 3600 + *minute * 60);
	return true;
}

/* "YYYY-MM-DDTHH:MM[:SS[.NS]][ZONE]" (a blank instead of the T). */
static int parse_iso(const struct cursor *text, struct cursor c, bool gmt,
		struct tn_time_spec *out, struct tn_error *err)
{
	struct date_fields d;
	struct clock_fields f;
	int offset_s = 0, zone_hour = 0, zone_minute = 0;
	bool has_zone = false;
	time_t seconds;

	if (!take_date(&c, &d) || !(take_char(&c, 'T') ||
	    take_char(&c, 't') || take_char(&c, ' ')) ||
	    !take_clock_part(&c, &f, true))
		return 0;
	if (!at_end(&c)) {
		if (!take_zone(&c, &offset_s, &zone_hour, &zone_minute) ||
		    !at_end(&c))
			return 0;
		has_zone = true;
	}
	if (check_date(text, &d, err) || check_clock(text, &f, err))
		return -1;
	if (zone_hour > 23 || zone_minute > 59) {
		tn_error_set(err, "invalid time \"%.*s\": the zone offset "
			"%02d:%02d is out of range (at most 23:59)",
			(int) (text->end - text->p), text->p, zone_hour,
			zone_minute);
		return -1;
	}
	if (has_zone) {
		struct tm tm = {
			.tm_year = d.year - 1900, .tm_mon = d.month - 1,
			.tm_mday = d.day, .tm_hour = f.hour,
			.tm_min = f.minute, .tm_sec = f.second,
		};

		/* The fields are the zone's time: UTC is that less the
		 * offset. */
		seconds = timegm(&tm) - offset_s;
	} else {
		seconds = broken_down_to_seconds(&d, &f, gmt);
	}
	return finish_date_time(text, seconds, f.ns, out, err);
}

/* "[TIME] ...": a time as babeltrace2 prints it at the start of a line,
 * what follows the bracket ignored. */
static int parse_bracketed(const struct cursor *text, struct cursor c,
		bool gmt, struct tn_time_spec *out, struct tn_error *err)
{
	struct cursor inner;
	const char *close;
	int ret;

	if (!take_char(&c, '['))
		return 0;
	close = memchr(c.p, ']', (size_t) (c.end - c.p));
	if (!close) {
		tn_error_set(err, "invalid time \"%.*s\": the bracket [ is "
			"not closed", (int) (text->end - text->p), text->p);
		return -1;
	}
	inner = (struct cursor) { c.p, close };
	while (inner.p < inner.end && is_blank(*inner.p))
		inner.p++;
	while (inner.end > inner.p && is_blank(inner.end[-1]))
		inner.end--;
	ret = parse_absolute(&inner, gmt, out, err);
	if (ret == 0) {
		ret = parse_time_of_day(&inner, inner, out, err);
		if (ret == 0)
			tn_error_set(err, "invalid time \"%.*s\": no time in "
				"the brackets: use [HH:MM:SS.NS], "
				"[YYYY-MM-DD HH:MM:SS.NS] or [SEC.NS], as "
				"babeltrace2 prints them",
				(int) (text->end - text->p), text->p);
	}
	return ret == 0 ? -1 : ret;
}

static int parse_absolute(const struct cursor *text, bool gmt,
		struct tn_time_spec *out, struct tn_error *err)
{
	int ret = parse_date_time(text, *text, gmt, out, err);

	if (ret == 0)
		ret = parse_iso(text, *text, gmt, out, err);
	if (ret == 0)
		ret = parse_seconds(text, *text, out, err);
	return ret;
}

static bool is_word(const struct cursor *c, const char *word)
{
	size_t len = strlen(word);

	return (size_t) (c->end - c->p) == len && !memcmp(c->p, word, len);
}

int tn_time_parse_extended(const char *text, bool gmt,
		struct tn_time_spec *out, struct tn_error *err)
{
	struct cursor c = trimmed(text);
	int ret;

	if (is_word(&c, "begin") || is_word(&c, "end")) {
		*out = (struct tn_time_spec) { is_word(&c, "begin") ?
			TN_TIME_BEGIN : TN_TIME_END, 0 };
		tn_error_clear(err);
		return 0;
	}
	ret = parse_bracketed(&c, c, gmt, out, err);
	if (ret == 0)
		ret = parse_relative(&c, c, out, err);
	if (ret == 0)
		ret = parse_absolute(&c, gmt, out, err);
	if (ret == 0)
		ret = parse_time_of_day(&c, c, out, err);
	if (ret == 0) {
		tn_error_set(err, "invalid time \"%.*s\": "
			TN_TIME_EXTENDED_FORMS, (int) (c.end - c.p), c.p);
		return -1;
	}
	if (ret < 0)
		return -1;
	tn_error_clear(err);
	return 0;
}

/* ---- Resolving a time of day ------------------------------------------- */

int64_t tn_time_resolve(const struct tn_time_spec *spec, int64_t reference_ns,
		bool gmt)
{
	/* C division truncates toward zero, as the trimmer's does: a
	 * reference of -0.5 s counts as 1970-01-01, not 1969-12-31. */
	time_t reference_s = (time_t) (reference_ns / TN_NS_PER_S);
	struct clock_fields f;
	struct date_fields d;
	struct tm day;
	time_t seconds;
	int64_t ns;

	if (spec->kind == TN_TIME_ABSOLUTE)
		return spec->ns;

	if (!(gmt ? gmtime_r(&reference_s, &day) :
			localtime_r(&reference_s, &day)))
		return reference_ns;	/* cannot happen for 64-bit time_t */
	d = (struct date_fields) {
		day.tm_year + 1900, day.tm_mon + 1, day.tm_mday,
	};
	f = ns_to_clock(spec->ns);
	seconds = broken_down_to_seconds(&d, &f, gmt);

	/* The trimmer fails when this is before the epoch (1970-01-01 east
	 * of UTC); we return the negative time instead, and saturate on the
	 * last day that int64 nanoseconds can count (2262-04-11). */
	if (seconds < INT64_MIN / TN_NS_PER_S)
		return INT64_MIN;
	if (seconds < 0)
		return seconds * TN_NS_PER_S + f.ns;
	if (!seconds_to_ns(seconds, f.ns, &ns))
		return INT64_MAX;
	return ns;
}

/* ---- Formatting -------------------------------------------------------- */

/* |ns| split into seconds and nanoseconds, with the sign aside; both
 * parts fit even for INT64_MIN because each is negated separately. */
struct split_ns {
	bool negative;
	uint64_t sec;
	uint64_t nsec;
};

static struct split_ns split(int64_t ns)
{
	int64_t sec = ns / TN_NS_PER_S;
	int64_t nsec = ns % TN_NS_PER_S;

	if (ns < 0)
		return (struct split_ns) { true, (uint64_t) -sec, (uint64_t) -nsec };
	return (struct split_ns) { false, (uint64_t) sec, (uint64_t) nsec };
}

void tn_time_format_seconds(GString *out, int64_t ns)
{
	struct split_ns s = split(ns);

	g_string_append_printf(out, "%s%" PRIu64 ".%09" PRIu64,
		s.negative ? "-" : "", s.sec, s.nsec);
}

/* babeltrace2 2.0.4 prints the first negative time of a run this way, but
 * later ones as the wall clock time of their absolute value (a bug); we
 * always print the seconds form, which is what its warning promises. */
void tn_time_format_wall(GString *out, int64_t ns, bool gmt, bool with_date)
{
	struct split_ns s = split(ns);
	time_t seconds = (time_t) s.sec;
	char date[32];
	struct tm tm;

	if (s.negative)
		goto seconds_form;
	if (!(gmt ? gmtime_r(&seconds, &tm) : localtime_r(&seconds, &tm)))
		goto seconds_form;
	if (with_date) {
		if (strftime(date, sizeof(date), "%Y-%m-%d ", &tm) == 0)
			goto seconds_form;
		g_string_append(out, date);
	}
	g_string_append_printf(out, "%02d:%02d:%02d.%09" PRIu64,
		tm.tm_hour, tm.tm_min, tm.tm_sec, s.nsec);
	return;

seconds_form:
	tn_time_format_seconds(out, ns);
}

void tn_time_format_back(GString *out, int64_t back_ns)
{
	g_string_append_printf(out, "-%" PRId64 ".%09" PRId64,
		back_ns / TN_NS_PER_S, back_ns % TN_NS_PER_S);
}

void tn_time_format_delta(GString *out, int64_t delta_ns)
{
	uint64_t delta = (uint64_t) delta_ns;

	/* babeltrace2 keeps "no previous event" as a delta of -1, so a real
	 * delta of -1 ns prints as unknown too. */
	if (delta == UINT64_MAX) {
		g_string_append(out, "+?.?????????");
		return;
	}
	g_string_append_printf(out, "+%" PRIu64 ".%09" PRIu64,
		delta / (uint64_t) TN_NS_PER_S, delta % (uint64_t) TN_NS_PER_S);
}
