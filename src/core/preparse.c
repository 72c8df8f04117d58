/* preparse.c - one read of the whole trace feeding every whole-trace
 * consumer (see preparse.h).
 *
 * The job's thread takes the items of a feed (feed.h: the decoding on
 * helper threads) and hands each to the consumers: the index worker
 * (index-worker.h: one worker covering the whole trace), the state pass
 * (state-pass.c), the diagram's page pass (seq-pages.c), and the state
 * providers that change the one state they share.
 */
#include <glib.h>
#include <stdatomic.h>
#include <string.h>

#include "tracenav/preparse.h"
#include "tracenav/state-provider.h"
#include "feed.h"
#include "free-later.h"
#include "index-stitch.h"
#include "index-worker.h"
#include "seq-pages-pass.h"
#include "tracenav/seq-pages.h"
#include "slice.h"
#include "state-history-private.h"

/* How often the job publishes its progress and looks for a cancel
 * (events). */
#define PROGRESS_EVERY 4096

struct preparse {
	const struct tn_trace *trace;
	struct tn_preparse_request request;
	char what[64];
	/* The index: one worker over the whole trace. */
	struct tn_index_plan plan;
	struct tn_index_worker *worker;
	struct tn_index *index;		/* the result, until taken */
	/* The state the providers change, when a consumer needs it. */
	struct tn_state_providers *providers;
	struct tn_state *state;
	struct tn_state_pass *state_pass;
	struct tn_seq_pages_pass *pages_pass;
	const struct tn_state *pages_state;	/* NULL: they need none */
	/* What the consumers read of the events (struct tn_field_want). */
	GArray *wants;
	/* Progress, for any thread. */
	_Atomic uint64_t events;
	_Atomic int64_t reached_ns;
	_Atomic unsigned parts;
	/* What the threads cost, once it ended. */
	double decoding_cpu, consuming_cpu;
};

/* ---- the read (the job's thread) ---- */

/* What a walk from the start would make of the events: positions,
 * the previous event's time, the events lost before each. */
struct rows {
	bool has_last;
	int64_t last_ns;
	uint64_t last_tie;
	uint64_t lost;
};

/* The row of event ev (borrowed: nobody releases it), or false for a
 * notice (its lost events go to the next row). */
static bool next_row(struct rows *rows, const struct tn_event *ev,
		struct tn_row *row)
{
	uint64_t count;

	if (ev->kind != TN_EVENT_KIND_EVENT) {
		/* Events, not packets: lost_before counts events. */
		if (ev->kind == TN_EVENT_KIND_DISCARDED_EVENTS &&
		    tn_event_get_discarded_count(ev, &count))
			rows->lost += count;
		return false;
	}
	row->ev = *ev;
	row->pos.ns = ev->ns;
	row->pos.tie = rows->has_last && rows->last_ns == ev->ns ?
		rows->last_tie + 1 : 0;
	row->has_prev = rows->has_last;
	row->prev_ns = rows->last_ns;
	row->lost_before = rows->lost;
	rows->lost = 0;
	rows->has_last = true;
	rows->last_ns = ev->ns;
	rows->last_tie = row->pos.tie;
	return true;
}

/* Hand one event to every consumer. */
static int consume(struct preparse *pp, const struct tn_row *row,
		uint64_t rank, struct tn_error *err)
{
	if (pp->state_pass)
		tn_state_pass_before(pp->state_pass, row, rank);
	if (pp->pages_pass && tn_seq_pages_pass_event(pp->pages_pass, row,
			pp->pages_state, err))
		return -1;
	if (pp->providers && tn_state_providers_handle(pp->providers,
			pp->state, &row->ev, &row->pos, err))
		return -1;
	if (pp->state_pass)
		tn_state_pass_after(pp->state_pass, row, rank);
	if (pp->request.matcher)
		tn_sync_matcher_event(pp->request.matcher, &row->ev);
	return 0;
}

