/* timeline-summary.h - the timelines of the whole trace at a fine, fixed
 * grid, built by the state pass (the timeline's accumulator in its
 * summary form, analysis-timeline.c) and kept with the snapshots as
 * "timeline/summary", so that a wide span is drawn without reading the
 * trace again.
 *
 * The grid: bucket j covers [origin + j W, origin + (j + 1) W), W a
 * power of two of ns, doubled (two buckets merged into one) whenever
 * the trace outgrows TN_TIMELINE_SUMMARY_MAX_BUCKETS buckets, or its
 * rows a cell per 128 bytes of the trace's stream files (about 5% of
 * them saved; 16,384 cells at least, TN_TIMELINE_SUMMARY_MAX_CELLS at
 * most: the memory it takes while the preparse reads, 16 bytes each).  A
 * row keeps the buckets it has time in, runs of equal ones as one
 * cell, each state's time in 255ths of a bucket (rounded, 1 at least
 * for a time that is not 0): a byte, where the letters of a column of
 * two buckets or more need no more (the `ns` form replays, exact).
 *
 * The blob (integers as bytes.h writes them):
 *   magic "TNTL", version u32 4, origin i64, width u64, then for the
 *   threads, the CPUs, the irqs and the softirq vectors (enum
 *   tn_timeline_kind's order): the length of what follows for the
 *   kind (u64: a grid skips the other kinds), row count varint, per
 *   row: id (zigzag),
 *   a thread's name (string) and parent's tid (zigzag, 0: not known),
 *   an irq's name (string),
 *   cell count varint, per cell: gap (varint: its first bucket - where
 *   the previous cell ended), run (varint, >= 1), mask u8 (the states
 *   with time), their 255ths (u8, 1 to 255) in the order of the
 *   states.
 */
#ifndef TRACENAV_TIMELINE_SUMMARY_H
#define TRACENAV_TIMELINE_SUMMARY_H

#include <glib.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/timeline.h"

#define TN_TIMELINE_SUMMARY_MAX_BUCKETS (1 << 24)
#define TN_TIMELINE_SUMMARY_MAX_CELLS 2500000

struct tn_timeline_summary_builder;

/* A builder whose grid starts at origin_ns, for a trace of trace_bytes
 * of stream files (its cells' share). */
struct tn_timeline_summary_builder *tn_timeline_summary_builder_new(
		int64_t origin_ns, uint64_t trace_bytes);
void tn_timeline_summary_builder_free(
		struct tn_timeline_summary_builder *builder);

/* Add [from_ns, to_ns) in state (of kind) to row id (a tid, a CPU); the
 * time before the origin is left out. */
void tn_timeline_summary_add(struct tn_timeline_summary_builder *builder,
		enum tn_timeline_kind kind, int64_t id, unsigned state,
		int64_t from_ns, int64_t to_ns);

/* The same, with the row found once (it lives as long as the builder):
 * what the state pass calls for every interval. */
struct tn_timeline_summary_row;
struct tn_timeline_summary_row *tn_timeline_summary_get_row(
		struct tn_timeline_summary_builder *builder,
		enum tn_timeline_kind kind, int64_t id);
void tn_timeline_summary_add_to(struct tn_timeline_summary_builder *builder,
		struct tn_timeline_summary_row *row, unsigned state,
		int64_t from_ns, int64_t to_ns);

/* A thread's name (the last one given stays). */
void tn_timeline_summary_set_name(struct tn_timeline_summary_builder *builder,
		int64_t tid, const char *name);

/* An irq's name (its handler's; the first one given stays). */
void tn_timeline_summary_set_irq_name(
		struct tn_timeline_summary_builder *builder, int64_t irq,
		const char *name);

/* A thread's parent (its PPID; the last one given stays). */
void tn_timeline_summary_set_parent(struct tn_timeline_summary_builder *builder,
		int64_t tid, int64_t ppid);

/* The blob of what was added (what waits to be is added first). */
GBytes *tn_timeline_summary_save(struct tn_timeline_summary_builder *builder);

/* The grid of blob's rows of kind over [begin_ns, end_ns] in `buckets`
 * columns, each the sum of the summary's buckets whose middle falls in
 * it; *out NULL when a column would hold fewer than two of them (too
 * fine for the summary).  Returns 0, or -1 with err when the blob is
 * damaged. */
int tn_timeline_summary_grid(GBytes *blob, enum tn_timeline_kind kind,
		int64_t begin_ns, int64_t end_ns, unsigned buckets,
		struct tn_timeline_grid **out, struct tn_error *err);

#endif
