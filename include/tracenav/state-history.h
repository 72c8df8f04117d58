/* state-history.h - the state of the system at any event of a trace:
 * snapshots taken by one background read of the trace (the state
 * pass), and queries that restore the nearest snapshot at or before an
 * event and replay the events in between.
 *
 * Snapshots are spaced by a budget, not one per checkpoint: a kernel
 * snapshot of thousands of threads weighs tens of kilobytes, so the
 * pass takes one when the events since the last one are enough both to
 * keep all snapshots within a share of the trace's size and to make it
 * worth it (at least min_gap events), and at the latest after max_gap
 * events, which bounds the replay of a query (max_gap wins: only a
 * trace whose changes weigh much for its size goes over its share).
 * Most snapshots hold only the changes since the one before: a kernel
 * state keeps every thread it has seen, so it grows with the trace
 * while what changes between two snapshots does not.  A restore applies
 * the changes from the last full snapshot on, reusing the attributes
 * the state it restores into already has (state-pass.c, state-delta.c).
 *
 * A query answers the state *at* an event: after the event itself was
 * applied (an event that changes a value starts the new interval).
 */
#ifndef TRACENAV_STATE_HISTORY_H
#define TRACENAV_STATE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "tracenav/state.h"
#include "tracenav/symbols.h"
#include "tracenav/trace.h"

/* ---- snapshots ---- */

/* The snapshots of one trace, sorted by position.  Thread-safe: the
 * state pass appends while queries on other threads look up (a mutex
 * inside). */
struct tn_state_snapshots;

struct tn_state_snapshots *tn_state_snapshots_create(void);
void tn_state_snapshots_destroy(struct tn_state_snapshots *snapshots);

/* How many, their total size in bytes, and whether the pass that took
 * them read the whole trace (then a query anywhere has one close by). */
size_t tn_state_snapshots_get_count(const struct tn_state_snapshots *snapshots);
uint64_t tn_state_snapshots_get_bytes(
		const struct tn_state_snapshots *snapshots);
bool tn_state_snapshots_is_complete(const struct tn_state_snapshots *snapshots);

/* How far the pass got: the position of the last event it applied
 * (false before the first). */
bool tn_state_snapshots_get_reached(const struct tn_state_snapshots *snapshots,
		struct tn_position *pos);

/* The rank of the event reached too (its number, 0-based). */
bool tn_state_snapshots_get_reached_rank(
		const struct tn_state_snapshots *snapshots,
		struct tn_position *pos, uint64_t *rank);

/* One snapshot: the state before the event at pos (the first event a
 * replay from it applies), which is event number rank (0-based).  A
 * full one is a blob of tn_state_save(); the others hold the changes
 * since the snapshot before them (the first: since the empty state), so
 * a state is made from the last full one at or before it (or the empty
 * state) and the changes of each one after it in turn. */
struct tn_state_snapshot_info {
	size_t index;		/* its number, in order of position */
	struct tn_position pos;
	uint64_t rank;
	size_t bytes;
	bool full;
};

/* Snapshot number i (< the count), in order of position: its info and,
 * when blob is not NULL, a new reference to its blob (g_bytes_unref
 * it), as tn_state_save() wrote it. */
struct _GBytes;
void tn_state_snapshots_get(const struct tn_state_snapshots *snapshots,
		size_t i, struct tn_state_snapshot_info *info,
		struct _GBytes **blob);

/* The last snapshot at or before pos: true with its info (and *blob as
 * tn_state_snapshots_get() gives it; blob may be NULL), false when
 * there is none. */
bool tn_state_snapshots_find(const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos,
		struct tn_state_snapshot_info *info, struct _GBytes **blob);

/* For the state pass (and tests).  Append a snapshot taken before the
 * event at pos, number rank: pos comes after every snapshot's already
 * there (else it is dropped); blob is the bytes of tn_state_save() when
 * full, else the changes since the snapshot before (the snapshots take
 * a reference). */
void tn_state_snapshots_add(struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t rank, bool full,
		struct _GBytes *blob);

/* A state for a querier of these snapshots (see
 * tn_state_querier_keep_states()): one a querier gave back, or a new,
 * empty one.  A restore into a state given back is done in place (its
 * attributes are there already, in the same order): on a long kernel
 * trace that spares making hundreds of thousands of them, and the
 * memory they take, at every zoom or range of a replay.  Give it back
 * (or destroy it) before the snapshots are destroyed. */