/* Whether the trace's packets can be found from its packet index files
 * alone; otherwise the index gathers packet tables, which only a read
 * of one part can (feed.h). */
static bool needs_packet_tables(const struct tn_trace *trace,
		const struct tn_index_plan *plan)
{
	int64_t complete_after;
	struct tn_error err;

	if (!plan->has_range)
		return true;
	return tn_slice_plan(trace, plan->begin_ns +
		(plan->end_ns - plan->begin_ns) / 2,
		TN_SLICE_INDEX_FILES_ONLY, &complete_after, &err) != 0;
}

unsigned tn_preparse_plan_parts(const struct tn_trace *trace, bool index,
		unsigned parts)
{
	struct tn_index_plan plan;

	tn_index_plan_init(&plan, trace);
	if (index && needs_packet_tables(trace, &plan))
		return 1;
	return tn_feed_plan_part_count(trace, parts);
}

static int read_all(struct tn_job *job, struct preparse *pp,
		struct tn_error *err)
{
	unsigned flags = pp->worker && needs_packet_tables(pp->trace,
		&pp->plan) ? TN_FEED_COLLECT_PACKETS : 0;
	struct rows rows = { false, 0, 0, 0 };
	struct tn_feed *feed;
	struct tn_event ev;
	struct tn_row row;
	uint64_t rank = 0;
	int status;

	if (tn_feed_open(pp->trace, pp->request.parts, flags,
			(const struct tn_field_want *) (void *) pp->wants->data,
			pp->wants->len, &feed, err))
		return -1;
	atomic_store(&pp->parts, tn_feed_get_part_count(feed));
	while ((status = tn_feed_next(feed, &ev, err)) == 1) {
		if (pp->worker)
			tn_index_worker_take(pp->worker, &ev);
		if (!next_row(&rows, &ev, &row))
			continue;
		if (consume(pp, &row, rank, err)) {
			status = -1;
			break;
		}
		if (++rank % PROGRESS_EVERY == 0) {
			atomic_store(&pp->events, rank);
			atomic_store(&pp->reached_ns, row.pos.ns);
			if (tn_job_is_cancelled(job)) {
				tn_error_set(err, "cancelled");
				status = -1;
				break;
			}
		}
	}
	if (status == 0 && pp->worker)
		tn_index_worker_end(pp->worker, tn_feed_take_packets(feed));
	pp->decoding_cpu = tn_feed_get_cpu_seconds(feed);
	tn_feed_destroy(feed);
	if (status < 0)
		return -1;
	atomic_store(&pp->events, rank);
	if (pp->state_pass)
		tn_state_pass_end(pp->state_pass, rank);
	if (pp->pages_pass)
		tn_seq_pages_pass_end(pp->pages_pass);
	if (pp->worker)
		pp->index = tn_index_stitch(&pp->plan, pp->worker, 1);
	return 0;
}

/* What only the read needed (the state, the providers, the passes and
 * their accumulators), freed together. */
struct read_data {
	struct tn_state_pass *state_pass;
	struct tn_seq_pages_pass *pages_pass;
	struct tn_state_providers *providers;
	struct tn_state *state;
};

static void free_read_data(void *data)
{
	struct read_data *d = data;

	tn_state_pass_free(d->state_pass);
	tn_seq_pages_pass_free(d->pages_pass);
	tn_state_providers_destroy(d->providers);
	tn_state_destroy(d->state);
	g_free(d);
}

/* Once read: what the read made is freed off the job's thread, since
 * on a trace of many threads it takes a while (0.2 s for 10 M kernel
 * events) that the job's end would wait for (--batch, and the event
 * list's input loop, which destroys the job). */
static void drop_read_data(struct preparse *pp)
{
	struct read_data *d = g_new(struct read_data, 1);

	*d = (struct read_data) { pp->state_pass, pp->pages_pass,
		pp->providers, pp->state };
	pp->state_pass = NULL;
	pp->pages_pass = NULL;
	pp->providers = NULL;
	pp->state = NULL;
	pp->pages_state = NULL;
	tn_free_later(free_read_data, d);
}

