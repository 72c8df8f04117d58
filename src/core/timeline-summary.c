/* timeline-summary.c - the timelines of the whole trace on a fine grid:
 * built as the state pass reads, saved with the snapshots, and turned
 * into a grid of any span wide enough (timeline-summary.h). */
#include <inttypes.h>
#include <string.h>

#include "src/core/bytes.h"
#include "src/core/timeline-summary.h"

#define MAGIC "TNTL"
#define VERSION 4
#define FIRST_SHIFT 14		/* 16 us buckets to begin with */
#define LAST_SHIFT 31		/* ns of a bucket fit in 32 bits */
/* Cells: one per this many bytes of the trace's stream files (about
 * 5% of them, at the 6 or 7 bytes a cell takes saved), at least
 * MIN_CELLS (a short trace's spans are replayed, not drawn from it). */
#define TRACE_BYTES_A_CELL 128
#define MIN_CELLS 16384
#define Q_FULL 255		/* a state's time in a bucket: the whole */

/* Buckets [bucket, bucket + run), each with the times q: in 255ths of
 * a bucket (Q_FULL the whole), rounded, 1 at least for a time that is
 * not 0 (an irq of a microsecond still shows).  Fine buckets in few
 * bytes: the letters of a column of two buckets or more do not need
 * the nanosecond (the `ns` form replays, exact). */
struct cell {
	uint32_t bucket;
	uint32_t run;
	uint8_t q[TN_THREAD_STATE_COUNT];
};

/* A row's cells, by bucket, apart (an array of its own: a long trace
 * has a hundred thousand rows, most of a cell or two). */
struct cells {
	struct cell *v;
	uint32_t len, cap;
};

struct tn_timeline_summary_row {
	int64_t id;
	struct cells cells;
	char *name;
	int64_t parent;		/* a thread's PPID, 0: not known */
	/* The times of one bucket not added to its cell yet: most pieces
	 * are short, and many come in a row for the same bucket. */
	bool pending;
	uint32_t pending_bucket;
	uint64_t pending_ns[TN_THREAD_STATE_COUNT];	/* exact */
};

struct tn_timeline_summary_builder {
	int64_t origin;
	unsigned shift;		/* a bucket is 2^shift ns */
	/* by kind: int64 id -> its row */
	GHashTable *rows[TN_TIMELINE_KIND_COUNT];
	size_t cells, max_cells;
};

static void row_free(gpointer data)
{
	struct tn_timeline_summary_row *row = data;

	g_free(row->cells.v);
	g_free(row->name);
	g_free(row);
}

struct tn_timeline_summary_builder *tn_timeline_summary_builder_new(
		int64_t origin_ns, uint64_t trace_bytes)
{
	struct tn_timeline_summary_builder *b = g_new0(
		struct tn_timeline_summary_builder, 1);

	b->origin = origin_ns;
	b->max_cells = (size_t) CLAMP(trace_bytes / TRACE_BYTES_A_CELL,
		MIN_CELLS, TN_TIMELINE_SUMMARY_MAX_CELLS);
	b->shift = FIRST_SHIFT;
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++)
		b->rows[k] = g_hash_table_new_full(g_int64_hash,
			g_int64_equal, NULL, row_free);
	return b;
}

void tn_timeline_summary_builder_free(struct tn_timeline_summary_builder *b)
{
	if (!b)
		return;
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++)
		g_hash_table_destroy(b->rows[k]);
	g_free(b);
}

struct tn_timeline_summary_row *tn_timeline_summary_get_row(
		struct tn_timeline_summary_builder *b,
		enum tn_timeline_kind kind, int64_t id)
{
	GHashTable *rows = b->rows[kind];
	struct tn_timeline_summary_row *row = g_hash_table_lookup(rows, &id);

	if (!row) {
		row = g_new0(struct tn_timeline_summary_row, 1);
		row->id = id;
		g_hash_table_insert(rows, &row->id, row);
	}
	return row;
}

/* ---- the cells of a row ---- */

static struct cell *cells_last(struct cells *cells)
{
	return cells->len ? &cells->v[cells->len - 1] : NULL;
}

