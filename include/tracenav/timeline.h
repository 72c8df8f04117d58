/* timeline.h - the timelines of a kernel trace: for each thread and each
 * CPU, the time it spent in each state within each of N equal buckets
 * of a time range, from the state system (the kernel provider's
 * Threads/<tid>/Status, CPUs/<n>/Status and CPUs/<n>/Current_thread).
 *
 * A thread's time on a CPU (user mode, system call, interrupted) is the
 * time cputop counts for it (analysis.h: the intervals of the CPUs'
 * Current_thread): summed over the buckets, it equals cputop's figure
 * for the same range.  A CPU's busy, irq, softirq and idle times add up
 * to each bucket's length once its first event is seen.
 *
 * Bucket k (from 0) of N over [B, E] covers [B + floor(k (E - B) / N),
 * B + floor((k + 1) (E - B) / N)); the last one includes E.
 */
#ifndef TRACENAV_TIMELINE_H
#define TRACENAV_TIMELINE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/analysis.h"
#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"

/* The most buckets a timeline has (a very wide terminal's columns). */
#define TN_TIMELINE_MAX_BUCKETS 4096

/* A thread's states, in the columns of the "threads" table. */
enum tn_thread_state {
	TN_THREAD_USER,		/* on a CPU, in user mode */
	TN_THREAD_SYSCALL,	/* on a CPU, in a system call */
	TN_THREAD_INTERRUPTED,	/* on a CPU that runs an irq or softirq */
	TN_THREAD_WAIT_CPU,	/* woken, waiting for a CPU */
	TN_THREAD_BLOCKED,	/* waiting for something else */
	TN_THREAD_STATE_COUNT
};

/* A CPU's states, in the columns of the "cpus" table. */
enum tn_cpu_state {
	TN_CPU_BUSY,		/* a thread runs (user mode or a syscall) */
	TN_CPU_IRQ,
	TN_CPU_SOFTIRQ,
	TN_CPU_IDLE,
	TN_CPU_STATE_COUNT
};

/* An interrupt line's states (an irq's or a softirq vector's, summed
 * over the CPUs), in the columns of the "irqs" and "softirqs" tables. */
enum tn_irq_state {
	TN_IRQ_ACTIVE,		/* its handler runs */
	TN_IRQ_RAISED,		/* a softirq raised, waiting to run */
	TN_IRQ_STATE_COUNT
};

/* The timelines of [begin_ns, end_ns] of trace in `buckets` buckets (1
 * to TN_TIMELINE_MAX_BUCKETS), read as tn_analysis_run() reads an
 * analysis (snapshots and threads as there; progress "analysing",
 * cancel).  The result's tables: "threads" (TID NAME BUCKET USER_NS
 * SYSCALL_NS INTERRUPTED_NS WAIT_CPU_NS BLOCKED_NS), "parents" (TID
 * PPID), "cpus" (CPU BUCKET BUSY_NS IRQ_NS SOFTIRQ_NS IDLE_NS), "irqs"
 * and "softirqs" (IRQ or VEC, BUCKET ACTIVE_NS RAISED_NS), a row for
 * each bucket with time in it, by id then bucket; all empty without
 * kernel events.
 * Returns 0 and *out, or -1 with err. */
int tn_timeline_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots, int64_t begin_ns,
		int64_t end_ns, unsigned buckets, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err);

/* The same from an empty state at begin_ns (tn_state_querier_replay_unknown()):
 * the span's events alone, without snapshots or index; the result is
 * partial (a CPU's time counts from its first switch, a thread's wait
 * from its first event in the span). */
int tn_timeline_run_partial(const struct tn_trace *trace, int64_t begin_ns,
		int64_t end_ns, unsigned buckets,
		struct tn_analysis_result **out, struct tn_error *err);

/* ---- the grid: a letter per row and bucket ---- */

/* Which table of a timeline's result, and what a row is: a grid is of
 * threads or of CPUs, whose rows are the CPUs', then the irqs' and the
 * softirqs' (the resources pane's). */
enum tn_timeline_kind {
	TN_TIMELINE_THREADS,
	TN_TIMELINE_CPUS,
	TN_TIMELINE_IRQS,
	TN_TIMELINE_SOFTIRQS,
	TN_TIMELINE_KIND_COUNT
};

/* How many states a row of kind has (enum tn_thread_state,
 * enum tn_cpu_state or enum tn_irq_state). */
size_t tn_timeline_state_count(enum tn_timeline_kind kind);

/* The letters of the states (enum tn_thread_state, enum tn_cpu_state,
 * enum tn_irq_state): U user mode, S system call, I interrupted, W
 * waiting for a CPU, B blocked; R busy, I irq, S softirq, - idle; an
 * irq I active; a softirq S running, W raised; and of a bucket without
 * time (the thread did not exist, nothing known yet; an interrupt line
 * not active). */
#define TN_TIMELINE_THREAD_LETTERS "USIWB"
#define TN_TIMELINE_CPU_LETTERS "RIS-"
#define TN_TIMELINE_IRQ_LETTERS "IW"
#define TN_TIMELINE_SOFTIRQ_LETTERS "SW"
#define TN_TIMELINE_NO_TIME '.'

struct tn_timeline_row {
	enum tn_timeline_kind kind;	/* what the row is */
	int64_t id;		/* tid, CPU, irq or softirq vector */
	char *name;		/* a thread's, an irq's handler's (may be
				 * NULL) */
	int64_t ppid;		/* a thread's parent's tid, 0: not known */
	char *letters;		/* one a bucket: the state with most time */
	/* A CPU's, replayed: over each run of 4 columns or more that one
	 * thread held (ran longest in at once, busy), its name (printable
	 * ASCII), cut before the run's last column; ' ' elsewhere; NULL:
	 * none. */
	char *names;
	int64_t on_cpu_ns;	/* tn_timeline_on_cpu() summed */
};