static int run_preparse(struct tn_job *job, void *data, struct tn_error *err)
{
	struct preparse *pp = data;

	if (pp->state_pass)
		tn_state_pass_begin(pp->state_pass, pp->state);
	double start = tn_job_thread_cpu_seconds();
	int status;

	if (pp->worker)
		tn_index_worker_begin(pp->worker);
	status = read_all(job, pp, err);
	pp->consuming_cpu = tn_job_thread_cpu_seconds() - start;
	drop_read_data(pp);
	return status;
}

/* ---- the job ---- */

static void progress_of(void *data, struct tn_job_progress *progress)
{
	struct preparse *pp = data;
	const struct tn_index *known = pp->request.known_index;
	uint64_t events = atomic_load(&pp->events);
	int64_t ns = atomic_load(&pp->reached_ns);

	progress->items = events;
	if (known && known->event_count > 0)
		progress->fraction = MIN(1.0, (double) events /
			(double) known->event_count);
	else if (pp->plan.has_range && pp->plan.end_ns > pp->plan.begin_ns)
		progress->fraction = CLAMP(((double) ns -
			(double) pp->plan.begin_ns) / ((double) pp->plan.end_ns -
			(double) pp->plan.begin_ns), 0.0, 1.0);
	else
		progress->fraction = -1;
}

static void free_preparse(void *data)
{
	struct preparse *pp = data;

	tn_state_pass_free(pp->state_pass);
	tn_seq_pages_pass_free(pp->pages_pass);
	tn_state_providers_destroy(pp->providers);
	tn_state_destroy(pp->state);
	if (pp->worker) {
		tn_index_worker_fini(pp->worker);
		g_free(pp->worker);
	}
	tn_index_destroy(pp->index);
	g_array_free(pp->wants, TRUE);
	g_free(pp);
}

static const struct tn_job_class preparse_class = {
	.name = "preparsing",
	.run = run_preparse,
	.progress = progress_of,
	.free = free_preparse,
};

static void add_what(struct preparse *pp, const char *what)
{
	if (pp->what[0])
		g_strlcat(pp->what, ", ", sizeof(pp->what));
	g_strlcat(pp->what, what, sizeof(pp->what));
}

/* What the consumers read of the events, said to the feed so that the
 * decoding threads read it for them. */
static void add_wants(struct preparse *pp)
{
	pp->wants = g_array_new(FALSE, FALSE, sizeof(struct tn_field_want));
	if (pp->providers)
		tn_state_providers_add_wants(pp->providers, pp->wants);
	if (pp->state_pass)
		tn_state_pass_add_wants(pp->state_pass, pp->wants);
	if (pp->pages_pass)
		tn_seq_pages_pass_add_wants(pp->pages_pass, pp->wants);
	if (pp->request.matcher)
		tn_sync_matcher_add_wants(pp->request.matcher, pp->wants);
}

/* Set the consumers up (on the starter's thread). */
static struct preparse *preparse_new(const struct tn_trace *trace,
		const struct tn_preparse_request *request)
{
	struct preparse *pp = g_new0(struct preparse, 1);
	bool needs_state;

	pp->trace = trace;
	pp->request = *request;
	pp->request.observer = NULL;
	atomic_init(&pp->events, 0);
	atomic_init(&pp->parts, 0);
	tn_index_plan_init(&pp->plan, trace);
	atomic_init(&pp->reached_ns, pp->plan.begin_ns);
	if (request->index) {
		pp->worker = g_new0(struct tn_index_worker, 1);
		tn_index_worker_init(pp->worker, &pp->plan, 0, 1);
		add_what(pp, "index");
	}
	if (request->snapshots) {
		pp->state_pass = tn_state_pass_new(trace,
			request->known_index, request->budget,
			request->snapshots, request->observer);
		add_what(pp, "state");
	} else if (request->observer && request->observer->destroy) {
		request->observer->destroy(request->observer->data);
	}
	if (request->pages) {
		struct tn_seq_source source = { .trace = trace,
			.rules = request->seq_rules };

		pp->pages_pass = tn_seq_pages_pass_new(&source,
			request->pages);
		add_what(pp, "diagram");
	}
	if (request->matcher)
		add_what(pp, "sync");
	needs_state = pp->state_pass || (pp->pages_pass &&
		tn_seq_pages_pass_needs_state(pp->pages_pass));
	if (needs_state) {
		pp->providers = tn_state_providers_create(trace);
		pp->state = tn_state_create();
	}
	if (pp->pages_pass && tn_seq_pages_pass_needs_state(pp->pages_pass))
		pp->pages_state = pp->state;
	add_wants(pp);
	return pp;
}

