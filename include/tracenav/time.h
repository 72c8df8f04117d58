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

/* The ns from origin of spec.  A time of day is taken on the date (local,
 * or UTC if gmt) of reference_ns, usually the trace's first event, as the
 * babeltrace2 trimmer does.  An absolute spec is returned as is. */
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

#endif