/* Room for a cell at i, the ones from i moved up; returns it. */
static struct cell *cells_open(struct cells *cells, uint32_t i)
{
	if (cells->len == cells->cap) {
		cells->cap = cells->cap ? cells->cap * 2 : 2;
		cells->v = g_renew(struct cell, cells->v, cells->cap);
	}
	if (i < cells->len)
		memmove(&cells->v[i + 1], &cells->v[i],
			(cells->len - i) * sizeof(struct cell));
	cells->len++;
	return &cells->v[i];
}

/* a + b, at most Q_FULL: a row's states overlap only in a damaged
 * trace (a thread current on two CPUs after lost events). */
static uint8_t add_q(unsigned a, unsigned b)
{
	return (uint8_t) MIN(a + b, Q_FULL);
}

/* ns of a bucket of 2^shift ns in 255ths (the whole bucket or more:
 * Q_FULL). */
static uint8_t q_of(uint64_t ns, unsigned shift)
{
	uint64_t q;

	if (ns == 0)
		return 0;
	if (ns >> shift)
		return Q_FULL;	/* overlapping times (a damaged trace) */
	q = (ns * Q_FULL + ((uint64_t) 1 << shift >> 1)) >> shift;
	return (uint8_t) MIN(MAX(q, 1), Q_FULL);
}

/* ---- merging two buckets into one ---- */

static bool same_q(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, TN_THREAD_STATE_COUNT) == 0;
}

/* Append buckets [bucket, bucket + run), each with the times q, to cells
 * (sorted; the first may be the last one of cells' last cell: summed). */
static void emit(struct cells *cells, uint32_t bucket, uint32_t run,
		const uint8_t *q)
{
	struct cell *last = cells_last(cells);
	struct cell fresh = { bucket, run, { 0 } };

	if (last && last->bucket + last->run - 1 == bucket) {
		if (last->run > 1) {
			struct cell split = *last;

			last->run--;
			split.bucket = bucket;
			split.run = 1;
			last = cells_open(cells, cells->len);
			*last = split;
		}
		for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
			last->q[s] = add_q(last->q[s], q[s]);
		if (--run == 0)
			return;
		bucket++;
		fresh.bucket = bucket;
		fresh.run = run;
	}
	if (last && last->bucket + last->run == bucket &&
	    same_q(last->q, q)) {
		last->run += run;
		return;
	}
	memcpy(fresh.q, q, sizeof(fresh.q));
	*cells_open(cells, cells->len) = fresh;
}

/* The row's cells with buckets twice as wide, made in out (emptied
 * first): two equal buckets make one of the same 255ths; a bucket
 * alone in its new one gives it half its 255ths (rounded up: a time
 * stays seen), summed with its neighbour's half. */
static void halve(const struct cells *cells, struct cells *out)
{
	out->len = 0;
	for (uint32_t i = 0; i < cells->len; i++) {
		const struct cell *c = &cells->v[i];
		uint32_t a = c->bucket, r = c->run;
		uint8_t half[TN_THREAD_STATE_COUNT];

		for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
			half[s] = (uint8_t) ((c->q[s] + 1) >> 1);
		if (a & 1) {
			emit(out, a >> 1, 1, half);
			a++;
			r--;
		}
		if (r >= 2) {
			emit(out, a >> 1, r / 2, c->q);
			a += r / 2 * 2;
			r -= r / 2 * 2;
		}
		if (r)
			emit(out, a >> 1, 1, half);
	}
}

static void widen(struct tn_timeline_summary_builder *b)
{
	GHashTableIter iter;
	gpointer value;
	struct cells scratch = { NULL, 0, 0 };

	b->shift++;
	b->cells = 0;
	/* Made in one scratch array, copied back (a run of odd bounds
	 * becomes up to three cells: the row's array may grow). */
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++) {
		g_hash_table_iter_init(&iter, b->rows[k]);
		while (g_hash_table_iter_next(&iter, NULL, &value)) {
			struct tn_timeline_summary_row *row = value;

			row->pending_bucket >>= 1;
			halve(&row->cells, &scratch);
			/* The array fits its cells again (a row that grew
			 * at the finer grid would keep twice its room at
			 * each widening). */
			if (scratch.len > row->cells.cap ||
			    scratch.len < row->cells.cap / 2) {
				row->cells.cap = MAX(scratch.len, 2);
				row->cells.v = g_renew(struct cell,
					row->cells.v, row->cells.cap);
			}
			if (scratch.len)
				memcpy(row->cells.v, scratch.v, scratch.len *
					sizeof(struct cell));
			row->cells.len = scratch.len;
			b->cells += scratch.len;
		}
	}
	g_free(scratch.v);
}