int tn_preparse_start(const struct tn_trace *trace,
		const struct tn_preparse_request *request, struct tn_job **out,
		struct tn_error *err)
{
	struct preparse *pp = preparse_new(trace, request);

	if (tn_job_start(&preparse_class, pp, out, err)) {
		free_preparse(pp);
		return -1;
	}
	return 0;
}

static struct preparse *preparse_of(struct tn_job *job)
{
	return tn_job_borrow_class(job) == &preparse_class ?
		tn_job_borrow_data(job) : NULL;
}

const char *tn_preparse_get_what(struct tn_job *job)
{
	struct preparse *pp = preparse_of(job);

	/* Fixed before the job started. */
	return pp ? pp->what : NULL;
}

struct tn_index *tn_preparse_take_index(struct tn_job *job)
{
	struct preparse *pp = preparse_of(job);
	struct tn_job_progress progress;
	struct tn_index *index;

	if (!pp)
		return NULL;
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		return NULL;
	index = pp->index;
	pp->index = NULL;
	return index;
}

size_t tn_preparse_get_bins(struct tn_job *job, int64_t *begin_ns,
		int64_t *end_ns, uint64_t **bins)
{
	struct preparse *pp = preparse_of(job);
	uint64_t *sum;

	*bins = NULL;
	/* The plan and the worker are fixed before the job started. */
	if (!pp || !pp->worker || pp->plan.bin_count == 0)
		return 0;
	sum = g_new0(uint64_t, pp->plan.bin_count);
	tn_index_worker_add_shown_bins(pp->worker, sum);
	*begin_ns = pp->plan.begin_ns;
	*end_ns = pp->plan.end_ns;
	*bins = sum;
	return pp->plan.bin_count;
}

unsigned tn_preparse_get_part_count(struct tn_job *job)
{
	struct preparse *pp = preparse_of(job);

	return pp ? atomic_load(&pp->parts) : 0;
}

void tn_preparse_get_cpu(struct tn_job *job, double *decoding,
		double *consuming)
{
	struct preparse *pp = preparse_of(job);

	*decoding = *consuming = 0;
	if (!pp || !tn_job_has_ended(job))
		return;
	*decoding = pp->decoding_cpu;
	*consuming = pp->consuming_cpu;
}

/* ---- the passes started alone (state-history.h, seq-pages.h) ---- */

int tn_state_pass_start(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots, struct tn_job **out,
		struct tn_error *err)
{
	return tn_state_pass_start_observed(trace, index, budget, snapshots,
		NULL, out, err);
}

int tn_state_pass_start_observed(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots,
		struct tn_state_pass_observer *observer, struct tn_job **out,
		struct tn_error *err)
{
	struct tn_preparse_request request = {
		.known_index = index,
		.snapshots = snapshots,
		.budget = budget,
		.observer = observer,
	};

	return tn_preparse_start(trace, &request, out, err);
}

int tn_seq_pages_pass_start(const struct tn_seq_source *source,
		struct tn_seq_pages *pages, struct tn_job **out,
		struct tn_error *err)
{
	struct tn_preparse_request request = {
		.pages = pages,
		.seq_rules = source->rules,
	};

	return tn_preparse_start(source->trace, &request, out, err);
}
