/* analysis.h - kernel analyses of a time range, on the state system:
 * CPU usage per thread and per CPU (cputop), system calls (syscallstats),
 * interrupts and softirqs (irqstats) and scheduling latency (schedtop).
 *
 * An analysis replays the events of the range through the state
 * providers (state-history.h's tn_state_querier_replay()) and reads the
 * intervals the replay ends: the time a thread was the current thread
 * of a CPU, from a system call's entry to its exit, from an interrupt
 * handler's entry to its exit, from a wake-up to the switch that gives
 * the thread its CPU.  Because the replay starts from the state at the
 * range's first event, what began before the range is known: a thread
 * running when the range begins counts from the range's start, a
 * system call that began before it counts whole when it ends inside it.
 *
 * With complete state snapshots, a long range is cut into slices at
 * snapshots, each read by a thread of its own from the snapshot's state,
 * and the slices' figures are merged (exactly: a slice starts from the
 * state its predecessor ends with).  The whole trace's figures are
 * computed by the state pass too (tn_analysis_observe()) and kept with
 * the snapshots (and in the cache): an analysis of the whole trace then
 * reads nothing.
 *
 * The figures (and how they compare with the LTTng analyses') are
 * described in the man page, section ANALYSES.
 */
#ifndef TRACENAV_ANALYSIS_H
#define TRACENAV_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"

/* What a cell holds. */
enum tn_analysis_cell_type {
	TN_CELL_NONE,		/* no value: "-" (a deviation of one sample) */
	TN_CELL_TEXT,		/* a name */
	TN_CELL_INT,		/* a count, a number */
	TN_CELL_NS,		/* a duration in ns (may have a fraction) */
	TN_CELL_PERCENT,
};

struct tn_analysis_cell {
	enum tn_analysis_cell_type type;
	union {
		const char *text;	/* owned by the result */
		int64_t i;
		double d;		/* NS, PERCENT */
	} u;
};

struct tn_analysis_column {
	const char *name;		/* "TID", "NS", "MEAN" */
	enum tn_analysis_cell_type type;
};

/* One table of a result: rows of column_count cells. */
struct tn_analysis_table {
	const char *name;		/* "threads", "cpus", "syscalls"... */
	const char *title;		/* "CPU time per thread" */
	size_t column_count;
	const struct tn_analysis_column *columns;
	size_t row_count;
	struct tn_analysis_cell *cells;	/* row r: cells + r * column_count */
	size_t row_cap;			/* rows cells has room for */
	/* The order the rows come in. */
	size_t sort_column;
	bool sort_descending;
};

struct tn_analysis_result {
	const char *analysis;		/* "cputop" */
	int64_t begin_ns, end_ns;	/* the range */
	uint64_t events;		/* events read */
	unsigned slices;		/* threads that read them */
	/* Read from an empty state at the range's start (what came
	 * before was not replayed: the figures miss what the state had
	 * not learnt yet). */
	bool partial;
	size_t table_count;
	struct tn_analysis_table *tables;
	struct _GStringChunk *strings;
	/* A result read back from the cache owns its columns. */
	struct tn_analysis_column *owned_columns;
};

/* The analyses: their names ("cputop", "syscallstats", "irqstats",
 * "schedtop"), NULL-terminated, and a line that says what each gives. */
const char *const *tn_analysis_names(void);
const char *tn_analysis_describe(const char *name);
bool tn_analysis_exists(const char *name);

/* Run the analysis `name` over the events of [begin_ns, end_ns] (both
 * inclusive) of trace.  snapshots (may be NULL, or still being filled)
 * make the start cheap and, when complete, let up to `threads` threads
 * read slices of a long range.  Publishes progress ("analysing") when a
 * job runs it and stops on its cancel.  Returns 0 and *out
 * (tn_analysis_result_destroy()), or -1 with err (an unknown analysis,
 * a read error, "cancelled"). */
int tn_analysis_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots, const char *name,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err);

void tn_analysis_result_destroy(struct tn_analysis_result *result);

/* An observer for the state pass (tn_state_pass_start_observed()) that
 * runs every analysis over the whole trace (its first event to its
 * last) and keeps their results with the snapshots, where
 * tn_analysis_run() finds them, and the timelines' summary (its size a
 * share of trace_bytes, the trace's stream bytes).  Fills *observer. */
void tn_analysis_observe(struct tn_state_pass_observer *observer,
		uint64_t trace_bytes);

/* Append to wants (a GArray of struct tn_field_want, event.h) the
 * fields the analyses read of the events. */
void tn_analysis_add_wants(struct _GArray *wants);

/* The table called name, or NULL. */
struct tn_analysis_table *tn_analysis_result_find(
		struct tn_analysis_result *result, const char *name);

/* Row r's cell of column c. */
const struct tn_analysis_cell *tn_analysis_cell_at(
		const struct tn_analysis_table *table, size_t r, size_t c);

/* Sort the rows by column (numbers by value, texts by their bytes;
 * equal ones keep their order), descending or not. */
void tn_analysis_table_sort(struct tn_analysis_table *table, size_t column,
		bool descending);

/* Whether the analyses apply to trace: its events are a kernel's (the
 * kernel state provider reads them).  Otherwise every table is empty. */
bool tn_analysis_applies(const struct tn_trace *trace);

#endif