/* ---- adding time ---- */

/* The cell of bucket k alone (a run that holds it is split). */
static struct cell *cell_at(struct tn_timeline_summary_builder *b,
		struct cells *cells, uint32_t k)
{
	uint32_t i = cells->len;
	struct cell *c;

	/* Time mostly comes in order: from the end. */
	while (i > 0 && cells->v[i - 1].bucket > k)
		i--;
	c = i > 0 ? &cells->v[i - 1] : NULL;
	if (c && k < c->bucket + c->run) {
		struct cell before = *c, after = *c;

		if (c->run == 1)
			return c;
		before.run = k - c->bucket;
		after.bucket = k + 1;
		after.run = c->bucket + c->run - k - 1;
		c->bucket = k;
		c->run = 1;
		if (after.run) {
			*cells_open(cells, i) = after;
			b->cells++;
		}
		if (before.run) {
			*cells_open(cells, i - 1) = before;
			b->cells++;
			i++;
		}
		return &cells->v[i - 1];
	}
	c = cells_open(cells, i);
	*c = (struct cell) { k, 1, { 0 } };
	b->cells++;
	return c;
}

/* run whole buckets from first, all in state. */
static void add_run(struct tn_timeline_summary_builder *b,
		struct cells *cells, uint32_t first, uint32_t run,
		unsigned state)
{
	uint8_t full[TN_THREAD_STATE_COUNT] = { 0 }, sum[TN_THREAD_STATE_COUNT];
	uint32_t end = first + run, at = first;
	uint32_t i = cells->len, before = cells->len;
	struct cells tail = { NULL, 0, 0 };

	full[state] = Q_FULL;
	/* The cells that end after first: mostly none (time comes in
	 * order), and the run is appended. */
	while (i > 0 && cells->v[i - 1].bucket + cells->v[i - 1].run > first)
		i--;
	if (i == cells->len) {
		emit(cells, first, run, full);
		b->cells += cells->len - before;
		return;
	}
	/* Else the run goes through them: the tail is made again. */
	for (uint32_t j = i; j < cells->len; j++) {
		const struct cell c = cells->v[j];
		uint32_t c_end = c.bucket + c.run;
		uint32_t from = MAX(c.bucket, at), to = MIN(c_end, end);

		if (c.bucket < at)
			emit(&tail, c.bucket, MIN(at, c_end) - c.bucket, c.q);
		if (at < end && at < c.bucket)
			emit(&tail, at, MIN(c.bucket, end) - at, full);
		if (from < to) {
			for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
				sum[s] = add_q(c.q[s], full[s]);
			emit(&tail, from, to - from, sum);
		}
		if (c_end > MAX(end, c.bucket))
			emit(&tail, MAX(end, c.bucket), c_end - MAX(end,
				c.bucket), c.q);
		at = MAX(at, c_end);
	}
	if (at < end)
		emit(&tail, at, end - at, full);
	cells->len = i;
	for (uint32_t j = 0; j < tail.len; j++)
		*cells_open(cells, cells->len) = tail.v[j];
	b->cells = b->cells - before + cells->len;
	g_free(tail.v);
}

static void add_piece(struct tn_timeline_summary_builder *b,
		struct cells *cells, uint32_t k, unsigned state, uint64_t ns)
{
	uint8_t *at = &cell_at(b, cells, k)->q[state];

	*at = add_q(*at, q_of(ns, b->shift));
}

void tn_timeline_summary_add(struct tn_timeline_summary_builder *b,
		enum tn_timeline_kind kind, int64_t id, unsigned state,
		int64_t from_ns, int64_t to_ns)
{
	tn_timeline_summary_add_to(b, tn_timeline_summary_get_row(b, kind, id),
		state, from_ns, to_ns);
}

/* The pending times into their cell. */
static void flush(struct tn_timeline_summary_builder *b,
		struct tn_timeline_summary_row *row)
{
	struct cell *c;

