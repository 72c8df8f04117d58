/* analysis-timeline.c - the timelines: per thread and per CPU, the time
 * spent in each state within each of N equal buckets of the range
 * (timeline.h).
 *
 * A thread's time on a CPU is that of the CPU's Current_thread
 * intervals, as cputop counts it (the same rule for the CPU's first
 * switch), split by what the CPU did meanwhile (CPUs/<n>/Status): in
 * user mode, in a system call, or in an interrupt handler (the thread
 * was interrupted).  Its waiting time comes from its own Status
 * (wait_cpu, wait_blocked).  A CPU's time is split by its Status
 * alone: busy (user mode or a system call), irq, softirq, idle; before
 * its first event nothing is known of it.
 *
 * The two attributes of a CPU change at the same events but end their
 * intervals one at a time: each CPU keeps the pieces of both not yet
 * matched, and their overlaps are accounted as soon as both cover a
 * span of time. */
#include <string.h>

#include "src/core/analysis-private.h"
#include "src/core/chunk-queue.h"
#include "tracenav/job.h"
#include "src/core/providers/provider-fields.h"
#include "src/core/timeline-summary.h"
#include "tracenav/timeline.h"

/* What a CPU did (CPUs/<n>/Status), or nothing known. */
enum cpu_doing { DOING_UNKNOWN, DOING_IDLE, DOING_USER, DOING_SYSCALL,
	DOING_IRQ, DOING_SOFTIRQ };

/* A piece of one attribute's history: [from, to) with a value (a tid,
 * -1 for none known; or an enum cpu_doing). */
struct piece {
	int64_t from, to, value;
};

/* A row's time in each state within one bucket.  A row keeps the
 * buckets it has time in only, in their order (most threads of a long
 * trace live in a bucket or two). */
struct cell {
	unsigned bucket;
	int64_t ns[TN_THREAD_STATE_COUNT];	/* a CPU's: the first
						 * TN_CPU_STATE_COUNT */
};

/* A thread's row (the summary form keeps its threads in the summary's
 * rows alone). */
struct thread_row {
	GArray *cells;		/* struct cell, by bucket */
	char *name;
	const char *name_seen;	/* the state's string last made the name */
	int exec_quark;		/* Threads/<tid>/Exec_name + 1, 0: unknown */
	int64_t ppid;		/* its parent's tid (PPID), 0: not known */
};

/* The thread that ran longest at once (between two switches) in a
 * bucket of a CPU: the name the CPUs pane writes on its row. */
struct top_run {
	unsigned bucket;
	int64_t tid, ns;
};

struct cpu_row {
	GArray *cells;		/* struct cell, by bucket */
	GArray *current;	/* struct piece: tids not matched yet */
	GArray *doing;		/* struct piece: statuses not matched yet */
	struct tn_timeline_summary_row *summary;
	/* The replay's: the longest run of each bucket (struct top_run,
	 * by bucket), and the run going on. */
	GArray *tops;
	struct top_run run;
};

/* An irq's or a softirq vector's row (summed over the CPUs). */
struct line_row {
	GArray *cells;		/* struct cell, by bucket */
	struct tn_timeline_summary_row *summary;
	char *name;		/* an irq's handler's (the first seen) */
};

/* What the intervals say, once read from the state: what the summary
 * form hands its helper thread. */
enum record_what { REC_CURRENT, REC_DOING, REC_WAIT, REC_NAME, REC_PPID,
	REC_IRQ, REC_SOFTIRQ, REC_IRQ_NAME };

struct record {
	enum record_what what;
	int64_t id;		/* a CPU, a tid, an irq or a vector */
	int64_t value;		/* a tid, an enum cpu_doing, a waiting
				 * enum tn_thread_state, a parent's tid, an
				 * enum tn_irq_state */
	int64_t from, to;
	char *name;		/* REC_NAME's and REC_IRQ_NAME's, owned */
};

/* Records a helper thread takes at a time, and how many such chunks
 * may wait for it. */
#define CHUNK_RECORDS 4096
#define CHUNKS_AHEAD 32

/* The meaning of a few strings of the state, by their address: its
 * strings are interned (one address a text), and few (a status). */
#define MEMO_SIZE 8
struct text_memo {
	const char *text[MEMO_SIZE];
	int meaning[MEMO_SIZE];
	unsigned next;
};

struct timeline {
	struct tn_analysis_span span;
	const struct tn_row *row;	/* the event being applied */
	enum tn_aevent kind;
	GHashTable *threads;		/* int64 tid -> struct thread_row */
	GHashTable *cpus;		/* int64 cpu -> struct cpu_row */
	/* The irqs', then the softirq vectors': int64 -> struct line_row */
	GHashTable *lines[2];
	/* The summary form (span.buckets 0, the state pass's): the time
	 * goes there, not into the rows' cells. */
	struct tn_timeline_summary_builder *summary;
	struct text_memo doing, waiting, softirq; /* of the statuses */
	/* The irqs named already (int64 set), on the reading thread. */
	GHashTable *irqs_named;
	/* The summary form's helper: it applies the records (the state
	 * pass's thread only reads them from its state). */
	struct tn_fanout *helper;
	struct tn_chunk_queue *chunks;	/* of GArray of struct record */
	GArray *chunk;			/* being filled */
	/* The rows last found, by the low bits of their id (every record
	 * is applied to one or two rows, most often the same ones). */
	struct { int64_t id; struct thread_row *row; } thread_memo[64];
	struct {
		int64_t id;
		struct tn_timeline_summary_row *row;
	} summary_memo[64];
	struct cpu_row *cpu_memo[64];	/* CPUs 0-63 */
};

