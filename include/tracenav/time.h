/* time.h - parsing and formatting of points in time.
 *
 * Times are signed nanoseconds from the clock origin (the Unix epoch for
 * LTTng traces), as libbabeltrace2 gives them.  The accepted forms and the
 * printed form are exactly those of the babeltrace2 CLI (--begin/--end and
 * the default text output), so users can paste times between the tools.
 */
#ifndef TRACENAV_TIME_H
#define TRACENAV_TIME_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "tracenav/error.h"

#define TN_NS_PER_S INT64_C(1000000000)

enum tn_time_kind {
	TN_TIME_ABSOLUTE,	/* ns from origin, complete */
	TN_TIME_OF_DAY,		/* ns since midnight; the date comes from the trace */
	TN_TIME_RELATIVE,	/* ns from the current event (+10ms, -2.5s) */
	TN_TIME_BEGIN,		/* the first event (ns unused) */
	TN_TIME_END,		/* the last event (ns unused) */
};

struct tn_time_spec {
	enum tn_time_kind kind;
	int64_t ns;
};

/* Parse text typed by a user.  Accepted, as babeltrace2 accepts them:
 *   YYYY-MM-DD HH:MM[:SS[.NS]]   YYYY-MM-DD   (local time, or UTC if gmt)
 *   HH:MM[:SS[.NS]]              (time of day; see tn_time_resolve)
 *   [-]SEC[.NS]                  (seconds from origin)
 * NS has 1 to 9 digits and means a fraction (".5" is 500000000 ns).
 * Leading and trailing blanks are ignored.
 * Returns 0 and fills out, or -1 with err saying what is wrong and which
 * forms are accepted. */
int tn_time_parse(const char *text, bool gmt, struct tn_time_spec *out,
		struct tn_error *err);

/* The end of the message of tn_time_parse_extended() for a text that
 * has none of its forms (a caller may add its own forms after it). */
#define TN_TIME_EXTENDED_FORMS "use HH:MM[:SS[.NS]], YYYY-MM-DD " \
	"[HH:MM[:SS[.NS]]], [-]SEC[.NS], an ISO 8601 date-time " \
	"(2023-11-14T22:13:20.5Z), +N or -N with a unit (s, ms, us, ns), " \
	"begin or end"

/* Parse what a jump takes: every form of tn_time_parse(), and
 *   +N[.F]UNIT, -N[.F]UNIT  from the current event, UNIT s, ms, us or ns
 *                           (TN_TIME_RELATIVE; "-2.5" without a unit is
 *                           seconds from origin, as in babeltrace2)
 *   begin, end              the first and the last event
 *   YYYY-MM-DDTHH:MM[:SS[.NS]][ZONE]   ISO 8601 (T or a blank; ',' or
 *                           '.' before the fraction); ZONE is Z, +HH,
 *                           +HH:MM or +HHMM (or -); without one, local
 *                           time, or UTC if gmt
 *   [TIME] ...              a time in brackets as babeltrace2 and --dump
 *                           print it (default, --clock-date or
 *                           --clock-seconds form): everything after the
 *                           closing bracket (the delta, the rest of a
 *                           pasted line) is ignored
 * Returns 0 and fills out, or -1 with err naming the problem ("invalid
 * time \"+10qs\": unknown unit \"qs\": use s, ms, us or ns"); a text
 * of no form gets a message ending with TN_TIME_EXTENDED_FORMS. */
int tn_time_parse_extended(const char *text, bool gmt,
		struct tn_time_spec *out, struct tn_error *err);

/* The ns from origin of spec.  A time of day is taken on the date (local,
 * or UTC if gmt) of reference_ns, usually the trace's first event, as the
 * babeltrace2 trimmer does.  An absolute spec is returned as is; the
 * other kinds (relative, begin, end) need the cursor: the caller's. */
int64_t tn_time_resolve(const struct tn_time_spec *spec, int64_t reference_ns,
		bool gmt);

/* Append ns as babeltrace2 prints an event time: "HH:MM:SS.NNNNNNNNN" in
 * local time (UTC if gmt), preceded by "YYYY-MM-DD " if with_date.
 * A negative time is printed as "-SEC.NNNNNNNNN" (babeltrace2's fallback). */
void tn_time_format_wall(GString *out, int64_t ns, bool gmt, bool with_date);

/* Append ns as "[-]SEC.NNNNNNNNN" (babeltrace2's --clock-seconds form). */
void tn_time_format_seconds(GString *out, int64_t ns);

/* Append a delta between two consecutive events as babeltrace2 prints it
 * inside its parentheses: "+S.NNNNNNNNN".  The delta is taken as an
 * unsigned 64-bit difference, exactly like babeltrace2 does. */
void tn_time_format_delta(GString *out, int64_t delta_ns);

/* Append a delta back in time (back_ns > 0: an event recorded before
 * the one above it, its stream's time gone back): "-S.NNNNNNNNN". */
void tn_time_format_back(GString *out, int64_t back_ns);

#endif