	if (!row->pending)
		return;
	c = cell_at(b, &row->cells, row->pending_bucket);
	for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
		c->q[s] = add_q(c->q[s], q_of(row->pending_ns[s], b->shift));
	memset(row->pending_ns, 0, sizeof(row->pending_ns));
	row->pending = false;
}

void tn_timeline_summary_add_to(struct tn_timeline_summary_builder *b,
		struct tn_timeline_summary_row *row, unsigned state,
		int64_t from_ns, int64_t to_ns)
{
	struct cells *cells = &row->cells;
	uint64_t from, to, j0, j1;

	if (from_ns < b->origin)
		from_ns = b->origin;
	if (to_ns <= from_ns || state >= TN_THREAD_STATE_COUNT)
		return;
	from = (uint64_t) from_ns - (uint64_t) b->origin;
	to = (uint64_t) to_ns - (uint64_t) b->origin;
	while (b->shift < LAST_SHIFT &&
	       ((to - 1) >> b->shift) >= TN_TIMELINE_SUMMARY_MAX_BUCKETS)
		widen(b);
	if (((to - 1) >> b->shift) > UINT32_MAX - 1)
		return;		/* centuries of trace: left out */
	j0 = from >> b->shift;
	j1 = (to - 1) >> b->shift;
	/* The piece's time in its first bucket: gathered exact while the
	 * row's pieces stay in one bucket, into a cell when they leave. */
	if (row->pending && row->pending_bucket == j0) {
		row->pending_ns[state] += (j0 == j1 ? to :
			(j0 + 1) << b->shift) - from;
	} else {
		flush(b, row);
		if (j0 == j1) {
			row->pending = true;
			row->pending_bucket = (uint32_t) j0;
			row->pending_ns[state] = to - from;
		} else {
			add_piece(b, cells, (uint32_t) j0, state,
				((j0 + 1) << b->shift) - from);
		}
	}
	/* The whole buckets after it, then its last one's time gathered
	 * (the row's next piece mostly begins there). */
	if (j1 > j0) {
		flush(b, row);
		if (j1 > j0 + 1)
			add_run(b, cells, (uint32_t) j0 + 1,
				(uint32_t) (j1 - j0 - 1), state);
		row->pending = true;
		row->pending_bucket = (uint32_t) j1;
		row->pending_ns[state] = to - (j1 << b->shift);
	}
	/* The cells within the trace's share. */
	if (b->cells > b->max_cells && b->shift < LAST_SHIFT)
		widen(b);
}

void tn_timeline_summary_set_name(struct tn_timeline_summary_builder *b,
		int64_t tid, const char *name)
{
	struct tn_timeline_summary_row *row;

	if (!name)
		return;
	row = tn_timeline_summary_get_row(b, TN_TIMELINE_THREADS, tid);
	if (!row->name || strcmp(row->name, name) != 0) {
		g_free(row->name);
		row->name = g_strdup(name);
	}
}

void tn_timeline_summary_set_irq_name(struct tn_timeline_summary_builder *b,
		int64_t irq, const char *name)
{
	struct tn_timeline_summary_row *row;

	row = tn_timeline_summary_get_row(b, TN_TIMELINE_IRQS, irq);
	if (name && !row->name)
		row->name = g_strdup(name);
}

void tn_timeline_summary_set_parent(struct tn_timeline_summary_builder *b,
		int64_t tid, int64_t ppid)
{
	tn_timeline_summary_get_row(b, TN_TIMELINE_THREADS, tid)->parent =
		ppid;
}

/* ---- the blob ---- */

static gint compare_ids(gconstpointer a, gconstpointer b)
{
	const struct tn_timeline_summary_row *ra =
		*(struct tn_timeline_summary_row *const *) a;
	const struct tn_timeline_summary_row *rb =
		*(struct tn_timeline_summary_row *const *) b;

	return (ra->id > rb->id) - (ra->id < rb->id);
}

/* kind's rows into buf (a thread's with its name and parent, an irq's
 * with its name). */
