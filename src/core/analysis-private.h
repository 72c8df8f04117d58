/* analysis-private.h - what the analyses (analysis-*.c) share with the
 * engine that runs them (analysis.c): the class each one is, a
 * classifier of the kernel state's attributes and of event names, the
 * statistics of durations, and a table builder. */
#ifndef TRACENAV_CORE_ANALYSIS_PRIVATE_H
#define TRACENAV_CORE_ANALYSIS_PRIVATE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/analysis.h"
#include "tracenav/state.h"

/* ---- quarks of the kernel state, remembered ---- */

/* The quarks of CPUs/<n>/Current_thread and of Threads/<tid>/<attr>,
 * looked up once each (quarks are stable within one state; one that
 * does not exist yet is looked up again next time). */
struct tn_aquarks {
	GArray *cpu_current;	/* int by CPU, -1: not found yet */
	GHashTable *threads;	/* int64 tid -> int[AQ_COUNT] */
};

enum tn_aquark_attr { AQ_STATUS, AQ_SYSTEM_CALL, AQ_EXEC_NAME, AQ_COUNT };

void tn_aquarks_init(struct tn_aquarks *q);
void tn_aquarks_fini(struct tn_aquarks *q);
/* The quark, or -1 when the state has no such attribute. */
int tn_aquark_cpu_current(struct tn_aquarks *q, const struct tn_state *state,
		int64_t cpu);
int tn_aquark_thread(struct tn_aquarks *q, const struct tn_state *state,
		int64_t tid, enum tn_aquark_attr attr);

/* ---- what an event is, by its name ---- */

enum tn_aevent {
	AE_OTHER,
	AE_SCHED_SWITCH,
	AE_WAKEUP,		/* sched_wakeup, sched_waking, _new */
	AE_SYSCALL_ENTRY,	/* syscall_entry_*, sys_*, compat_ */
	AE_SYSCALL_EXIT,	/* exit_syscall, syscall_exit_*, compat_ */
	AE_IRQ_ENTRY,
	AE_IRQ_EXIT,
	AE_SOFTIRQ_ENTRY,
	AE_SOFTIRQ_EXIT,
};

enum tn_aevent tn_aevent_of(const char *name);

/* The same, remembering the last names seen (by the address of the
 * class's name, checked): what the engine gives each class. */
struct tn_aevent_memo {
	const char *names[64];
	enum tn_aevent kinds[64];
};

enum tn_aevent tn_aevent_memo_of(struct tn_aevent_memo *memo,
		const char *name);

/* The same of an event: from the record a decoding thread made of it,
 * when it has one. */
struct tn_event;
enum tn_aevent tn_aevent_of_event(struct tn_aevent_memo *memo,
		const struct tn_event *ev);

/* The part of the range one accumulator reads: its events have
 * begin_ns <= t <= end_ns, and the time it accounts runs from begin_ns
 * to end_ns (the next slice's first event's time, or the range's end
 * for the last slice). */
struct tn_analysis_span {
	int64_t begin_ns, end_ns;
	int64_t range_begin_ns;	/* the range's, for every slice */
	bool first;		/* the range's first slice */
	/* What the attributes of the slice's state are, and the quarks
	 * the analyses look up: one for all the analyses of one state
	 * (the engine's, outliving the accumulators; NULL for an
	 * accumulator that reads nothing). */
	struct tn_alookup *look;
	/* The range's end (as range_begin_ns), and how many equal
	 * buckets it is cut in, for the analyses that count per bucket
	 * (the timeline; 0 for the others). */
	int64_t range_end_ns;
	unsigned buckets;
	/* The trace's stream bytes, for the whole trace's observer (the
	 * timelines' summary takes a share of them); 0 elsewhere. */
	uint64_t trace_bytes;
};

/* An analysis: an accumulator per slice, fed by the replay's hooks,
 * merged in time order, then turned into tables. */