static void thread_row_free(gpointer data)
{
	struct thread_row *t = data;

	if (t->cells)
		g_array_free(t->cells, TRUE);
	g_free(t->name);
	g_free(t);
}

static void line_row_free(gpointer data)
{
	struct line_row *l = data;

	if (l->cells)
		g_array_free(l->cells, TRUE);
	g_free(l->name);
	g_free(l);
}

static void cpu_row_free(gpointer data)
{
	struct cpu_row *c = data;

	if (c->cells)
		g_array_free(c->cells, TRUE);
	if (c->current)
		g_array_free(c->current, TRUE);
	if (c->doing)
		g_array_free(c->doing, TRUE);
	if (c->tops)
		g_array_free(c->tops, TRUE);
	g_free(c);
}

static void apply(struct timeline *t, const struct tn_state *state,
		const struct record *r);

static void free_chunk(void *data)
{
	GArray *chunk = data;

	for (guint i = 0; i < chunk->len; i++)
		g_free(g_array_index(chunk, struct record, i).name);
	g_array_free(chunk, TRUE);
}

/* The helper: the chunks in order, until the queue ends. */
static int run_helper(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct timeline *t = data;
	GArray *chunk;

	(void) fanout;
	(void) i;
	(void) err;
	while ((chunk = tn_chunk_queue_pop(t->chunks))) {
		for (guint j = 0; j < chunk->len; j++) {
			struct record *r = &g_array_index(chunk,
				struct record, j);

			apply(t, NULL, r);
			g_free(r->name);
		}
		g_array_set_size(chunk, 0);
		tn_chunk_queue_give_back(t->chunks, chunk);
	}
	return 0;
}

/* Without a helper (none could start), the records are applied as they
 * come. */
static void start_helper(struct timeline *t)
{
	struct tn_error err;

	t->chunks = tn_chunk_queue_new(CHUNKS_AHEAD);
	t->chunk = g_array_sized_new(FALSE, FALSE, sizeof(struct record),
		CHUNK_RECORDS);
	if (tn_fanout_start(1, run_helper, t, &t->helper, &err))
		t->helper = NULL;
}

/* Hand the chunk being filled to the helper. */
static void hand_chunk(struct timeline *t)
{
	if (!t->chunk || t->chunk->len == 0)
		return;
	/* At most CHUNKS_AHEAD wait: the pass waits for the helper. */
	tn_chunk_queue_push(t->chunks, t->chunk);
	t->chunk = tn_chunk_queue_take_back(t->chunks);
	if (!t->chunk)
		t->chunk = g_array_sized_new(FALSE, FALSE,
			sizeof(struct record), CHUNK_RECORDS);
}

/* The helper has applied every record handed (or was never started). */
static void stop_helper(struct timeline *t)
{
	struct tn_error err;

	if (!t->chunks)
		return;
	if (t->helper) {
		hand_chunk(t);
		tn_chunk_queue_end(t->chunks);
		tn_fanout_join(t->helper, &err);
		t->helper = NULL;
	}
	free_chunk(t->chunk);
	t->chunk = NULL;
	tn_chunk_queue_free(t->chunks, free_chunk);
	t->chunks = NULL;
}

/* r applied now, or by the helper (the summary form). */
static void deliver(struct timeline *t, const struct tn_state *state,
		struct record *r)
{
	if (!t->helper) {
		apply(t, t->summary ? NULL : state, r);
		g_free(r->name);
		return;
	}
	g_array_append_val(t->chunk, *r);
	if (t->chunk->len == CHUNK_RECORDS)
		hand_chunk(t);
}

static void *create(const struct tn_analysis_span *span)
{
	struct timeline *t = g_new0(struct timeline, 1);

	t->span = *span;
	t->threads = tn_amap_new_int64(thread_row_free);
	t->cpus = tn_amap_new_int64(cpu_row_free);
	for (int k = 0; k < 2; k++)
		t->lines[k] = tn_amap_new_int64(line_row_free);
	t->irqs_named = g_hash_table_new_full(g_int64_hash, g_int64_equal,
		g_free, NULL);
	if (span->buckets == 0) {
		t->summary = tn_timeline_summary_builder_new(
			span->range_begin_ns, span->trace_bytes);
		start_helper(t);
	}
	return t;
}

static void destroy(void *acc)
{
	struct timeline *t = acc;

	stop_helper(t);
	g_hash_table_destroy(t->threads);
	g_hash_table_destroy(t->cpus);
	for (int k = 0; k < 2; k++)
		g_hash_table_destroy(t->lines[k]);
	g_hash_table_destroy(t->irqs_named);
	tn_timeline_summary_builder_free(t->summary);
	g_free(t);
}

static unsigned bucket_count(const struct timeline *t)
{
	return t->span.buckets ? t->span.buckets : 1;
}

static struct thread_row *thread_row(struct timeline *t, int64_t tid)
{
	size_t slot = (size_t) tid % G_N_ELEMENTS(t->thread_memo);
	struct thread_row *row;

	if (t->thread_memo[slot].row && t->thread_memo[slot].id == tid)
		return t->thread_memo[slot].row;
	row = tn_amap_int64(t->threads, tid, sizeof(struct thread_row));
	t->thread_memo[slot].id = tid;
	t->thread_memo[slot].row = row;