static void save_rows(GHashTable *table, enum tn_timeline_kind kind,
		GByteArray *buf)
{
	GPtrArray *rows = g_ptr_array_new();
	GHashTableIter iter;
	gpointer value;
	guint start;

	g_hash_table_iter_init(&iter, table);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_ptr_array_add(rows, value);
	g_ptr_array_sort(rows, compare_ids);
	start = buf->len;
	tn_bytes_put_u64(buf, 0);	/* its length, once written */
	tn_bytes_put_varint(buf, rows->len);
	for (guint i = 0; i < rows->len; i++) {
		const struct tn_timeline_summary_row *row = rows->pdata[i];
		uint32_t end = 0;

		tn_bytes_put_zigzag(buf, row->id);
		if (kind == TN_TIMELINE_THREADS || kind == TN_TIMELINE_IRQS)
			tn_bytes_put_string(buf, row->name ? row->name : "",
				row->name ? strlen(row->name) : 0);
		if (kind == TN_TIMELINE_THREADS)
			tn_bytes_put_zigzag(buf, row->parent);
		tn_bytes_put_varint(buf, row->cells.len);
		for (uint32_t j = 0; j < row->cells.len; j++) {
			const struct cell *c = &row->cells.v[j];
			/* A cell written whole, then appended at once. */
			uint8_t cell[2 * TN_BYTES_VARINT_MAX + 1 +
				TN_THREAD_STATE_COUNT], *mask;
			size_t n;

			n = tn_bytes_encode_varint(cell, c->bucket - end);
			n += tn_bytes_encode_varint(cell + n, c->run);
			mask = &cell[n++];
			*mask = 0;
			for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++) {
				if (c->q[s]) {
					*mask |= (uint8_t) (1u << s);
					cell[n++] = c->q[s];
				}
			}
			g_byte_array_append(buf, cell, (guint) n);
			end = c->bucket + c->run;
		}
	}
	tn_bytes_set_le(buf->data + start, buf->len - start - 8, 8);
	g_ptr_array_free(rows, TRUE);
}

GBytes *tn_timeline_summary_save(struct tn_timeline_summary_builder *b)
{
	GByteArray *buf = g_byte_array_new();
	GHashTableIter iter;
	gpointer value;

	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++) {
		g_hash_table_iter_init(&iter, b->rows[k]);
		while (g_hash_table_iter_next(&iter, NULL, &value))
			flush(b, value);
	}

	tn_bytes_put_raw(buf, MAGIC, 4);
	tn_bytes_put_u32(buf, VERSION);
	tn_bytes_put_u64(buf, (uint64_t) b->origin);
	tn_bytes_put_u64(buf, (uint64_t) 1 << b->shift);
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++)
		save_rows(b->rows[k], (enum tn_timeline_kind) k, buf);
	return g_byte_array_free_to_bytes(buf);
}

/* ---- a grid from the blob ---- */

/* What a grid's row gathers, column by column. */
struct gather {
	enum tn_timeline_kind kind;
	int64_t begin, end, width, origin;
	unsigned buckets;
	struct tn_timeline_row *row;	/* NULL until it has time */
	unsigned column;		/* the column being summed */
	int64_t column_end;		/* where the next one begins */
	uint64_t q[TN_THREAD_STATE_COUNT];	/* 255ths of a bucket */
	bool any;
};

static void flush_column(struct gather *g)
{
	int64_t ns[TN_THREAD_STATE_COUNT];
	uint64_t full = Q_FULL;

	if (!g->any)
		return;
	for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
		ns[s] = (int64_t) (g->q[s] / full * (uint64_t) g->width +
			g->q[s] % full * (uint64_t) g->width / full);
	g->row->letters[g->column] = tn_timeline_letter(g->kind, ns);
	g->row->on_cpu_ns += tn_timeline_on_cpu(g->kind, ns);
	memset(g->q, 0, sizeof(g->q));
	g->any = false;
}

/* The row's grid row, made when it first has time in the span, from
 * the column of middle on. */
static void open_row(struct gather *g, GArray *rows, int64_t id,
		int64_t parent, const char *name, size_t name_len,
		int64_t middle)
{
	struct tn_timeline_row fresh = { .kind = g->kind, .id = id,
		.ppid = parent };

	fresh.letters = g_malloc(g->buckets + 1);
	memset(fresh.letters, TN_TIMELINE_NO_TIME, g->buckets);
	fresh.letters[g->buckets] = '\0';
	if (name && name_len)
		fresh.name = g_strndup(name, name_len);
	g_array_append_val(rows, fresh);
	g->row = &g_array_index(rows, struct tn_timeline_row, rows->len - 1);
	g->column = tn_timeline_bucket_of(g->begin, g->end, g->buckets,
		middle);
	g->column_end = tn_timeline_bucket_begin(g->begin, g->end,
		g->buckets, g->column + 1);
}