struct tn_state *tn_state_snapshots_take_state(
		const struct tn_state_snapshots *snapshots);
/* Keep state for the next tn_state_snapshots_take_state() (two at
 * most; destroyed with the snapshots), or destroy it.  Precondition:
 * its attributes were made in the state pass's order (restores of
 * these snapshots, replays after them or from the trace's start), or
 * it has none; no change or undo log and no interval sink set. */
void tn_state_snapshots_give_state(const struct tn_state_snapshots *snapshots,
		struct tn_state *state);

/* Make state the state of snapshot number i: from the last full
 * snapshot at or before it (or the empty state), applying the changes
 * of the ones after it.  With from (>= 0, < i), state is already the
 * state of snapshot from, or a replay from it that did not reach the
 * next one, and only the changes after from are applied (unless a full
 * one comes between).  Returns 0, or -1 with err (a damaged blob: the
 * state is empty then). */
int tn_state_snapshots_restore(const struct tn_state_snapshots *snapshots,
		size_t i, long from, struct tn_state *state,
		struct tn_error *err);

/* The pass applied the event at pos, number rank. */
void tn_state_snapshots_set_reached(struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t rank);

/* The pass read the whole trace: event_count events (the last one
 * reached, when there are any). */
void tn_state_snapshots_set_complete(struct tn_state_snapshots *snapshots,
		uint64_t event_count);

/* What else the state pass keeps with the snapshots, by name (the
 * analyses of the whole trace: "analysis/cputop"): set replaces (the
 * snapshots take a reference), get gives a new reference or NULL.
 * Saved and loaded with them. */
void tn_state_snapshots_set_extra(struct tn_state_snapshots *snapshots,
		const char *name, struct _GBytes *blob);
struct _GBytes *tn_state_snapshots_get_extra(
		const struct tn_state_snapshots *snapshots, const char *name);

/* Serialise all of them for the cache (appends to buf, a GByteArray),
 * and read them back; load fails with err when data is damaged.  The
 * bytes carry their own checksum: load checks it, the sizes, the
 * order of the positions and ranks, before it keeps anything. */
struct _GByteArray;
void tn_state_snapshots_save(const struct tn_state_snapshots *snapshots,
		struct _GByteArray *buf);
int tn_state_snapshots_load(const void *data, size_t size,
		struct tn_state_snapshots **out, struct tn_error *err);
/* The same from section as it is, not copied: the snapshots are slices
 * of it (they take references), so its bytes must not change while
 * they live.  With checked, the bytes were verified already (a cache
 * file's checksum covers them): their own checksum is not computed
 * again; every other check is made. */
int tn_state_snapshots_load_bytes(struct _GBytes *section, bool checked,
		struct tn_state_snapshots **out, struct tn_error *err);

/* ---- the state pass ---- */

struct tn_state_budget {
	double trace_share;	/* all snapshots within this share of the
				 * trace's stream bytes (0.04) */
	uint64_t min_gap;	/* events between snapshots, at least */
	uint64_t max_gap;	/* and at most (bounds a query's replay) */
	/* But only this many (0: never) when a stream began a packet
	 * since the last snapshot: a query after the packet's start then
	 * decodes nothing of the packet before it. */
	uint64_t start_gap;
};

/* The default budget (4% of the trace, gaps of 16 Ki .. 64 Ki events,
 * 4 Ki after a packet's start). */
struct tn_state_budget tn_state_budget_default(void);

/* What a replay of a part of the trace tells its reader. */
struct tn_state_replay_hooks {
	/* Every event of the part, before the providers apply it (the
	 * state is the state before it); non-zero stops the replay with
	 * "cancelled". */
	int (*event)(void *data, const struct tn_state *state,
			const struct tn_row *row);
	/* Every interval the events of the part end (tn_state.h's
	 * interval sink), while the providers apply the event that ends
	 * it, which is the last one given to event. */
	tn_state_interval_fn interval;
	/* Once, with the state after the part's last event. */
	void (*end)(void *data, const struct tn_state *state);
};

/* Who else reads the events of the state pass, and keeps what it made
 * with the snapshots once the pass read the whole trace.  The pass owns
 * it (destroy, when the pass's job is freed). */