	if (!row->cells)
		row->cells = g_array_new(FALSE, FALSE, sizeof(struct cell));
	return row;
}

/* The summary form's row of thread tid. */
static struct tn_timeline_summary_row *summary_thread(struct timeline *t,
		int64_t tid)
{
	size_t slot = (size_t) tid % G_N_ELEMENTS(t->summary_memo);

	if (!t->summary_memo[slot].row || t->summary_memo[slot].id != tid) {
		t->summary_memo[slot].id = tid;
		t->summary_memo[slot].row = tn_timeline_summary_get_row(
			t->summary, TN_TIMELINE_THREADS, tid);
	}
	return t->summary_memo[slot].row;
}

static struct cpu_row *cpu_row(struct timeline *t, int64_t cpu)
{
	bool small = cpu >= 0 && cpu < (int64_t) G_N_ELEMENTS(t->cpu_memo);
	struct cpu_row *row;

	if (small && t->cpu_memo[cpu])
		return t->cpu_memo[cpu];
	row = tn_amap_int64(t->cpus, cpu, sizeof(struct cpu_row));
	if (small)
		t->cpu_memo[cpu] = row;

	if (!row->cells) {
		row->cells = g_array_new(FALSE, FALSE, sizeof(struct cell));
		row->current = g_array_new(FALSE, FALSE, sizeof(struct piece));
		row->doing = g_array_new(FALSE, FALSE, sizeof(struct piece));
		row->tops = g_array_new(FALSE, FALSE, sizeof(struct top_run));
		if (t->summary)
			row->summary = tn_timeline_summary_get_row(t->summary,
				TN_TIMELINE_CPUS, cpu);
	}
	return row;
}

/* The row of irq (softirq false) or softirq vector number. */
static struct line_row *line_row(struct timeline *t, bool softirq,
		int64_t number)
{
	struct line_row *row = tn_amap_int64(t->lines[softirq], number,
		sizeof(struct line_row));

	if (!row->cells) {
		row->cells = g_array_new(FALSE, FALSE, sizeof(struct cell));
		if (t->summary)
			row->summary = tn_timeline_summary_get_row(t->summary,
				softirq ? TN_TIMELINE_SOFTIRQS :
				TN_TIMELINE_IRQS, number);
	}
	return row;
}

/* The times of bucket k among cells, made when it has none yet.  Time
 * mostly comes in order: the last cell, or a new one after it. */
static int64_t *cell_of(GArray *cells, unsigned k)
{
	guint i = cells->len;
	struct cell fresh = { .bucket = k };

	while (i > 0 && g_array_index(cells, struct cell, i - 1).bucket > k)
		i--;
	if (i > 0 && g_array_index(cells, struct cell, i - 1).bucket == k)
		return g_array_index(cells, struct cell, i - 1).ns;
	g_array_insert_val(cells, i, fresh);
	return g_array_index(cells, struct cell, i).ns;
}

/* Add [from, to) to the state's time in cells, cut at the buckets'
 * edges; clipped to the range. */
static void spread(const struct timeline *t, GArray *cells, size_t state,
		int64_t from, int64_t to)
{
	int64_t begin = t->span.range_begin_ns, end = t->span.range_end_ns;
	unsigned n = bucket_count(t);
	unsigned k;

	if (from < begin)
		from = begin;
	if (to > end)
		to = end;
	if (to <= from)
		return;
	for (k = tn_timeline_bucket_of(begin, end, n, from); k < n; k++) {
		int64_t edge = tn_timeline_bucket_begin(begin, end, n, k + 1);
		int64_t piece_end = to < edge ? to : edge;

		if (piece_end > from)
			cell_of(cells, k)[state] += piece_end - from;
		if (to <= edge)
			break;
		from = edge;
	}
}

/* Add [from, to) in state to a row: to its cells, or to the summary. */
static void add_time(const struct timeline *t, GArray *cells,
		struct tn_timeline_summary_row *summary, size_t state,
		int64_t from, int64_t to)
{
	if (t->summary)
		tn_timeline_summary_add_to(t->summary, summary,
			(unsigned) state, from, to);
	else
		spread(t, cells, state, from, to);
}

/* Name row by the state's string name (once for each new string). */
static void set_name(struct thread_row *row, const char *name)
{
	if (name && name != row->name_seen) {
		tn_aname_set(&row->name, name);
		row->name_seen = name;
	}
}

/* The meaning of text by classify, remembered by its address. */
static int text_meaning(struct text_memo *memo, const char *text,
		int (*classify)(const char *))
{
	unsigned slot = memo->next;

	for (unsigned i = 0; i < MEMO_SIZE; i++)
		if (memo->text[i] == text)
			return memo->meaning[i];
	memo->next = (slot + 1) % MEMO_SIZE;
	memo->text[slot] = text;
	memo->meaning[slot] = classify(text);
	return memo->meaning[slot];
}

static const char *thread_name(struct timeline *t,
		const struct tn_state *state, struct thread_row *row,
		int64_t tid)
{
	int quark = row->exec_quark - 1;
	const struct tn_state_value *value;

	if (quark < 0 || quark >= tn_state_get_attribute_count(state)) {
		quark = tn_aquark_thread(&t->span.look->quarks, state, tid,
			AQ_EXEC_NAME);
		if (quark < 0)
			return NULL;
		row->exec_quark = quark + 1;
	}
	value = tn_state_get_value(state, quark);
	return value->type == TN_STATE_STRING ? value->u.s : NULL;
}

