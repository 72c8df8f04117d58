/* test-clock.c - ns to clock cycles, on the safe side of
 * libbabeltrace2's own rounding, and snapshots without a value. */
#include <glib.h>

#include "tap.h"
#include "src/core/clock.h"

#define S INT64_C(1000000000)

int main(void)
{
	struct tn_clock_info ghz = { .frequency = 1000000000,
		.offset_seconds = 1000, .offset_cycles = 500 };
	struct tn_clock_info mhz = { .frequency = 1000000,
		.offset_seconds = 0, .offset_cycles = 0 };
	struct tn_clock_info odd = { .frequency = 2399999999,
		.offset_seconds = 1700000000, .offset_cycles = 12345 };
	int64_t ns = 0;
	bool monotonic = true, bracketed = true;
	uint64_t last = 0;

	tap_ok(!tn_clock_snapshot_ns(NULL, &ns), "no snapshot, no time");

	/* 1 GHz: libbabeltrace2's conversion is exact, so is ours. */
	tap_int_eq(tn_clock_cycles_not_after(&ghz, 1000 * S + 1500), 1000,
		"1 GHz: cycles of a time after the offset");
	tap_int_eq(tn_clock_cycles_not_before(&ghz, 1000 * S + 1500), 1000,
		"1 GHz: exact both ways");
	tap_int_eq(tn_clock_cycles_not_after(&ghz, 999 * S), 0,
		"before the clock's offset: 0");
	tap_int_eq(tn_clock_cycles_not_after(&ghz, INT64_MIN), 0,
		"INT64_MIN: 0");

	/* 1 MHz: 1500 ns is 1.5 cycles; the bounds bracket it. */
	tap_ok(tn_clock_cycles_not_after(&mhz, 1500) <= 1 &&
	       tn_clock_cycles_not_before(&mhz, 1500) >= 2,
		"1 MHz: 1.5 cycles rounded down and up (%" G_GUINT64_FORMAT
		", %" G_GUINT64_FORMAT ")",
		tn_clock_cycles_not_after(&mhz, 1500),
		tn_clock_cycles_not_before(&mhz, 1500));

	/* An odd frequency: monotonic, and the bounds never cross. */
	for (int64_t t = 1700000000 * S; t < 1700000000 * S + 10 * S;
	     t += 333333337) {
		uint64_t low = tn_clock_cycles_not_after(&odd, t);
		uint64_t high = tn_clock_cycles_not_before(&odd, t);

		monotonic = monotonic && low >= last;
		bracketed = bracketed && low <= high &&
			high - low < 1000;
		last = low;
	}
	tap_ok(monotonic, "odd frequency: cycles grow with the time");
	tap_ok(bracketed, "odd frequency: not after <= not before, close");
	tap_ok(tn_clock_cycles_not_before(&mhz, INT64_MAX) > 0,
		"INT64_MAX: no overflow");
	return tap_done();
}