struct tn_timeline_grid {
	enum tn_timeline_kind kind;	/* threads or CPUs */
	unsigned buckets;
	size_t row_count;
	/* By id; a CPUs grid's: the CPUs, then the irqs, then the softirq
	 * vectors, each by id. */
	struct tn_timeline_row *rows;
	/* Made from the summary the preparse kept (0: from a replay): its
	 * buckets' ns; a column's edges are then those of the summary's
	 * buckets nearest to the exact ones. */
	int64_t summary_ns;
	/* Replayed from an empty state (no index: tn_timeline_run_partial()). */
	bool partial;
};

/* Spans of more events than this are drawn from the summary when it is
 * fine enough; fewer are replayed (exact, and quick enough: a tenth of
 * a second on top of the restore of the state they start from). */
#define TN_TIMELINE_REPLAY_EVENTS 50000

/* The grid of kind over [begin_ns, end_ns] in `buckets` columns, as the
 * panes and `timeline` (without ns) show it: from the summary the state
 * pass kept with snapshots (timeline/summary) when the span holds more
 * than TN_TIMELINE_REPLAY_EVENTS events by index and every column two
 * of its buckets at least; else from tn_timeline_run() (threads,
 * progress and cancel as there); without index (NULL), from
 * tn_timeline_run_partial(), the grid partial.  *events: the events of the span (the
 * index's count for the summary).  Returns 0 and *out (rows may be
 * none), or -1 with err. */
int tn_timeline_grid_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		const struct tn_index *index, enum tn_timeline_kind kind,
		int64_t begin_ns, int64_t end_ns, unsigned buckets,
		unsigned threads, struct tn_timeline_grid **out,
		uint64_t *events, struct tn_error *err);

/* ---- the threads as a process tree ---- */

/* The rows of a threads grid in the order of their process tree, as a
 * pane shows them. */
struct tn_timeline_tree {
	size_t count;		/* the rows shown */
	size_t *order;		/* each one's index in grid->rows */
	unsigned *depth;	/* 0: a root */
	bool *has_children;	/* rows under it (shown or folded) */
	bool *folded;		/* those are hidden */
};

/* Make tree from a threads grid: each thread under its parent (its
 * PPID) when the parent has a row too, depth first, the children of a
 * row (and the roots) in the order of compare (on indexes in
 * grid->rows; NULL: by id).  A thread whose parent has no row, or is
 * itself, is a root; so is the first one (in that order) of a circle of
 * parents (tids reused).  The rows under a row that is_folded (NULL:
 * none) are left out.  data goes to both callbacks.
 * tn_timeline_tree_fini() frees it. */
void tn_timeline_tree_make(const struct tn_timeline_grid *grid,
		int (*compare)(size_t a, size_t b, void *data),
		bool (*is_folded)(int64_t id, void *data), void *data,
		struct tn_timeline_tree *tree);
void tn_timeline_tree_fini(struct tn_timeline_tree *tree);

/* The columns of a thread's name in a label, and the most levels of the
 * tree a name is indented by (a column a level). */
#define TN_TIMELINE_NAME_COLUMNS 16
#define TN_TIMELINE_MAX_INDENT 8

/* The columns of the other rows' labels ("SIRQ 8 HRTIMER"). */
#define TN_TIMELINE_CPU_LABEL_COLUMNS 14

/* Append row's label to line, as the panes and `timeline` show it: a
 * thread's "TID" (7 columns and a space) and name in
 * TN_TIMELINE_NAME_COLUMNS and a space; in a tree (row i of tree, else
 * NULL), the name indented by its depth and after a mark: + folded, -
 * threads under it, else a space; "CPU N", "IRQ N NAME" (its handler's
 * name, when known) or "SIRQ N NAME" (a softirq vector's name as Linux
 * has it) in
 * TN_TIMELINE_CPU_LABEL_COLUMNS and a space.  Names are cut and made
 * safe to print (tracenav/text.h). */
void tn_timeline_append_label(GString *line, const struct tn_timeline_row *row,
		const struct tn_timeline_tree *tree, size_t i);

/* The grid of one table of result (tn_timeline_run() with buckets). */
struct tn_timeline_grid *tn_timeline_grid_new(
		struct tn_analysis_result *result,
		enum tn_timeline_kind kind, unsigned buckets);
void tn_timeline_grid_destroy(struct tn_timeline_grid *grid);

/* The letter of a bucket's times (states of kind, as in the tables):
 * the state with most time (the first of equal ones), or
 * TN_TIMELINE_NO_TIME; an interrupt line's: the first of its states
 * with any time (a handler runs for microseconds, seen at any zoom). */
char tn_timeline_letter(enum tn_timeline_kind kind, const int64_t *ns);

/* What a row's time on a CPU counts of a bucket's times (states of
 * kind): a thread's user, syscall and interrupted times; a CPU's busy,
 * irq and softirq ones; an interrupt line's active time. */
int64_t tn_timeline_on_cpu(enum tn_timeline_kind kind, const int64_t *ns);

/* Where bucket k of `buckets` over [begin_ns, end_ns] begins (end_ns
 * for k >= buckets). */
int64_t tn_timeline_bucket_begin(int64_t begin_ns, int64_t end_ns,
		unsigned buckets, unsigned k);

/* The bucket that holds time t (the first before begin_ns, the last
 * from end_ns on). */
unsigned tn_timeline_bucket_of(int64_t begin_ns, int64_t end_ns,
		unsigned buckets, int64_t t);

#endif