/* tid spent [from, to) in state: in its row, named from the state (when
 * there is one: not in the summary form). */
static void add_thread_time(struct timeline *t, const struct tn_state *state,
		int64_t tid, enum tn_thread_state thread_state, int64_t from,
		int64_t to)
{
	struct thread_row *row;

	if (t->summary) {
		tn_timeline_summary_add_to(t->summary, summary_thread(t, tid),
			thread_state, from, to);
		return;
	}
	row = thread_row(t, tid);
	spread(t, row->cells, thread_state, from, to);
	if (state)
		set_name(row, thread_name(t, state, row, tid));
}

/* Keep run as its bucket's longest when it is. */
static void keep_run(GArray *tops, const struct top_run *run)
{
	guint i = tops->len;

	while (i > 0 && g_array_index(tops, struct top_run, i - 1).bucket >
			run->bucket)
		i--;
	if (i > 0 && g_array_index(tops, struct top_run, i - 1).bucket ==
			run->bucket) {
		struct top_run *top = &g_array_index(tops, struct top_run,
			i - 1);

		if (run->ns > top->ns)
			*top = *run;
		return;
	}
	g_array_insert_val(tops, i, *run);
}

/* The run going on ends. */
static void end_run(struct cpu_row *c)
{
	if (c->run.ns > 0)
		keep_run(c->tops, &c->run);
	c->run.ns = 0;
}

/* tid ran [from, to) on a CPU, busy: its runs per bucket (the replay's
 * alone). */
static void note_run(const struct timeline *t, struct cpu_row *c,
		int64_t tid, int64_t from, int64_t to)
{
	int64_t begin = t->span.range_begin_ns, end = t->span.range_end_ns;
	unsigned n = bucket_count(t);

	from = MAX(from, begin);
	to = MIN(to, end);
	for (unsigned k = tn_timeline_bucket_of(begin, end, n, from);
	     to > from && k < n; k++) {
		int64_t edge = tn_timeline_bucket_begin(begin, end, n, k + 1);
		int64_t piece_end = MIN(to, edge);

		if (piece_end > from) {
			if (c->run.ns == 0 || c->run.tid != tid ||
			    c->run.bucket != k) {
				end_run(c);
				c->run = (struct top_run) { k, tid, 0 };
			}
			c->run.ns += piece_end - from;
		}
		from = edge;
	}
}

/* The runs going on end (before a merge or the report). */
static void end_runs(struct timeline *t)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, t->cpus);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		end_run(value);
}

/* tid ran on cpu over [from, to) while the CPU was doing `doing`. */
static void account_overlap(struct timeline *t, const struct tn_state *state,
		int64_t cpu, int64_t tid, enum cpu_doing doing, int64_t from,
		int64_t to)
{
	struct cpu_row *c = cpu_row(t, cpu);
	int cpu_state = -1;

	switch (doing) {
	case DOING_IDLE:
		cpu_state = TN_CPU_IDLE;
		break;
	case DOING_USER:
	case DOING_SYSCALL:
		cpu_state = TN_CPU_BUSY;
		break;
	case DOING_IRQ:
		cpu_state = TN_CPU_IRQ;
		break;
	case DOING_SOFTIRQ:
		cpu_state = TN_CPU_SOFTIRQ;
		break;
	case DOING_UNKNOWN:
		/* A thread known to run (the CPU's first switch): busy. */
		cpu_state = tid > 0 ? TN_CPU_BUSY : -1;
		break;
	}
	if (cpu_state >= 0)
		add_time(t, c->cells, c->summary, (size_t) cpu_state, from,
			to);
	if (cpu_state == TN_CPU_BUSY && tid > 0 && !t->summary)
		note_run(t, c, tid, from, to);
	if (tid > 0)
		add_thread_time(t, state, tid, doing == DOING_SYSCALL ?
			TN_THREAD_SYSCALL : doing == DOING_IRQ ||
			doing == DOING_SOFTIRQ ? TN_THREAD_INTERRUPTED :
			TN_THREAD_USER, from, to);
}

/* Account what both pieces lists of a CPU cover, dropping what is
 * done. */
static void match(struct timeline *t, const struct tn_state *state,
		int64_t cpu, struct cpu_row *c)
{
	guint i = 0, j = 0;

	while (i < c->current->len && j < c->doing->len) {
		const struct piece *a = &g_array_index(c->current,
			struct piece, i);
		const struct piece *b = &g_array_index(c->doing, struct piece,
			j);
		int64_t from = a->from > b->from ? a->from : b->from;
		int64_t to = a->to < b->to ? a->to : b->to;

		if (to > from)
			account_overlap(t, state, cpu, a->value,
				(enum cpu_doing) b->value, from, to);
		if (a->to <= b->to)
			i++;
		else
			j++;
	}
	g_array_remove_range(c->current, 0, i);
	g_array_remove_range(c->doing, 0, j);
}

/* A piece of cpu's Current_thread (is_current) or Status, [from, to)
 * from no earlier than the slice's start: the slices before it counted
 * the time before (what was never set counts from the range's start, as
 * nothing before counted it). */
