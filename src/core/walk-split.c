/* walk-split.c - split walks: their parts opened on threads of their
 * own, and their merge (see walk-split.h); and the walks that may be
 * split, tn_walk_open_at_known_split() and tn_walk_open_near() (seek.h),
 * which open the usual walk (seek.c) when they are not. */
#include <glib.h>
#include <stdbool.h>

#include "merge-compare.h"
#include "slice.h"
#include "trace-private.h"
#include "tracenav/job.h"
#include "walk-private.h"
#include "walk-split.h"

/* See tn_walk_near_parts(). */
#define NEAR_SPLIT_MIN_BYTES (1024.0 * 1024)
#define NEAR_SPLIT_METADATA_RATIO 32.0
/* See tn_walk_open_near_split() and tn_walk_open_near(). */
#define NEAR_SPLIT_KEEP_MARGIN 64
#define NEAR_SPLIT_MAX_KEEP 4096

struct tn_walk_split {
	size_t count;
	struct tn_walk *parts[TN_WALK_SPLIT_MAX];
	/* Each part's next row, read and not given out yet. */
	struct tn_row heads[TN_WALK_SPLIT_MAX];
	bool has_head[TN_WALK_SPLIT_MAX];
	bool ended[TN_WALK_SPLIT_MAX];
};

struct tn_walk_split *tn_walk_split_create(struct tn_walk *const *parts,
		size_t count)
{
	struct tn_walk_split *split = g_new0(struct tn_walk_split, 1);

	g_assert(count <= TN_WALK_SPLIT_MAX);
	split->count = count;
	for (size_t i = 0; i < count; i++)
		split->parts[i] = parts[i];
	return split;
}

size_t tn_walk_split_get_count(const struct tn_walk_split *split)
{
	return split->count;
}

void tn_walk_split_destroy(struct tn_walk_split *split)
{
	if (!split)
		return;
	for (size_t i = 0; i < split->count; i++) {
		if (split->has_head[i])
			tn_row_release(&split->heads[i]);
		tn_walk_destroy(split->parts[i]);
	}
	g_free(split);
}

/* Whether a goes out before b (both events, from different parts). */
static bool goes_before(const struct tn_row *a, const struct tn_row *b)
{
	if (a->ev.ns != b->ev.ns)
		return a->ev.ns < b->ev.ns;
	return tn_merge_compare_messages(a->ev.msg, b->ev.msg) < 0;
}

enum tn_reader_status tn_walk_split_next(struct tn_walk_split *split,
		struct tn_event *ev, uint64_t *lost, struct tn_error *err)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < split->count; i++) {
		if (!split->has_head[i] && !split->ended[i]) {
			int status = tn_walk_next(split->parts[i], NULL,
				&split->heads[i], err);

			if (status < 0)
				return TN_READER_ERROR;
			split->ended[i] = status == 0;
			split->has_head[i] = status == 1;
		}
		if (split->has_head[i] && (best == SIZE_MAX ||
				goes_before(&split->heads[i],
					&split->heads[best])))
			best = i;
	}
	if (best == SIZE_MAX)
		return TN_READER_END;
	*ev = split->heads[best].ev;
	*lost += split->heads[best].lost_before;
	split->has_head[best] = false;
	return TN_READER_OK;
}

/* The merge as a walk's source (walk-private.h). */
static enum tn_reader_status split_next(void *source, struct tn_event *ev,
		uint64_t *lost, struct tn_error *err)
{
	return tn_walk_split_next(source, ev, lost, err);
}

static void split_destroy(void *source)
{
	tn_walk_split_destroy(source);
}

static unsigned split_part_count(const void *source)
{
	return (unsigned) tn_walk_split_get_count(source);
}

static const struct tn_walk_source_class split_class = {
	split_next, split_destroy, split_part_count,
};

/* ---- the open: the parts on threads of their own ---- */

/* What the parts' fan-out opens: part i of `parts` at `at`, each into
 * walks[i] (left NULL when it fails). */
struct parts_open {
	const struct tn_trace *trace;
	struct tn_position at;		/* the target's time, tie 0 */
	uint64_t keep;			/* rows each part keeps before */
	unsigned parts;
	struct tn_walk *walks[TN_WALK_SPLIT_MAX];
};

/* Part i, on the caller's thread (0) or a helper that adopted its job
 * (a cancel stops the open). */
static int open_part(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct parts_open *open = data;
	struct tn_walk_part part = { i, open->parts };
	struct tn_walk *walk;
	bool landed;

	(void) fanout;
	if (tn_walk_open_at_part(open->trace, &open->at, false, true, &part,
			open->keep, &walk, &landed, err))
		return -1;
	open->walks[i] = walk;
	return 0;
}

/* The time of the last event before a part's position, when its view
 * holds every event from there on (it is then after the bound of the
 * view: the latest of the parts' is the whole walk's previous event). */