struct tn_analysis_class {
	const char *name;
	const char *description;
	void *(*create)(const struct tn_analysis_span *span);
	void (*destroy)(void *acc);
	/* The event about to be applied (the state is the state before
	 * it), and what it is by its name.  Optional. */
	void (*event)(void *acc, const struct tn_state *state,
			const struct tn_row *row, enum tn_aevent kind);
	/* An interval the event ended (state.h's interval sink); those
	 * of attributes of kind AK_OTHER may be left out. */
	void (*interval)(void *acc, const struct tn_state *state, int quark,
			const struct tn_state_value *value,
			const struct tn_state_stamp *start,
			const struct tn_state_stamp *end);
	/* The kinds of attributes whose intervals it reads (AK_BIT()s of
	 * enum tn_akind): the whole-trace pass hands it no other. */
	unsigned interval_kinds;
	/* The state after the slice's last event; what it accounts ends
	 * at end_ns.  Optional. */
	void (*end)(void *acc, const struct tn_state *state, int64_t end_ns);
	/* Add `later` (the next slice) to acc. */
	void (*merge)(void *acc, void *later);
	/* Fill result's tables from the merged accumulator. */
	void (*report)(void *acc, const struct tn_analysis_span *range,
			struct tn_analysis_result *result);
};

extern const struct tn_analysis_class tn_analysis_cputop;
extern const struct tn_analysis_class tn_analysis_syscallstats;
extern const struct tn_analysis_class tn_analysis_irqstats;
extern const struct tn_analysis_class tn_analysis_schedtop;
extern const struct tn_analysis_class tn_analysis_timeline;

/* The blob of the timeline's summary form (an accumulator created with
 * buckets 0; timeline-summary.h), or NULL for another; the accumulator
 * keeps nothing after it (only destroy). */
GBytes *tn_analysis_timeline_take_summary(void *acc);

/* Run cls (one of the list or not) as tn_analysis_run() runs a named
 * one, its range cut in `buckets` buckets (struct tn_analysis_span;
 * 0: none). */
int tn_analysis_run_class(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		const struct tn_analysis_class *cls, unsigned buckets,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err);

/* The same from an empty state at begin_ns, on the calling thread, the
 * result partial (struct tn_analysis_result): the events of the range
 * alone are read, whatever came before (no snapshots needed). */
int tn_analysis_run_class_partial(const struct tn_trace *trace,
		const struct tn_analysis_class *cls, unsigned buckets,
		int64_t begin_ns, int64_t end_ns, struct tn_analysis_result **out,
		struct tn_error *err);

/* ---- what an attribute of the kernel state is ---- */

struct tn_alookup;

enum tn_akind {
	AK_OTHER,
	AK_CPU_CURRENT,		/* CPUs/<n>/Current_thread */
	AK_THREAD_STATUS,	/* Threads/<t>/Status */
	AK_THREAD_SYSCALL,	/* Threads/<t>/System_call */
	AK_CPU_IRQ,		/* CPUs/<n>/IRQs/<irq> */
	AK_CPU_SOFTIRQ,		/* CPUs/<n>/Soft_IRQs/<vec> */
	AK_CPU_STATUS,		/* CPUs/<n>/Status */
	AK_THREAD_EXEC_NAME,	/* Threads/<t>/Exec_name */
	AK_THREAD_PPID,		/* Threads/<t>/PPID */
};

/* A kind in a set of them (struct tn_analysis_class's interval_kinds). */
#define AK_BIT(kind) (1u << (kind))

/* Classifies quarks, remembering each one's kind (quarks are stable
 * within one state). */
struct tn_akinds {
	GByteArray *kinds;	/* by quark: 0 unknown, else kind + 1 */
	GArray *numbers;	/* by quark: tn_akinds_parent_number() */
};

void tn_akinds_init(struct tn_akinds *k);
void tn_akinds_fini(struct tn_akinds *k);

/* The kind of a quark not seen yet (tn_akinds_get()'s slow path). */
enum tn_akind tn_akinds_classify(struct tn_akinds *k,
		const struct tn_state *state, int quark);

/* The kind of quark: asked for every interval by every analysis, so its
 * common case (a quark seen before) is inline. */
static inline enum tn_akind tn_akinds_get(struct tn_akinds *k,
		const struct tn_state *state, int quark)
{
	if (quark >= 0 && (guint) quark < k->kinds->len &&
	    k->kinds->data[quark])
		return (enum tn_akind) (k->kinds->data[quark] - 1);
	return tn_akinds_classify(k, state, quark);
}

/* The number an attribute of a kind is about, read once per quark: the
 * tid of Threads/42/Status (0 for an idle thread, 0_3, as
 * tn_athread_tid() reads it), the CPU of CPUs/3/Current_thread, the irq
 * or vec of a CPU's line (CPUs/3/IRQs/30: 30). */
int64_t tn_akinds_number(struct tn_akinds *k, const struct tn_state *state,
		int quark);

/* The kinds and the quarks of one state, shared by the analyses that
 * read it. */