static void add_piece(struct timeline *t, const struct tn_state *state,
		int64_t cpu, bool is_current, int64_t from, int64_t to,
		int64_t value)
{
	struct cpu_row *c = cpu_row(t, cpu);
	int64_t floor = from == INT64_MIN ? t->span.range_begin_ns :
		t->span.begin_ns;
	struct piece p = { from < floor ? floor : from, to, value };

	if (to <= p.from)
		return;
	g_array_append_val(is_current ? c->current : c->doing, p);
	match(t, state, cpu, c);
}

static int classify_doing(const char *s)
{
	if (!strcmp(s, "idle"))
		return DOING_IDLE;
	if (!strcmp(s, "usermode"))
		return DOING_USER;
	if (!strcmp(s, "syscall"))
		return DOING_SYSCALL;
	if (!strcmp(s, "irq"))
		return DOING_IRQ;
	if (!strcmp(s, "softirq"))
		return DOING_SOFTIRQ;
	return DOING_UNKNOWN;
}

static enum cpu_doing doing_of(struct timeline *t,
		const struct tn_state_value *value)
{
	if (value->type != TN_STATE_STRING)
		return DOING_UNKNOWN;
	return (enum cpu_doing) text_meaning(&t->doing, value->u.s,
		classify_doing);
}

/* A thread's waiting state (enum tn_thread_state), or -1. */
static int classify_waiting(const char *s)
{
	return !strcmp(s, "wait_cpu") ? TN_THREAD_WAIT_CPU :
		!strcmp(s, "wait_blocked") ? TN_THREAD_BLOCKED : -1;
}

/* A softirq vector's status: raised (waiting to run), or running
 * (running_raised too: raised again while it runs); -1: other. */
static int classify_softirq(const char *s)
{
	if (!strcmp(s, "raised"))
		return TN_IRQ_RAISED;
	if (!strcmp(s, "running") || !strcmp(s, "running_raised"))
		return TN_IRQ_ACTIVE;
	return -1;
}

/* An irq's entry names its line (the first handler seen: a shared line
 * has several); the name is looked up once per irq. */
static void name_irq(struct timeline *t, const struct tn_state *state,
		const struct tn_row *row)
{
	const char *name;
	int64_t irq;

	if (!tn_provider_field_int(&row->ev, "irq", &irq) ||
	    g_hash_table_contains(t->irqs_named, &irq) ||
	    !(name = tn_provider_field_string(&row->ev, "name")))
		return;
	g_hash_table_add(t->irqs_named, g_memdup2(&irq, sizeof(irq)));
	deliver(t, state, &(struct record) { REC_IRQ_NAME, irq, 0, 0, 0,
		g_strdup(name) });
}

static void on_event(void *acc, const struct tn_state *state,
		const struct tn_row *row, enum tn_aevent kind)
{
	struct timeline *t = acc;

	t->row = row;
	t->kind = kind;
	if (kind == AE_IRQ_ENTRY)
		name_irq(t, state, row);
}

/* A Current_thread interval: the thread that ran, as cputop has it. */
static void on_current(struct timeline *t, const struct tn_state *state,
		int64_t cpu, const struct tn_state_value *value,
		int64_t from, int64_t to)
{
	int64_t tid = -1;

	if (value->type == TN_STATE_INT) {
		tid = value->u.i;
	} else if (value->type == TN_STATE_NULL && from == INT64_MIN &&
		   t->row && t->kind == AE_SCHED_SWITCH &&
		   tn_provider_field_int(&t->row->ev, "prev_tid", &tid)) {
		/* The CPU's first switch: what ran before it ran since the
		 * range's start (from stays INT64_MIN: add_piece()). */
	} else {
		tid = -1;
	}
	deliver(t, state, &(struct record) { REC_CURRENT, cpu, tid, from, to,
		NULL });
}

static void on_interval(void *acc, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct timeline *t = acc;
	struct tn_akinds *kinds = &t->span.look->kinds;
	enum tn_akind kind = tn_akinds_get(kinds, state, quark);
	int64_t number;

	if (kind == AK_OTHER)
		return;
	number = tn_akinds_number(kinds, state, quark);
	if (kind == AK_CPU_CURRENT) {
		on_current(t, state, number, value, start->ns, end->ns);
	} else if (kind == AK_CPU_STATUS) {
		deliver(t, state, &(struct record) { REC_DOING, number,
			doing_of(t, value), start->ns, end->ns, NULL });
	} else if (kind == AK_THREAD_STATUS && number > 0 &&
		   value->type == TN_STATE_STRING) {
		int waiting = text_meaning(&t->waiting, value->u.s,
			classify_waiting);

		if (waiting >= 0)
			deliver(t, state, &(struct record) { REC_WAIT, number,
				waiting, start->ns, end->ns, NULL });
	} else if (kind == AK_THREAD_EXEC_NAME && t->summary && number > 0 &&
		   value->type == TN_STATE_STRING) {
		/* The summary's names: each one a thread had (the other
		 * form reads the state's as it accounts). */
		deliver(t, state, &(struct record) { REC_NAME, number, 0, 0, 0,
			g_strdup(value->u.s) });
	} else if (kind == AK_CPU_IRQ && value->type != TN_STATE_NULL) {
		/* CPUs/<n>/IRQs/<irq>: set while its handler runs. */
		deliver(t, state, &(struct record) { REC_IRQ, number,
			TN_IRQ_ACTIVE, start->ns, end->ns, NULL });
	} else if (kind == AK_CPU_SOFTIRQ && value->type == TN_STATE_STRING) {
		int line_state = text_meaning(&t->softirq, value->u.s,
			classify_softirq);

		if (line_state >= 0)
			deliver(t, state, &(struct record) { REC_SOFTIRQ,
				number, line_state, start->ns, end->ns, NULL });
	} else if (kind == AK_THREAD_PPID && number > 0 &&
		   value->type == TN_STATE_INT && value->u.i > 0) {
		/* The process tree: the parent a thread had last. */
		deliver(t, state, &(struct record) { REC_PPID, number,
			value->u.i, 0, 0, NULL });
	}
}