static bool last_before(const struct tn_walk *part, int64_t *ns)
{
	if (part->has_pending) {
		*ns = part->pending.prev_ns;
		return part->pending.has_prev;
	}
	*ns = part->last_ns;
	return part->has_last && (part->complete_after == INT64_MIN ||
		part->last_ns > part->complete_after);
}

/* ---- the rows kept before the target ---- */

/* Part p's kept rows before its position, oldest first (as
 * tn_walk_take_before() finds them in its ring). */
static struct tn_row *part_before_row(const struct tn_walk *part,
		uint64_t i)
{
	uint64_t kept = MIN(part->before_seen, part->keep_before);
	uint64_t first = kept < part->before_seen ?
		part->before_seen % part->keep_before : 0;

	return &part->before[(first + i) % part->keep_before];
}

static uint64_t part_before_count(const struct tn_walk *part)
{
	return MIN(part->before_seen, part->keep_before);
}

/* The parts' kept rows in the whole trace's order (each part's in its
 * own order: two rows of one part never compare equal to a row of
 * another, which holds other streams). */
static GArray *merge_before_rows(struct tn_walk **parts, unsigned count)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	uint64_t next[TN_WALK_SPLIT_MAX] = { 0 };

	for (;;) {
		unsigned best = count;

		for (unsigned i = 0; i < count; i++) {
			if (next[i] == part_before_count(parts[i]))
				continue;
			if (best == count || goes_before(
					part_before_row(parts[i], next[i]),
					part_before_row(parts[best],
						next[best])))
				best = i;
		}
		if (best == count)
			return rows;
		g_array_append_val(rows, *part_before_row(parts[best],
			next[best]));
		next[best]++;
	}
}

/* Give the merged walk the last keep rows before the target that a
 * whole walk keeps, with their positions in the whole trace; the parts'
 * rings are handed over (emptied).  A part whose ring overflowed read
 * rows it no longer has, back to the time of its oldest kept row: only
 * the rows after the latest such time have every row of their time at
 * hand, and so their ties.  Their lost counts are their parts'. */
static void merge_before(struct tn_walk *walk, struct tn_walk **parts,
		unsigned count, uint64_t keep)
{
	GArray *rows = merge_before_rows(parts, count);
	bool has_bound = false;
	int64_t bound = 0;
	guint from = 0, first;
	uint64_t seen = 0, kept;

	for (unsigned i = 0; i < count; i++) {
		seen += parts[i]->before_seen;
		if (parts[i]->keep_before > 0 &&
		    parts[i]->before_seen > parts[i]->keep_before &&
		    (!has_bound || part_before_row(parts[i], 0)->pos.ns >
				bound)) {
			bound = part_before_row(parts[i], 0)->pos.ns;
			has_bound = true;
		}
		/* Handed over: the part keeps no row of its own. */
		parts[i]->before_seen = 0;
	}
	while (has_bound && from < rows->len &&
	       g_array_index(rows, struct tn_row, from).pos.ns <= bound)
		from++;
	for (guint i = from; i < rows->len; i++) {
		struct tn_row *row = &g_array_index(rows, struct tn_row, i);
		const struct tn_row *prev = i > from ? row - 1 : NULL;

		row->pos.tie = prev && prev->pos.ns == row->pos.ns ?
			prev->pos.tie + 1 : 0;
	}
	first = rows->len - from > keep ? rows->len - (guint) keep : from;
	kept = rows->len - first;
	/* As tn_walk_skip_to()'s ring: kept of seen rows, the oldest at
	 * seen % kept once more were seen. */
	walk->keep_before = kept;
	walk->before_seen = seen;
	walk->before = kept ? g_new(struct tn_row, kept) : NULL;
	for (guint i = 0; i < rows->len; i++) {
		struct tn_row *row = &g_array_index(rows, struct tn_row, i);

		if (i < first) {
			tn_row_release(row);
			continue;
		}
		/* The row before it in the whole trace is the one before it
		 * here: every row after the bound is at hand, and the last
		 * row of the bound's time too. */
		row->has_prev = i > 0;
		row->prev_ns = i > 0 ? (row - 1)->pos.ns : 0;
		walk->before[(seen - kept + (i - first)) % kept] = *row;
	}
	g_array_free(rows, TRUE);
}

/* The walk that merges the parts, at the first event at pos (*landed)
 * or after it; with keep_rows, also with the last keep rows before pos
 * (and the count of those read, for tn_walk_take_before()). */
static int merge_parts(struct tn_walk **parts, unsigned count,
		const struct tn_position *pos, bool keep_rows, uint64_t keep,
		struct tn_walk **out, bool *landed, struct tn_error *err)
{
	struct tn_walk *walk = g_new0(struct tn_walk, 1);