struct tn_alookup {
	struct tn_akinds kinds;
	struct tn_aquarks quarks;
};

struct tn_alookup *tn_alookup_new(void);
void tn_alookup_free(struct tn_alookup *look);

/* The name of the attribute `up` levels above quark ("42" for
 * Threads/42/Status, 1 up), or "" when there is none. */
const char *tn_akind_name_up(const struct tn_state *state, int quark, int up);

/* The value of the sibling attribute `name` of quark as a string (the
 * Exec_name of Threads/42/Status), or NULL. */
const char *tn_akind_sibling_string(const struct tn_state *state, int quark,
		const char *name);



/* ---- tables of accumulators ---- */

/* Tables keyed by an int64 or by a string (both copied), whose values
 * are g_malloc0'ed blocks freed with free_value (NULL: g_free). */
/* Maps of int64 keys (thread ids, CPUs, IRQ lines) hold the key in the
 * pointer itself: no allocation a key, no pointer to follow a lookup.
 * TN_AKEY() makes the map's key, TN_AKEY_VALUE() reads one back.  (A
 * 32-bit pointer holds the keys of int32 range, which thread ids, CPUs
 * and lines are; others would share an entry there.) */
#define TN_AKEY(k) ((gpointer) (intptr_t) (k))
#define TN_AKEY_VALUE(p) ((int64_t) (intptr_t) (p))

GHashTable *tn_amap_new_int64(GDestroyNotify free_value);
GHashTable *tn_amap_new_string(GDestroyNotify free_value);
/* The value of key, made (size bytes of zeroes) when there is none. */
void *tn_amap_int64(GHashTable *map, int64_t key, size_t size);
void *tn_amap_string(GHashTable *map, const char *key, size_t size);

/* Replace *slot (g_free'd) with a copy of name, unless NULL or equal. */
void tn_aname_set(char **slot, const char *name);
/* Set *slot to a copy of name when it has none yet (the first stays). */
void tn_aname_set_first(char **slot, const char *name);

/* ---- statistics of durations (or of any sample) ---- */

struct tn_adur {
	uint64_t count;
	double min, max;
	double mean, m2;	/* Welford's running mean and squares */
	double sum;
};

void tn_adur_add(struct tn_adur *d, double x);
/* Add the samples of b (Chan's formula for the squares). */
void tn_adur_merge(struct tn_adur *d, const struct tn_adur *b);
/* The sample standard deviation (n - 1); false with fewer than 2. */
bool tn_adur_stddev(const struct tn_adur *d, double *out);

/* ---- making tables ---- */

struct tn_analysis_table *tn_atable_add(struct tn_analysis_result *result,
		const char *name, const char *title,
		const struct tn_analysis_column *columns, size_t column_count);
/* A new row of table, its cells TN_CELL_NONE. */
struct tn_analysis_cell *tn_atable_row(struct tn_analysis_table *table);
/* Room for rows rows in all (a report that knows how many it adds:
 * the table then takes no more memory than they need). */
void tn_atable_reserve(struct tn_analysis_table *table, size_t rows);
void tn_acell_text(struct tn_analysis_result *result,
		struct tn_analysis_cell *cell, const char *text);
void tn_acell_int(struct tn_analysis_cell *cell, int64_t v);
void tn_acell_ns(struct tn_analysis_cell *cell, double ns);
void tn_acell_percent(struct tn_analysis_cell *cell, double percent);
/* COUNT MIN MEAN MAX STDDEV of d into the five cells from cell on. */
void tn_acell_durations(struct tn_analysis_cell *cell, const struct tn_adur *d);

/* ---- saving results (analysis-save.c) ---- */

/* Append result to buf, and read one back (checked: -1 with err for a
 * damaged one). */
void tn_analysis_result_save(const struct tn_analysis_result *result,
		GByteArray *buf);
int tn_analysis_result_load(const void *data, size_t size,
		struct tn_analysis_result **out, struct tn_error *err);

/* A new, empty result of analysis (a static name) over a range. */
struct tn_analysis_result *tn_analysis_result_new(const char *analysis,
		int64_t begin_ns, int64_t end_ns);

/* The classes, NULL-terminated, in the order of tn_analysis_names(). */
extern const struct tn_analysis_class *const tn_analysis_classes[];

/* Thread keys: "42", and "0_3" for the idle thread of CPU 3 (as the
 * kernel provider names them); 0 for the idle threads. */
int64_t tn_athread_tid(const char *key);

#endif