/* What a record says, applied to the rows (state: for the names, NULL
 * in the summary form). */
static void apply(struct timeline *t, const struct tn_state *state,
		const struct record *r)
{
	switch (r->what) {
	case REC_CURRENT:
	case REC_DOING:
		add_piece(t, state, r->id, r->what == REC_CURRENT, r->from,
			r->to, r->value);
		break;
	case REC_WAIT:
		add_thread_time(t, state, r->id, (enum tn_thread_state)
			r->value, r->from < t->span.begin_ns ?
			t->span.begin_ns : r->from, r->to);
		break;
	case REC_NAME:
		tn_timeline_summary_set_name(t->summary, r->id, r->name);
		break;
	case REC_IRQ:
	case REC_SOFTIRQ: {
		struct line_row *row = line_row(t, r->what == REC_SOFTIRQ,
			r->id);

		add_time(t, row->cells, row->summary, (size_t) r->value,
			r->from < t->span.begin_ns ? t->span.begin_ns :
			r->from, r->to);
		break;
	}
	case REC_PPID:
		if (t->summary)
			tn_timeline_summary_set_parent(t->summary, r->id,
				r->value);
		else
			thread_row(t, r->id)->ppid = r->value;
		break;
	case REC_IRQ_NAME:
		if (t->summary)
			tn_timeline_summary_set_irq_name(t->summary, r->id,
				r->name);
		else
			tn_aname_set_first(&line_row(t, false, r->id)->name,
				r->name);
		break;
	}
}

/* The intervals of parent's children named names, open until end. */
static void close_open(struct timeline *t, const struct tn_state *state,
		int parent, const char *const *names, size_t count,
		const struct tn_state_stamp *end)
{
	for (size_t n = 0; n < count; n++) {
		int q = tn_state_quark_child_lookup(state, parent, names[n]);

		if (q >= 0)
			on_interval(t, state, q, tn_state_get_value(state, q),
				tn_state_get_start(state, q), end);
	}
}

/* The intervals of the children of parent's child name (an irq or a
 * vector of a CPU), open until end. */
static void close_children(struct timeline *t, const struct tn_state *state,
		int parent, const char *name, const struct tn_state_stamp *end)
{
	int lines = tn_state_quark_child_lookup(state, parent, name);
	size_t count = lines < 0 ? 0 : tn_state_get_child_count(state, lines);

	for (size_t i = 0; i < count; i++) {
		int q = tn_state_get_child(state, lines, i);

		on_interval(t, state, q, tn_state_get_value(state, q),
			tn_state_get_start(state, q), end);
	}
}

/* What is open at the slice's end lasts until it. */
static void on_end(void *acc, const struct tn_state *state, int64_t end_ns)
{
	struct timeline *t = acc;
	int cpus = tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs");
	int threads = tn_state_quark_lookup(state, TN_STATE_ROOT, "Threads");
	size_t count = cpus < 0 ? 0 : tn_state_get_child_count(state, cpus);
	struct tn_state_stamp end = { .ns = end_ns };

	static const char *const of_cpu[] = { "Current_thread", "Status" };
	static const char *const of_thread[] = { "Status", "Exec_name",
		"PPID" };

	t->row = NULL;
	for (size_t i = 0; i < count; i++) {
		int cpu = tn_state_get_child(state, cpus, i);

		close_open(t, state, cpu, of_cpu, G_N_ELEMENTS(of_cpu), &end);
		close_children(t, state, cpu, "IRQs", &end);
		close_children(t, state, cpu, "Soft_IRQs", &end);
	}
	/* A thread that is gone is all null: only the live ones have a
	 * Status open (a long trace keeps many more of the others). */
	for (int thread = threads < 0 ? -1 :
			tn_state_get_first_live_child(state, threads);
	     thread >= 0;
	     thread = tn_state_get_next_live_sibling(state, thread))
		close_open(t, state, thread, of_thread,
			G_N_ELEMENTS(of_thread), &end);
}

/* Add the cells of from into into. */
static void add_cells(GArray *into, const GArray *from)
{
	for (guint i = 0; i < from->len; i++) {
		const struct cell *c = &g_array_index(from, struct cell, i);
		int64_t *ns = cell_of(into, c->bucket);

		for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
			ns[s] += c->ns[s];
	}
}