	/* The parts' slices share the whole view's bound. */
	walk->complete_after = parts[0]->complete_after;
	for (unsigned i = 0; i < count; i++) {
		int64_t ns;

		if (last_before(parts[i], &ns) &&
		    (!walk->has_last || ns > walk->last_ns)) {
			walk->has_last = walk->seen_complete = true;
			walk->last_ns = ns;
		}
	}
	walk->source_class = &split_class;
	walk->source = tn_walk_split_create(parts, count);
	if (tn_walk_skip_to(walk, pos, false, 0, landed, err))
		return -1;
	/* After the skip, which sets the walk's ring up empty (nothing
	 * comes before a position of tie 0 in the merge). */
	if (keep_rows)
		merge_before(walk, parts, count, keep);
	*out = walk;
	return 0;
}

int tn_walk_open_at_known_split(const struct tn_trace *trace,
		const struct tn_position *pos, unsigned parts,
		struct tn_walk **out, bool *fell_back, struct tn_error *err)
{
	struct parts_open open = { .trace = trace, .at = { pos->ns, 0 } };
	struct tn_error cause;
	bool landed;

	parts = MIN(parts, TN_WALK_SPLIT_MAX);
	if (parts < 2 || pos->ns == INT64_MIN || !tn_trace_has_clock(trace))
		return tn_walk_open_at_known(trace, pos, 0, out, fell_back,
			err);
	open.parts = parts;
	/* Part 0 on this thread, each other one on a helper. */
	if (tn_fanout_run(parts, open_part, &open, &cause)) {
		for (unsigned i = 0; i < parts; i++)
			tn_walk_destroy(open.walks[i]);
		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
		/* A trace that cannot be split (slice.h says which), or a
		 * part that could not be read: the usual walk says why. */
		return tn_walk_open_at_known(trace, pos, 0, out, fell_back,
			err);
	}
	if (merge_parts(open.walks, parts, pos, false, 0, out, &landed, err))
		return -1;
	if (landed) {
		*fell_back = false;
		return 0;
	}
	tn_walk_destroy(*out);
	return tn_walk_open_at_known(trace, pos, 0, out, fell_back, err);
}

unsigned tn_walk_near_parts(const struct tn_trace *trace,
		const struct tn_position *pos, unsigned processors)
{
	struct tn_slice_split_plan plan;
	struct tn_error err;
	double least;

	processors = MIN(processors, TN_WALK_SPLIT_MAX);
	if (processors < 2 || pos->tie != 0 || pos->ns == INT64_MIN ||
	    !tn_trace_has_clock(trace) ||
	    tn_slice_plan_split(trace, pos->ns, &plan, &err) ||
	    plan.has_discarded || plan.kept_files < 2)
		return 1;
	least = MAX(NEAR_SPLIT_MIN_BYTES, NEAR_SPLIT_METADATA_RATIO *
		(double) plan.metadata_bytes);
	return plan.bytes_before >= least ?
		(unsigned) MIN(processors, plan.kept_files) : 1;
}

int tn_walk_open_near_split(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		unsigned parts, struct tn_walk **out, struct tn_error *err)
{
	/* A few more rows in each part: the merge keeps only those after
	 * the oldest time an overflowing part kept (merge_before()), so
	 * that it has keep_before rows unless more than the margin share
	 * that time. */
	struct parts_open open = { .trace = trace, .at = { pos->ns, 0 },
		.keep = keep_before + MIN(keep_before, NEAR_SPLIT_KEEP_MARGIN),
		.parts = MIN(parts, TN_WALK_SPLIT_MAX) };
	struct tn_error cause;
	bool landed;

	g_assert(pos->tie == 0 && open.parts >= 2);
	if (tn_fanout_run(open.parts, open_part, &open, &cause)) {
		for (unsigned i = 0; i < open.parts; i++)
			tn_walk_destroy(open.walks[i]);
		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
		/* The usual walk says why, if it fails too. */
		return tn_walk_open_at_part(trace, pos, false, true, NULL,
			keep_before, out, &landed, err);
	}
	return merge_parts(open.walks, open.parts, pos, true, keep_before,
		out, &landed, err);
}

int tn_walk_open_near(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		struct tn_walk **out, struct tn_error *err)
{
	unsigned parts = tn_walk_near_parts(trace, pos,
		(unsigned) g_get_num_processors());
	bool landed;

	/* A read of many rows back is long anyway, and each part would
	 * keep as many. */
	if (parts > 1 && keep_before <= NEAR_SPLIT_MAX_KEEP)
		return tn_walk_open_near_split(trace, pos, keep_before, parts,
			out, err);
	return tn_walk_open_at_part(trace, pos, false, true, NULL,
		keep_before, out, &landed, err);
}

unsigned tn_walk_get_part_count(const struct tn_walk *walk)
{
	return walk->source_class ? walk->source_class->part_count(
		walk->source) : 1;
}
