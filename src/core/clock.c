/* clock.c - times of libbabeltrace2 clocks (see clock.h). */
#include "clock.h"

#define NS_PER_S UINT64_C(1000000000)

bool tn_clock_snapshot_ns(const bt_clock_snapshot *snapshot, int64_t *ns)
{
	return snapshot && bt_clock_snapshot_get_ns_from_origin(snapshot, ns) ==
		BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK;
}

void tn_clock_info_from_class(const bt_clock_class *cls,
		struct tn_clock_info *info)
{
	info->frequency = bt_clock_class_get_frequency(cls);
	info->origin_is_unix_epoch = bt_clock_class_origin_is_unix_epoch(cls);
	bt_clock_class_get_offset(cls, &info->offset_seconds,
		&info->offset_cycles);
}

/* Clock cycles at ns, rounded down and clamped to the cycles' range;
 * *inexact when a fraction of a cycle was dropped.  At 1 GHz
 * libbabeltrace2 converts cycles to ns exactly (an integer sum); at
 * other frequencies it goes through a double, whose result may differ
 * from the exact one by a few ns plus 2^-52 of the value: *margin is
 * that error, in cycles. */
static uint64_t cycles_at(const struct tn_clock_info *clock, int64_t ns,
		bool *inexact, uint64_t *margin)
{
	const uint64_t freq = clock->frequency;
	int64_t seconds = ns / (int64_t) NS_PER_S;
	int64_t sub_ns = ns % (int64_t) NS_PER_S;
	uint64_t cycles, sub_cycles;
	int64_t rel_seconds;

	*inexact = false;
	*margin = 0;
	if (sub_ns < 0) {	/* floor, not truncation */
		sub_ns += (int64_t) NS_PER_S;
		seconds--;
	}
	if (__builtin_sub_overflow(seconds, clock->offset_seconds,
			&rel_seconds))
		return clock->offset_seconds < 0 ? UINT64_MAX : 0;
	if (rel_seconds < 0)	/* before the clock's origin + offset */
		return 0;
	/* sub_ns * freq / 1e9 without overflow: sub_ns < 2^30. */
	sub_cycles = (uint64_t) sub_ns * (freq / NS_PER_S) +
		(uint64_t) sub_ns * (freq % NS_PER_S) / NS_PER_S;
	*inexact = (uint64_t) sub_ns * (freq % NS_PER_S) % NS_PER_S != 0;
	if (__builtin_mul_overflow((uint64_t) rel_seconds, freq, &cycles) ||
	    __builtin_add_overflow(cycles, sub_cycles, &cycles))
		return UINT64_MAX;
	if (cycles <= clock->offset_cycles)
		return 0;
	if (freq != NS_PER_S)	/* ns error: 2^-52 of ~rel_seconds * 2^30 */
		*margin = (((uint64_t) rel_seconds >> 20) + 4) *
			(freq / NS_PER_S + 1);
	return cycles - clock->offset_cycles;
}

/* Keeping one packet too many is harmless, one too few loses events:
 * hence the margin on the safe side in both directions. */
uint64_t tn_clock_cycles_not_after(const struct tn_clock_info *clock,
		int64_t ns)
{
	bool inexact;
	uint64_t margin, cycles = cycles_at(clock, ns, &inexact, &margin);

	return cycles > margin ? cycles - margin : 0;
}

uint64_t tn_clock_cycles_not_before(const struct tn_clock_info *clock,
		int64_t ns)
{
	bool inexact;
	uint64_t margin, cycles = cycles_at(clock, ns, &inexact, &margin);

	if (__builtin_add_overflow(cycles, margin + inexact, &cycles))
		return UINT64_MAX;
	return cycles;
}

int64_t tn_clock_ns_not_before(const struct tn_clock_info *clock,
		uint64_t cycles)
{
	const uint64_t freq = clock->frequency;
	unsigned __int128 total = (unsigned __int128) cycles +
		clock->offset_cycles;
	unsigned __int128 seconds = total / freq, rem = total % freq;
	/* The fraction rounded up, plus the double's error of
	 * libbabeltrace2's own conversion at other frequencies. */
	__int128 ns = (__int128) (seconds * NS_PER_S) +
		(__int128) ((rem * NS_PER_S + freq - 1) / freq) +
		(__int128) clock->offset_seconds * (__int128) NS_PER_S;

	if (freq != NS_PER_S)
		ns += (__int128) (seconds >> 20) + 4;
	return ns > INT64_MAX ? INT64_MAX : ns < INT64_MIN ? INT64_MIN :
		(int64_t) ns;
}
