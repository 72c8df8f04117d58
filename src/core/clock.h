/* clock.h - times of libbabeltrace2 clocks: clock snapshots to ns, and ns
 * to the clock cycles of CTF packet indexes (internal: not part of the
 * public API).
 *
 * Every conversion of the core goes through here, so that the rounding
 * rules live in one place.
 */
#ifndef TRACENAV_CORE_CLOCK_H
#define TRACENAV_CORE_CLOCK_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/trace.h"

/* The time of snapshot in ns from its clock's origin.  Returns true with
 * *ns set, false when snapshot is NULL or the time does not fit in an
 * int64_t (libbabeltrace2 says so). */
bool tn_clock_snapshot_ns(const bt_clock_snapshot *snapshot, int64_t *ns);

/* Fill *info with the frequency, offset and origin of cls; info->name is
 * left as it was (the caller decides whether to copy the name). */
void tn_clock_info_from_class(const bt_clock_class *cls,
		struct tn_clock_info *info);

/* Cycles of clock at ns, rounded down and lowered by the error of
 * libbabeltrace2's own cycles-to-ns conversion: the first packet ending
 * at or after them is the first that may hold something at or after ns.
 * Clamped to 0 before the clock's origin + offset.  clock->frequency
 * must not be 0. */
uint64_t tn_clock_cycles_not_after(const struct tn_clock_info *clock,
		int64_t ns);

/* Cycles of clock at ns, rounded up and raised by that error: a packet
 * end never earlier than the true one.  Clamped to UINT64_MAX. */
uint64_t tn_clock_cycles_not_before(const struct tn_clock_info *clock,
		int64_t ns);

/* The time of `cycles` of clock in ns from its origin, rounded up and
 * raised by the error of libbabeltrace2's conversion: never earlier than
 * what libbabeltrace2 gives for an event at those cycles.  Clamped to
 * the int64_t range.  clock->frequency must not be 0. */
int64_t tn_clock_ns_not_before(const struct tn_clock_info *clock,
		uint64_t cycles);

#endif