static void merge(void *acc, void *later)
{
	struct timeline *t = acc, *l = later;
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, l->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct thread_row *from = value;
		struct thread_row *row = thread_row(t, TN_AKEY_VALUE(key));

		add_cells(row->cells, from->cells);
		tn_aname_set(&row->name, from->name);
		if (from->ppid)
			row->ppid = from->ppid;
	}
	end_runs(t);
	end_runs(l);
	g_hash_table_iter_init(&iter, l->cpus);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct cpu_row *from = value;
		struct cpu_row *row = cpu_row(t, TN_AKEY_VALUE(key));

		add_cells(row->cells, from->cells);
		for (guint i = 0; i < from->tops->len; i++)
			keep_run(row->tops, &g_array_index(from->tops,
				struct top_run, i));
	}
	for (int k = 0; k < 2; k++) {
		g_hash_table_iter_init(&iter, l->lines[k]);
		while (g_hash_table_iter_next(&iter, &key, &value)) {
			struct line_row *from = value;
			struct line_row *row = line_row(t, k,
				TN_AKEY_VALUE(key));

			add_cells(row->cells, from->cells);
			/* The first slice's name first. */
			tn_aname_set_first(&row->name, from->name);
		}
	}
}

static const struct tn_analysis_column thread_columns[] = {
	{ "TID", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
	{ "BUCKET", TN_CELL_INT }, { "USER_NS", TN_CELL_INT },
	{ "SYSCALL_NS", TN_CELL_INT }, { "INTERRUPTED_NS", TN_CELL_INT },
	{ "WAIT_CPU_NS", TN_CELL_INT }, { "BLOCKED_NS", TN_CELL_INT },
};

static const struct tn_analysis_column parent_columns[] = {
	{ "TID", TN_CELL_INT }, { "PPID", TN_CELL_INT },
};

static const struct tn_analysis_column irq_columns[] = {
	{ "IRQ", TN_CELL_INT }, { "BUCKET", TN_CELL_INT },
	{ "ACTIVE_NS", TN_CELL_INT }, { "RAISED_NS", TN_CELL_INT },
};

static const struct tn_analysis_column irq_name_columns[] = {
	{ "IRQ", TN_CELL_INT }, { "NAME", TN_CELL_TEXT },
};

static const struct tn_analysis_column softirq_columns[] = {
	{ "VEC", TN_CELL_INT }, { "BUCKET", TN_CELL_INT },
	{ "ACTIVE_NS", TN_CELL_INT }, { "RAISED_NS", TN_CELL_INT },
};

static const struct tn_analysis_column top_columns[] = {
	{ "CPU", TN_CELL_INT }, { "BUCKET", TN_CELL_INT },
	{ "TID", TN_CELL_INT }, { "NS", TN_CELL_INT },
};

static const struct tn_analysis_column cpu_columns[] = {
	{ "CPU", TN_CELL_INT }, { "BUCKET", TN_CELL_INT },
	{ "BUSY_NS", TN_CELL_INT }, { "IRQ_NS", TN_CELL_INT },
	{ "SOFTIRQ_NS", TN_CELL_INT }, { "IDLE_NS", TN_CELL_INT },
};

static bool any_time(const int64_t *ns, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (ns[i] > 0)
			return true;
	return false;
}

/* Whether a thread's cells hold any time (it has rows in the table). */
static bool has_time(const GArray *cells)
{
	for (guint i = 0; i < cells->len; i++)
		if (any_time(g_array_index(cells, struct cell, i).ns,
				TN_THREAD_STATE_COUNT))
			return true;
	return false;
}

/* One row of the table for each bucket with time among cells: id,
 * [name,] bucket, the states' ns. */
static void report_row(struct tn_analysis_result *result,
		struct tn_analysis_table *table, int64_t id,
		const char *const *name, const GArray *cells, size_t states)
{
	for (guint i = 0; i < cells->len; i++) {
		const struct cell *cell = &g_array_index(cells, struct cell,
			i);
		struct tn_analysis_cell *row;
		size_t c = 0;

		if (!any_time(cell->ns, states))
			continue;
		row = tn_atable_row(table);
		tn_acell_int(&row[c++], id);
		if (name)
			tn_acell_text(result, &row[c++], *name);
		tn_acell_int(&row[c++], cell->bucket);
		for (size_t s = 0; s < states; s++)
			tn_acell_int(&row[c++], cell->ns[s]);
	}
}

/* The irqs' handlers' names, for the CPUs pane's labels. */
static void report_irq_names(struct timeline *t,
		struct tn_analysis_result *result)
{
	struct tn_analysis_table *names = tn_atable_add(result, "irq_names",
		"the name of each irq's handler (the first seen)",
		irq_name_columns, G_N_ELEMENTS(irq_name_columns));
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, t->lines[0]);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const struct line_row *row = value;
		struct tn_analysis_cell *cells;

		if (!row->name)
			continue;
		cells = tn_atable_row(names);
		tn_acell_int(&cells[0], TN_AKEY_VALUE(key));
		tn_acell_text(result, &cells[1], row->name);
	}
	tn_analysis_table_sort(names, 0, false);
}

static void report(void *acc, const struct tn_analysis_span *range,
		struct tn_analysis_result *result)
{
	struct timeline *t = acc;
	struct tn_analysis_table *threads, *parents, *cpus, *tops;
	GHashTableIter iter;
	gpointer key, value;

	(void) range;
	threads = tn_atable_add(result, "threads", "time per thread, state "
		"and bucket", thread_columns, G_N_ELEMENTS(thread_columns));
	g_hash_table_iter_init(&iter, t->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct thread_row *row = value;
		const char *name = row->name;

		report_row(result, threads, TN_AKEY_VALUE(key), &name,
			row->cells, TN_THREAD_STATE_COUNT);
	}
	tn_analysis_table_sort(threads, 2, false);
	tn_analysis_table_sort(threads, 0, false);