/* Add buckets [j, j_end), each with the times q, to the columns their
 * middles fall in (the first and the last column also take the bucket
 * that holds the span's begin and end): a column at a time, however
 * long the run. */
static void gather_run(struct gather *g, GArray *rows, int64_t id,
		int64_t parent, const char *name, size_t name_len,
		uint64_t j, uint64_t j_end, const uint8_t *q, size_t states)
{
	while (j < j_end) {
		int64_t start = g->origin + (int64_t) j * g->width;
		int64_t middle = start + g->width / 2;
		uint64_t limit;

		if (start > g->end)
			return;
		if (!g->row)
			open_row(g, rows, id, parent, name, name_len, middle);
		while (middle >= g->column_end && g->column + 1 < g->buckets) {
			flush_column(g);
			g->column++;
			g->column_end = tn_timeline_bucket_begin(g->begin,
				g->end, g->buckets, g->column + 1);
		}
		/* The buckets from j whose middles are in this column: up
		 * to its end, or for the last one to the bucket that holds
		 * the span's. */
		if (g->column + 1 < g->buckets)
			limit = (uint64_t) (g->column_end - g->origin -
				g->width / 2 + g->width - 1) / (uint64_t) g->width;
		else
			limit = (uint64_t) (g->end - g->origin) /
				(uint64_t) g->width + 1;
		limit = MAX(MIN(limit, j_end), j + 1);
		for (size_t s = 0; s < states; s++) {
			g->q[s] += (uint64_t) q[s] * (limit - j);
			g->any = g->any || q[s];
		}
		j = limit;
	}
}

/* Read one row's cells, gathering those in the span when `keep`. */
static int read_row(struct tn_bytes_reader *r, struct gather *g,
		GArray *rows, bool keep)
{
	/* A thread's row and an irq's have a name. */
	bool named = g->kind == TN_TIMELINE_THREADS ||
		g->kind == TN_TIMELINE_IRQS;
	size_t states = tn_timeline_state_count(g->kind);
	const char *name = NULL;
	size_t name_len = 0;
	uint64_t count, end = 0, first = 0;
	int64_t id, parent = 0;

	if (tn_bytes_take_zigzag(r, &id, "a row's id") ||
	    (named && tn_bytes_take_string(r, &name, &name_len,
			"a row's name")) ||
	    (g->kind == TN_TIMELINE_THREADS && tn_bytes_take_zigzag(r,
			&parent, "a thread's parent")) ||
	    tn_bytes_take_varint(r, &count, "a row's cells"))
		return -1;
	if (count > r->left)
		return tn_bytes_fail(r, "row %" PRId64 ": %" PRIu64 " cells",
			id, count);
	/* The bucket that holds the span's begin. */
	if (g->begin > g->origin)
		first = (uint64_t) (g->begin - g->origin) / (uint64_t) g->width;
	g->row = NULL;
	g->any = false;
	memset(g->q, 0, sizeof(g->q));
	for (uint64_t i = 0; i < count; i++) {
		uint64_t gap, run;
		uint8_t q[TN_THREAD_STATE_COUNT] = { 0 };
		const uint8_t *times;
		uint8_t mask;

		if (tn_bytes_take_varint(r, &gap, "a cell's gap") ||
		    tn_bytes_take_varint(r, &run, "a cell's run") ||
		    tn_bytes_take_u8(r, &mask, "a cell's states") ||
		    tn_bytes_take_raw(r, (size_t) __builtin_popcount(mask &
			((1u << TN_THREAD_STATE_COUNT) - 1)), &times,
			"a cell's times"))
			return -1;
		if (run == 0 || gap > UINT32_MAX || run > UINT32_MAX ||
		    end + gap + run > UINT32_MAX)
			return tn_bytes_fail(r, "row %" PRId64 ": a cell out "
				"of the grid", id);
		for (size_t s = 0; s < TN_THREAD_STATE_COUNT; s++)
			if (mask & (1u << s))
				q[s] = *times++;
		end += gap;
		if (keep && end + run > first)
			gather_run(g, rows, id, parent, name, name_len,
				MAX(end, first), end + run, q, states);
		end += run;
	}
	if (g->row)
		flush_column(g);
	return 0;
}