struct tn_state_pass_observer {
	struct tn_state_replay_hooks hooks;
	/* Optional: append to wants (a GArray of struct tn_field_want,
	 * event.h) the fields hooks.event reads. */
	void (*add_wants)(struct _GArray *wants);
	void *data;
	void (*finish)(void *data, struct tn_state_snapshots *snapshots);
	void (*destroy)(void *data);
};

/* tn_state_pass_start() with an observer (may be NULL; taken even when
 * the start fails). */
int tn_state_pass_start_observed(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots,
		struct tn_state_pass_observer *observer, struct tn_job **out,
		struct tn_error *err);

/* Start the state pass over trace (which, and snapshots, must outlive
 * the job): read the whole trace once in order, feed the providers,
 * append snapshots to `snapshots` (empty, as created) within budget
 * (NULL: the default), and mark it complete at the end.  index may be
 * NULL; with it, progress is a share of the events.  A job (job.h,
 * class name "computing state").  Returns 0 and *out, or -1 with err. */
int tn_state_pass_start(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots, struct tn_job **out,
		struct tn_error *err);

/* ---- query results ---- */

/* One attribute at the queried event: its interval. */
struct tn_state_entry {
	int quark;
	const char *path;		/* "CPUs/3/Current_thread" */
	const char *name;		/* "Current_thread" */
	int parent;			/* quark, TN_STATE_ROOT at the top */
	int depth;			/* 0 at the top */
	struct tn_state_value value;	/* strings owned by the result */
	struct tn_state_stamp start;
	/* The event that changes the value next, when the query looked
	 * that far (has_end); otherwise end_after says up to where it
	 * looked without a change (has_pos false when it did not look). */
	bool has_end;
	struct tn_state_stamp end;
	struct tn_state_stamp end_after;
};

/* Every attribute at one event that holds a value or has one under it
 * (a container such as CPUs/3 stays; a thread that is gone, all its
 * attributes null, and an attribute null with nothing under it do not:
 * quarks never go away, so a long kernel trace has many more of them
 * than live), sorted by path component by component (numbers by value:
 * "CPUs/2" before "CPUs/10"), parents before their children.  Making
 * it costs what it holds. */
struct tn_state_result {
	struct tn_position pos;		/* the event queried */
	size_t count;
	struct tn_state_entry *entries;
	const char *providers;		/* "kernel, ust" */
	/* From a snapshot (and how many events were replayed after it),
	 * or replayed from the start. */
	bool from_snapshot;
	uint64_t replayed;
};

void tn_state_result_destroy(struct tn_state_result *result);

/* The entry of path, or NULL. */
const struct tn_state_entry *tn_state_result_find(
		const struct tn_state_result *result, const char *path);

/* Whether path ("CPUs/3/Current_thread") matches glob: '*' matches any
 * characters but '/', "**" any characters, '?' one character but '/';
 * the rest matches itself. */
bool tn_state_path_match(const char *glob, const char *path);

/* -1, 0 or 1 as the attribute name a sorts before, with or after b:
 * names that are decimal numbers by value ("2" before "10") and before
 * the other names, which sort by their bytes. */
int tn_state_name_compare(const char *a, const char *b);

/* ---- queries ---- */

/* Answers queries on one trace, keeping the state and the reader of the
 * last one: a query at a later event close after it replays only the
 * events in between (scrolling down costs little).  One thread at a
 * time (a job's). */
struct tn_state_querier;

/* snapshots may be NULL (replay from the start) or still being
 * filled. */
int tn_state_querier_create(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		struct tn_state_querier **out, struct tn_error *err);
void tn_state_querier_destroy(struct tn_state_querier *querier);

/* Work in a state its snapshots kept (tn_state_snapshots_take_state()),
 * and give it back to them when destroyed: for the short-lived
 * queriers of a replay, each one after the other restoring in place.
 * Nothing without snapshots.  Precondition: the snapshots outlive the
 * querier. */
void tn_state_querier_keep_states(struct tn_state_querier *querier);

/* The snapshots given to tn_state_querier_create() (may be NULL). */
const struct tn_state_snapshots *tn_state_querier_borrow_snapshots(
		const struct tn_state_querier *querier);