	/* The threads' parents, for the panes' process tree. */
	parents = tn_atable_add(result, "parents", "the parent (PPID) of "
		"each thread that has time", parent_columns,
		G_N_ELEMENTS(parent_columns));
	g_hash_table_iter_init(&iter, t->threads);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const struct thread_row *row = value;
		struct tn_analysis_cell *cells;

		if (!row->ppid || !has_time(row->cells))
			continue;
		cells = tn_atable_row(parents);
		tn_acell_int(&cells[0], TN_AKEY_VALUE(key));
		tn_acell_int(&cells[1], row->ppid);
	}
	tn_analysis_table_sort(parents, 0, false);

	cpus = tn_atable_add(result, "cpus", "time per CPU, state and "
		"bucket", cpu_columns, G_N_ELEMENTS(cpu_columns));
	g_hash_table_iter_init(&iter, t->cpus);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct cpu_row *row = value;

		report_row(result, cpus, TN_AKEY_VALUE(key), NULL, row->cells,
			TN_CPU_STATE_COUNT);
	}
	tn_analysis_table_sort(cpus, 1, false);
	tn_analysis_table_sort(cpus, 0, false);

	/* Who ran longest at once in each bucket of each CPU. */
	end_runs(t);
	tops = tn_atable_add(result, "cpu_threads", "the thread that ran "
		"longest between two switches, per CPU and bucket",
		top_columns, G_N_ELEMENTS(top_columns));
	g_hash_table_iter_init(&iter, t->cpus);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const struct cpu_row *row = value;

		for (guint i = 0; row->tops && i < row->tops->len; i++) {
			const struct top_run *top = &g_array_index(row->tops,
				struct top_run, i);
			struct tn_analysis_cell *cells = tn_atable_row(tops);

			tn_acell_int(&cells[0], TN_AKEY_VALUE(key));
			tn_acell_int(&cells[1], top->bucket);
			tn_acell_int(&cells[2], top->tid);
			tn_acell_int(&cells[3], top->ns);
		}
	}
	tn_analysis_table_sort(tops, 1, false);
	tn_analysis_table_sort(tops, 0, false);

	for (int k = 0; k < 2; k++) {
		struct tn_analysis_table *lines = k ? tn_atable_add(result,
			"softirqs", "time per softirq vector (over the CPUs), "
			"state and bucket", softirq_columns,
			G_N_ELEMENTS(softirq_columns)) : tn_atable_add(result,
			"irqs", "time per irq (over the CPUs), state and "
			"bucket", irq_columns, G_N_ELEMENTS(irq_columns));

		g_hash_table_iter_init(&iter, t->lines[k]);
		while (g_hash_table_iter_next(&iter, &key, &value)) {
			const struct line_row *row = value;

			report_row(result, lines, TN_AKEY_VALUE(key), NULL,
				row->cells, TN_IRQ_STATE_COUNT);
		}
		tn_analysis_table_sort(lines, 1, false);
		tn_analysis_table_sort(lines, 0, false);
	}
	report_irq_names(t, result);
}

const struct tn_analysis_class tn_analysis_timeline = {
	"timeline",
	"time per thread and per CPU in each state, per bucket of the range",
	create, destroy, on_event, on_interval,
	AK_BIT(AK_CPU_CURRENT) | AK_BIT(AK_CPU_STATUS) |
		AK_BIT(AK_THREAD_STATUS) | AK_BIT(AK_THREAD_EXEC_NAME) |
		AK_BIT(AK_THREAD_PPID) | AK_BIT(AK_CPU_IRQ) |
		AK_BIT(AK_CPU_SOFTIRQ),
	on_end, merge, report,
};

GBytes *tn_analysis_timeline_take_summary(void *acc)
{
	struct timeline *t = acc;
	GBytes *blob;

	if (!t->summary)
		return NULL;
	stop_helper(t);
	blob = tn_timeline_summary_save(t->summary);
	/* Its rows go now, not with the pass: before the cache is
	 * written, the largest thing it makes. */
	tn_timeline_summary_builder_free(t->summary);
	t->summary = NULL;
	memset(t->summary_memo, 0, sizeof(t->summary_memo));
	memset(t->cpu_memo, 0, sizeof(t->cpu_memo));
	g_hash_table_remove_all(t->cpus);
	for (int k = 0; k < 2; k++)
		g_hash_table_remove_all(t->lines[k]);
	return blob;
}

int tn_timeline_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots, int64_t begin_ns,
		int64_t end_ns, unsigned buckets, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err)
{
	if (buckets == 0 || buckets > TN_TIMELINE_MAX_BUCKETS) {
		tn_error_set(err, "timeline: %u buckets: give 1 to %d",
			buckets, TN_TIMELINE_MAX_BUCKETS);
		return -1;
	}
	return tn_analysis_run_class(trace, snapshots, &tn_analysis_timeline,
		buckets, begin_ns, end_ns, threads, out, err);
}

int tn_timeline_run_partial(const struct tn_trace *trace, int64_t begin_ns,
		int64_t end_ns, unsigned buckets,
		struct tn_analysis_result **out, struct tn_error *err)
{
	if (buckets == 0 || buckets > TN_TIMELINE_MAX_BUCKETS) {
		tn_error_set(err, "timeline: %u buckets: give 1 to %d",
			buckets, TN_TIMELINE_MAX_BUCKETS);
		return -1;
	}
	return tn_analysis_run_class_partial(trace, &tn_analysis_timeline,
		buckets, begin_ns, end_ns, out, err);
}