int tn_timeline_summary_grid(GBytes *blob, enum tn_timeline_kind kind,
		int64_t begin_ns, int64_t end_ns, unsigned buckets,
		struct tn_timeline_grid **out, struct tn_error *err)
{
	gsize size;
	const uint8_t *data = g_bytes_get_data(blob, &size);
	struct tn_bytes_reader r;
	struct gather g = { .kind = kind, .begin = begin_ns, .end = end_ns,
		.buckets = buckets };
	const uint8_t *magic;
	uint64_t width;
	uint32_t version;
	GArray *rows;
	int status = 0;

	*out = NULL;
	tn_bytes_reader_init(&r, data, size);
	if (tn_bytes_take_raw(&r, 4, &magic, "the magic") ||
	    memcmp(magic, MAGIC, 4) != 0) {
		tn_error_set(err, "timeline summary damaged: it is not one");
		return -1;
	}
	if (tn_bytes_take_u32(&r, &version, "the version") ||
	    tn_bytes_take_i64(&r, &g.origin, "the origin") ||
	    tn_bytes_take_u64(&r, &width, "the width")) {
		tn_error_set(err, "timeline summary damaged: %s", r.why);
		return -1;
	}
	if (version != VERSION || width == 0 || width > ((uint64_t) 1 <<
			LAST_SHIFT)) {
		tn_error_set(err, "timeline summary damaged: version %" PRIu32
			", buckets of %" PRIu64 " ns", version, width);
		return -1;
	}
	g.width = (int64_t) width;
	/* Each column two of the summary's buckets at least. */
	if (buckets == 0 || end_ns <= begin_ns ||
	    (uint64_t) (end_ns - begin_ns) / buckets < 2 * width)
		return 0;
	rows = NULL;
	/* A threads grid has the threads' rows; a CPUs grid those of the
	 * CPUs, the irqs and the softirqs. */
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT && status == 0; k++) {
		bool threads = k == TN_TIMELINE_THREADS;
		bool mine = threads == (kind == TN_TIMELINE_THREADS);
		uint64_t count, length;
		const uint8_t *section;

		/* Another kind's rows are skipped whole. */
		if (tn_bytes_take_u64(&r, &length, "a kind's length") ||
		    (!mine && tn_bytes_take_raw(&r, (size_t) MIN(length,
			SIZE_MAX), &section, "a kind's rows"))) {
			status = -1;
			break;
		}
		if (!mine)
			continue;
		if (tn_bytes_take_varint(&r, &count, "the rows")) {
			status = -1;
			break;
		}
		/* Room for the threads' rows at once (100,000 on a long
		 * trace; a row takes two bytes at least). */
		if (!rows)
			rows = g_array_sized_new(FALSE, TRUE,
				sizeof(struct tn_timeline_row), threads &&
				mine ? (guint) MIN(count, r.left / 2) : 64);
		g.kind = (enum tn_timeline_kind) k;
		for (uint64_t i = 0; i < count && status == 0; i++)
			status = read_row(&r, &g, rows, mine);
		if (mine && threads)
			break;	/* the other kinds are not read */
	}
	if (status) {
		tn_error_set(err, "timeline summary damaged: %s", r.why);
		for (guint i = 0; rows && i < rows->len; i++) {
			g_free(g_array_index(rows, struct tn_timeline_row,
				i).name);
			g_free(g_array_index(rows, struct tn_timeline_row,
				i).letters);
		}
		if (rows)
			g_array_free(rows, TRUE);
		return -1;
	}
	*out = g_new0(struct tn_timeline_grid, 1);
	(*out)->kind = kind;
	(*out)->buckets = buckets;
	(*out)->summary_ns = g.width;
	(*out)->row_count = rows->len;
	(*out)->rows = (struct tn_timeline_row *) g_array_free(rows, FALSE);
	return 0;
}