struct tn_state_query_options {
	/* Read on after the event for up to this many events to find where
	 * the intervals end (0: do not). */
	uint64_t end_horizon;
	/* Only the attributes whose path matches this glob (NULL: all;
	 * '*' does not cross '/', "**" does). */
	const char *glob;
	/* The functions of call stacks by name: the string values of the
	 * children of a Call_stack attribute that are addresses ("0x" and
	 * hex, as the userspace provider stores them) read as
	 * tn_symbols_append() writes them, "draw_gears+0x1c" (NULL: as
	 * stored).  Only the result changes: the state and its snapshots
	 * keep the addresses, so that they (and the cache) do not depend
	 * on the symbols. */
	const struct tn_symbols *symbols;
};

/* The full state at the event at pos (an event's position, as the
 * list's rows have them): what lives, as struct tn_state_result says.
 * Fails with err for a position past the
 * trace's events ("no event at ..."), a read error, or a cancel of the
 * job that runs it ("cancelled").  Returns 0 and *out. */
int tn_state_querier_query(struct tn_state_querier *querier,
		const struct tn_position *pos,
		const struct tn_state_query_options *options,
		struct tn_state_result **out, struct tn_error *err);

/* The one attribute at path at the event at pos: its interval, with its
 * end found by reading on as far as needed (until the value changes or
 * the trace ends; cancellable).  Fails for an unknown attribute ("no
 * attribute ... in the state at ..."). */
int tn_state_querier_query_single(struct tn_state_querier *querier,
		const struct tn_position *pos, const char *path,
		struct tn_state_entry *entry, struct tn_error *err);

/* Free what an entry of query_single holds. */
void tn_state_entry_fini(struct tn_state_entry *entry);

/* Forget the kept state and reader: the next query starts from a
 * snapshot or the trace's start (for tests and benchmarks). */
void tn_state_querier_reset(struct tn_state_querier *querier);

/* How many threads open the reader at a snapshot (decoding the trace's
 * streams from the start of their packets up to it, most of a query's
 * time), split among them (tn_walk_open_at_known_split()): 0, the
 * default, for one per processor (at most 4); 1 for the caller's
 * thread alone (for benchmarks that compare them). */
void tn_state_querier_set_open_threads(struct tn_state_querier *querier,
		unsigned threads);

/* ---- replaying a part of the trace: what analyses build on ---- */


/* Replay the events at positions [from, to) (from NULL: the trace's
 * start; to NULL: its end) to hooks, with data: the kept state is made
 * the state before from (a snapshot exactly at from costs no replay;
 * else the nearest one before it, or the trace's start), then each
 * event of the part is given to hooks->event and applied.  The querier
 * keeps the state after the part for a later query.  Returns 0, or -1
 * with err (a read error, a failure of a provider, "cancelled"). */
int tn_state_querier_replay(struct tn_state_querier *querier,
		const struct tn_position *from, const struct tn_position *to,
		const struct tn_state_replay_hooks *hooks, void *data,
		struct tn_error *err);

/* The same from an empty state at from_ns: the events from the first one
 * at or after from_ns on, without replaying what came before them (the
 * state they find is learnt as they come: partial until every CPU and
 * thread has had an event).  What a span of a trace without snapshots
 * (not indexed, or while it indexes) is read with. */
int tn_state_querier_replay_unknown(struct tn_state_querier *querier,
		int64_t from_ns, const struct tn_position *to,
		const struct tn_state_replay_hooks *hooks, void *data,
		struct tn_error *err);

/* What the last query did, and where its time went. */
struct tn_state_query_stats {
	bool continued;		/* went on from the kept state */
	bool from_snapshot;	/* the kept state came from a snapshot */
	uint64_t events;	/* events applied to reach the event */
	uint64_t ahead_events;	/* read past it for the ends */
	double seek_seconds;	/* restoring and opening the reader, */
	double restore_seconds;	/* restoring the snapshot and, at the
				 * same time on another thread, */
	double open_seconds;	/* opening the reader at it, */
	unsigned open_parts;	/* on this many threads (0: no reader
				 * opened at a snapshot) */
	double replay_seconds;	/* reading and applying the events */
	double result_seconds;	/* reading on, and the result */
};

void tn_state_querier_get_stats(const struct tn_state_querier *querier,
		struct tn_state_query_stats *stats);

#endif
