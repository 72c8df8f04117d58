/* seq-window.c - the page of messages around a position, and the search
 * for a message (see seq-window.h). */
#include <glib.h>
#include <string.h>

#include "seq-feed.h"
#include "tracenav/seq-hide.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-pages.h"
#include "tracenav/seq-window.h"

/* The first window before the position, in ns, and how much it grows. */
#define FIRST_SPAN_NS 1000000
#define GROWTH 4

/* A scan drops the messages it looked at beyond this many. */
#define FIND_KEEP_MESSAGES 4096

const struct tn_seq_limits tn_seq_default_limits = {
	.events_before = 200000,
	.events_after = 200000,
	.messages_before = 8,
	.messages_after = 24,
};

/* A walk over the trace that feeds every event to the loaders (and to
 * the state providers, when a loader needs the state). */
struct window {
	const struct tn_trace *trace;
	struct tn_seq_feed feed;	/* the loaders, and the state */
	struct tn_seq_loaders *loaders;	/* feed's */
	struct tn_seq_model *model;
	struct tn_walk *walk;
	/* What is hidden, and the indexes in model of the messages that
	 * are not (a page's; NULL: not kept). */
	struct tn_seq_hide_matcher *hide;
	GArray *shown;		/* size_t */
	bool from_start;	/* it began at the trace's first event */
	/* Opened where the index of pages said: the messages whose first
	 * end is before keep_from were read to prime the pairing only (a
	 * receive there may lack a send read before). */
	bool has_keep_from;
	struct tn_position keep_from;
	uint64_t events_read;	/* over every window opened */
	/* The first row at or after the position, read but not fed yet. */
	bool has_next;
	struct tn_row next;
};

/* A window on source (which must outlive it), not open yet. */
static void window_init(struct window *w, const struct tn_seq_source *source)
{
	memset(w, 0, sizeof(*w));
	w->trace = source->trace;
	tn_seq_feed_init(&w->feed, source);
	w->loaders = w->feed.loaders;
}

static void window_close(struct window *w)
{
	tn_walk_destroy(w->walk);
	w->walk = NULL;
	tn_seq_model_destroy(w->model);
	w->model = NULL;
	if (w->shown)
		g_array_set_size(w->shown, 0);
	if (w->has_next)
		tn_row_release(&w->next);
	w->has_next = false;
}

static int feed(struct window *w, const struct tn_row *row,
		struct tn_error *err)
{
	size_t before = tn_seq_model_get_message_count(w->model);
	size_t after;

	w->events_read++;
	if (tn_seq_feed_event(&w->feed, w->model, row, err))
		return -1;
	after = tn_seq_model_get_message_count(w->model);
	for (size_t i = before; w->shown && i < after; i++)
		if (!tn_seq_hide_message(w->hide, w->model,
				tn_seq_model_borrow_message(w->model, i)))
			g_array_append_val(w->shown, i);
	return 0;
}

/* The messages of the window that are not hidden. */
static size_t shown_count(const struct window *w)
{
	return w->shown ? w->shown->len :
		tn_seq_model_get_message_count(w->model);
}

/* The next row of the window (the kept one first): 1, 0 at the end, or
 * -1. */
static int window_next(struct window *w, struct tn_row *row,
		struct tn_error *err)
{
	if (w->has_next) {
		*row = w->next;
		w->has_next = false;
		return 1;
	}
	return tn_walk_next(w->walk, NULL, row, err);
}

/* Open w->walk at the first event at or after t0 (INT64_MIN: the
 * trace's first), with the state before it when the loaders need one;
 * the event read to get there, if any, is the window's next. */
static int walk_open(struct window *w, int64_t t0, struct tn_error *err)
{
	struct tn_position at = { t0, 0 };

	return tn_seq_feed_open(&w->feed, t0 == INT64_MIN ? NULL : &at,
		&w->walk, &w->next, &w->has_next, err);
}

/* Where the index of pages says to start reading for want messages
 * before pos (SIZE_MAX: to pair the receives after pos): the prime of
 * the page that starts that many messages before the one that holds
 * pos, or of the page before (*at_start: the trace's start), and that
 * page's start in *keep.  false when the index does not reach pos
 * (yet). */
static bool page_start(const struct window *w, const struct tn_position *pos,
		size_t want, struct tn_position *start, struct tn_position *keep,
		bool *at_start)
{
	const struct tn_seq_pages *pages = w->feed.source->pages;
	struct tn_seq_page_entry entry;
	/* One page more than want needs: the page that holds pos may
	 * start after it (it holds the messages after pos), and the
	 * messages' order by first end is not quite the pass's order. */
	uint64_t page, back = want == SIZE_MAX ? 1 :
		(want + TN_SEQ_PAGE_MESSAGES - 1) / TN_SEQ_PAGE_MESSAGES + 1;

	if (!pages || !tn_seq_pages_find(pages, pos, &entry, NULL, NULL))
		return false;
	page = entry.first / TN_SEQ_PAGE_MESSAGES;
	*at_start = page < back;
	if (!*at_start) {
		tn_seq_pages_get(pages, (size_t) (page - back), &entry);
		*start = entry.prime;
		*keep = entry.start;
	}
	return true;
}

static int window_feed_before(struct window *w, const struct tn_position *pos,
		uint64_t *before, struct tn_error *err);

/* Open a walk at ns - span (at the trace's start when that is before
 * its first event), feed the events before pos, and keep the first one
 * at or after it in w->next.  *before gets how many were fed. */
static int window_open(struct window *w, const struct tn_position *pos,
		int64_t span, uint64_t *before, struct tn_error *err)
{
	int64_t first_ns;
	int64_t t0 = pos->ns > INT64_MIN + span ? pos->ns - span : INT64_MIN;

	if (!tn_trace_get_first_event_time(w->trace, &first_ns) ||
	    t0 <= first_ns)
		t0 = INT64_MIN;
	w->from_start = t0 == INT64_MIN;
	w->model = tn_seq_model_create();
	tn_seq_loaders_reset(w->loaders);
	if (walk_open(w, t0, err))
		return -1;
	return window_feed_before(w, pos, before, err);
}

/* Open the window at the event at start (at_start: the trace's first)
 * and feed the events before pos, as window_open() does. */
static int window_open_from(struct window *w, const struct tn_position *start,
		bool at_start, const struct tn_position *pos, uint64_t *before,
		struct tn_error *err)
{
	w->from_start = at_start;
	w->model = tn_seq_model_create();
	tn_seq_loaders_reset(w->loaders);
	if (tn_seq_feed_open(&w->feed, at_start ? NULL : start, &w->walk,
			&w->next, &w->has_next, err))
		return -1;
	return window_feed_before(w, pos, before, err);
}

/* Feed the events of the open window before pos, and keep the first
 * one at or after it in w->next.  *before gets how many were fed. */
static int window_feed_before(struct window *w, const struct tn_position *pos,
		uint64_t *before, struct tn_error *err)
{
	struct tn_row row;
	int status;

	*before = 0;
	while ((status = window_next(w, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, pos) >= 0) {
			w->next = row;
			w->has_next = true;
			return 0;
		}
		status = feed(w, &row, err);
		tn_row_release(&row);
		if (status)
			return -1;
		++*before;
	}
	return status;
}

/* Open the window before pos: it grows until it holds want_messages
 * messages, want_events events, or begins at the trace's start. */
static int window_open_grown(struct window *w, const struct tn_position *pos,
		size_t want_messages, uint64_t want_events,
		struct tn_error *err)
{
	int64_t span = FIRST_SPAN_NS;
	struct tn_position start, keep;
	bool at_start;

	for (;;) {
		uint64_t before;

		if (window_open(w, pos, span, &before, err)) {
			window_close(w);
			return -1;
		}
		if (w->from_start || before >= want_events ||
		    shown_count(w) >= want_messages)
			return 0;
		window_close(w);
		/* The first window was not enough: the index of pages,
		 * when it reaches pos, says where to read from (a few
		 * pages before it) rather than windows that grow.  (Not
		 * at once: where a page is read from orders its
		 * lifelines, and the first window is enough where
		 * messages are dense.) */
		if (span == FIRST_SPAN_NS && page_start(w, pos, want_messages,
				&start, &keep, &at_start)) {
			if (window_open_from(w, &start, at_start, pos, &before,
					err)) {
				window_close(w);
				return -1;
			}
			w->has_keep_from = !at_start;
			w->keep_from = keep;
			return 0;
		}
		/* Grow less when four times as many would pass the
		 * events allowed: at most twice as many are read then. */
		span = before * GROWTH > want_events ? span * 2 :
			span * GROWTH;
		if (span <= 0 || span > INT64_MAX / GROWTH)
			span = INT64_MAX / GROWTH;
	}
}

/* ---- pages ---- */

/* Whether a message among the shown ones [first, end) of the window
 * lacks its receive. */
static bool waits_for_receive(const struct window *w, size_t first,
		size_t end)
{
	for (size_t i = first; i < end && i < w->shown->len; i++) {
		const struct tn_seq_message *m = tn_seq_model_borrow_message(
			w->model, g_array_index(w->shown, size_t, i));

		if (m->send.present && !m->receive.present)
			return true;
	}
	return false;
}

int tn_seq_page_load_from(const struct tn_seq_source *source,
		const struct tn_position *pos, const struct tn_seq_limits *limits,
		struct tn_seq_hide *hide, struct tn_seq_page *page,
		struct tn_error *err)
{
	struct window w;
	struct tn_seq_model *shown;
	size_t before_messages, first, count;
	uint64_t after = 0;
	struct tn_row row;
	int status;

	memset(page, 0, sizeof(*page));
	window_init(&w, source);
	page->loaders = g_strdup(tn_seq_loaders_get_names(w.loaders));
	if (tn_seq_loaders_get_count(w.loaders) == 0) {
		/* Nothing would make a message: read nothing. */
		page->model = tn_seq_model_create();
		tn_seq_feed_fini(&w.feed);
		return 0;
	}
	w.hide = tn_seq_hide_matcher_create(hide);
	w.shown = g_array_new(FALSE, FALSE, sizeof(size_t));
	tn_job_current_set_progress("loading the diagram", -1, 0);
	/* A few more messages than kept, so that the first ones kept have
	 * their sends. */
	if (window_open_grown(&w, pos, limits->messages_before + 8,
			limits->events_before, err))
		goto fail;
	before_messages = shown_count(&w);
	/* Until enough messages are read after the position, and those
	 * kept have their receives (or the events allowed are read). */
	while ((status = window_next(&w, &row, err)) == 1) {
		int fed = feed(&w, &row, err);

		tn_row_release(&row);
		if (fed)
			goto fail;
		if ((w.events_read & 1023) == 0)
			tn_job_current_set_progress("loading the diagram", -1,
				w.events_read);
		if (++after >= limits->events_after)
			break;
		if (shown_count(&w) >= before_messages +
				limits->messages_after &&
		    !waits_for_receive(&w, before_messages >
				limits->messages_before ? before_messages -
				limits->messages_before : 0,
				before_messages + limits->messages_after))
			break;
	}
	if (status < 0)
		goto fail;
	page->to_end = status == 0;
	page->from_start = w.from_start;
	page->events_read = w.events_read;
	tn_seq_loaders_finish(w.loaders, w.model);
	tn_seq_model_sort(w.model);
	shown = tn_seq_hide_matcher_is_empty(w.hide) ? NULL :
		tn_seq_hide_filter(w.hide, w.model);
	if (shown) {
		tn_seq_model_destroy(w.model);
		w.model = shown;
	}
	page->has_selected = tn_seq_model_select(w.model, pos,
		&page->selected);
	first = 0;
	count = 0;
	if (page->has_selected) {
		size_t total = tn_seq_model_get_message_count(w.model);

		first = page->selected > limits->messages_before ?
			page->selected - limits->messages_before : 0;
		/* Not a receive read to prime the pairing only, whose send
		 * was further back. */
		while (w.has_keep_from && first < page->selected &&
		       !tn_seq_model_borrow_message(w.model,
				first)->send.present &&
		       tn_position_compare(&tn_seq_message_first(
				tn_seq_model_borrow_message(w.model,
				first))->pos, &w.keep_from) < 0)
			first++;
		count = MIN(total, page->selected + MAX(limits->messages_after,
			1)) - first;
		page->selected -= first;
	}
	page->model = tn_seq_model_copy_range(w.model, first, count);
	window_close(&w);
	tn_seq_feed_fini(&w.feed);
	tn_seq_hide_matcher_destroy(w.hide);
	g_array_free(w.shown, TRUE);
	return 0;

fail:
	window_close(&w);
	tn_seq_feed_fini(&w.feed);
	tn_seq_hide_matcher_destroy(w.hide);
	g_array_free(w.shown, TRUE);
	tn_seq_page_fini(page);
	return -1;
}

int tn_seq_page_load(const struct tn_trace *trace,
		const struct tn_position *pos, const struct tn_seq_limits *limits,
		struct tn_seq_hide *hide, struct tn_seq_page *page,
		struct tn_error *err)
{
	struct tn_seq_source source = { .trace = trace };

	return tn_seq_page_load_from(&source, pos, limits, hide, page, err);
}

void tn_seq_page_fini(struct tn_seq_page *page)
{
	tn_seq_model_destroy(page->model);
	g_free(page->loaders);
	memset(page, 0, sizeof(*page));
}

static int run_page(struct tn_job *job, void *data, struct tn_error *err)
{
	struct tn_seq_page_request *req = data;
	struct tn_seq_source plain = { .trace = req->trace };

	(void) job;
	return tn_seq_page_load_from(req->source.trace ? &req->source :
		&plain, &req->pos, &req->limits, req->hide, &req->page, err);
}

static void free_page(void *data)
{
	struct tn_seq_page_request *req = data;

	tn_seq_page_fini(&req->page);
	tn_seq_hide_unref(req->hide);
	g_free(req);
}

const struct tn_job_class tn_seq_page_job = {
	.name = "loading the diagram",
	.run = run_page,
	.free = free_page,
};

/* ---- find ---- */

/* Whether message m of model matches: its signal, or the name of its
 * sender or receiver; a hidden message never does. */
static bool message_matches(struct tn_regex_matcher *re,
		struct tn_seq_hide_matcher *hide,
		const struct tn_seq_model *model, const struct tn_seq_message *m)
{
	return (tn_regex_matches(re, m->signal) ||
		tn_regex_matches(re, tn_seq_model_borrow_lifeline(model,
			m->from)->name) ||
		tn_regex_matches(re, tn_seq_model_borrow_lifeline(model,
			m->to)->name)) &&
		!tn_seq_hide_message(hide, model, m);
}

/* Feed row to the window; true when a message whose first end it is
 * matches. */
static int feed_and_match(struct window *w, struct tn_regex_matcher *re,
		const struct tn_row *row, bool *matched, struct tn_error *err)
{
	size_t before = tn_seq_model_get_message_count(w->model);
	size_t after;

	*matched = false;
	if (feed(w, row, err))
		return -1;
	after = tn_seq_model_get_message_count(w->model);
	for (size_t i = before; i < after && !*matched; i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(w->model, i);

		*matched = tn_position_compare(&tn_seq_message_first(m)->pos,
			&row->pos) == 0 && message_matches(re, w->hide,
			w->model, m);
	}
	if (after > FIND_KEEP_MESSAGES)
		tn_seq_model_forget_messages(w->model);
	return 0;
}

/* Which rows of a window a scan feeds, which may match, and which match
 * it gives. */
struct scan_bounds {
	/* Rows may match after this one (NULL: every one)... */
	const struct tn_position *after;
	/* ... but not the first skip rows (they are fed for the receives
	 * after them to pair with their sends). */
	uint64_t skip;
	/* Rows are fed up to this one (NULL: to the end), or before it
	 * (until_excluded). */
	const struct tn_position *until;
	bool until_excluded;
	/* The last match, rather than the first. */
	bool last;
	int64_t end_ns;		/* the time the scan ends at, for progress */
};

/* Scan the window's rows within bounds.  1 with *pos when a message
 * matched, 0 when none did, -1 on error; *first (may be NULL) gets
 * whether a row could match, and the first that could. */
static int scan(struct window *w, struct tn_regex_matcher *re,
		const struct scan_bounds *b, struct tn_position *pos,
		bool *has_first, struct tn_position *first,
		struct tn_error *err)
{
	int64_t start_ns = INT64_MIN;
	uint64_t rows = 0;
	bool found = false;
	struct tn_row row;
	int status;

	if (has_first)
		*has_first = false;
	while ((status = window_next(w, &row, err)) == 1) {
		bool matched = false;
		int order = b->until ? tn_position_compare(&row.pos,
			b->until) : -1;

		if (order > 0 || (order == 0 && b->until_excluded)) {
			tn_row_release(&row);
			break;
		}
		if (start_ns == INT64_MIN)
			start_ns = row.pos.ns;
		status = feed_and_match(w, re, &row, &matched, err);
		if (++rows <= b->skip || (b->after &&
		    tn_position_compare(&row.pos, b->after) <= 0)) {
			matched = false;
		} else if (has_first && !*has_first) {
			*has_first = true;
			*first = row.pos;
		}
		if (matched) {
			*pos = row.pos;
			found = true;
		}
		if ((w->events_read & 1023) == 0)
			tn_job_current_set_progress("finding",
				b->end_ns > start_ns ? (double) (row.pos.ns -
				start_ns) / (double) (b->end_ns - start_ns) :
				-1, w->events_read);
		tn_row_release(&row);
		if (status)
			return -1;
		if (matched && !b->last)
			return 1;
	}
	return status < 0 ? -1 : found;
}

/* Open a walk at t0 (at the trace's start when that is before its
 * first event), with a new model. */
static int window_open_at(struct window *w, int64_t t0, struct tn_error *err)
{
	int64_t first_ns;

	if (!tn_trace_get_first_event_time(w->trace, &first_ns) ||
	    t0 <= first_ns)
		t0 = INT64_MIN;
	w->from_start = t0 == INT64_MIN;
	w->model = tn_seq_model_create();
	tn_seq_loaders_reset(w->loaders);
	return walk_open(w, t0, err);
}

/* Forward: from after req->from to the end, then from the start up to
 * req->from (included) when it wraps. */
static int find_forward(struct window *w, struct tn_regex_matcher *re,
		const struct tn_seq_find_request *req, uint64_t prime,
		int64_t end_ns, struct tn_seq_find_result *result,
		struct tn_error *err)
{
	struct scan_bounds b = { .after = &req->from, .end_ns = end_ns };
	int status;

	/* From the position to the end, the receives paired with the
	 * sends of the events before it. */
	status = window_open_grown(w, &req->from, SIZE_MAX, prime, err);
	if (status == 0)
		status = scan(w, re, &b, &result->pos, NULL, NULL, err);
	window_close(w);
	if (status != 0 || !req->wrap)
		return status;
	b = (struct scan_bounds) { .until = &req->from,
		.end_ns = req->from.ns };
	status = window_open_at(w, INT64_MIN, err);
	if (status == 0)
		status = scan(w, re, &b, &result->pos, NULL, NULL, err);
	result->wrapped = status == 1;
	window_close(w);
	return status;
}

/* Backward: windows before req->from, each one reaching further back
 * (four times as long) and scanning the events before the last one's,
 * until one holds a match or the trace's start; then, when it wraps,
 * the last match from req->from (included) to the end.  The first
 * prime events of a window (unless it starts the trace) are read only
 * for the receives after them to pair with their sends. */
static int find_backward(struct window *w, struct tn_regex_matcher *re,
		const struct tn_seq_find_request *req, uint64_t prime,
		int64_t end_ns, struct tn_seq_find_result *result,
		struct tn_error *err)
{
	struct tn_position limit = req->from;
	int64_t span = FIRST_SPAN_NS;
	struct scan_bounds b = { .until = &limit, .until_excluded = true,
		.last = true };
	int status;

	for (;;) {
		struct tn_position first;
		bool has_first;
		int64_t t0 = limit.ns > INT64_MIN + span ? limit.ns - span :
			INT64_MIN;

		status = window_open_at(w, t0, err);
		b.skip = w->from_start ? 0 : prime;
		b.end_ns = limit.ns;
		if (status == 0)
			status = scan(w, re, &b, &result->pos, &has_first,
				&first, err);
		window_close(w);
		if (status != 0 || w->from_start)
			break;
		if (has_first)
			limit = first;
		span = span > INT64_MAX / GROWTH ? INT64_MAX : span * GROWTH;
	}
	if (status != 0 || !req->wrap)
		return status;
	b = (struct scan_bounds) { .last = true, .end_ns = end_ns };
	status = window_open_grown(w, &req->from, SIZE_MAX, prime, err);
	if (status == 0)
		status = scan(w, re, &b, &result->pos, NULL, NULL, err);
	result->wrapped = status == 1;
	window_close(w);
	return status;
}

int tn_seq_find(const struct tn_seq_find_request *req,
		struct tn_seq_find_result *result, struct tn_error *err)
{
	struct tn_seq_source plain = { .trace = req->trace };
	const struct tn_seq_source *source = req->source.trace ?
		&req->source : &plain;
	struct window w;
	struct tn_regex_matcher *re = tn_regex_matcher_new(req->regex);
	uint64_t prime = req->prime_events ? req->prime_events :
		TN_SEQ_FIND_PRIME_EVENTS;
	int64_t begin_ns, end_ns = INT64_MAX;
	int status = 0;

	memset(result, 0, sizeof(*result));
	if (!tn_trace_get_time_range(source->trace, &begin_ns, &end_ns))
		end_ns = INT64_MAX;
	window_init(&w, source);
	w.hide = tn_seq_hide_matcher_create(req->hide);
	if (tn_seq_loaders_get_count(w.loaders) > 0) {
		tn_job_current_set_progress("finding", 0, 0);
		status = req->backward ?
			find_backward(&w, re, req, prime, end_ns, result, err) :
			find_forward(&w, re, req, prime, end_ns, result, err);
	}
	tn_seq_feed_fini(&w.feed);
	tn_seq_hide_matcher_destroy(w.hide);
	tn_regex_matcher_free(re);
	result->found = status == 1;
	return status < 0 ? -1 : 0;
}

static int run_find(struct tn_job *job, void *data, struct tn_error *err)
{
	struct tn_seq_find_job_request *req = data;

	(void) job;
	req->find.regex = req->regex;
	req->find.hide = req->hide;
	return tn_seq_find(&req->find, &req->result, err);
}

static void free_find(void *data)
{
	struct tn_seq_find_job_request *req = data;

	tn_regex_destroy(req->regex);
	tn_seq_hide_unref(req->hide);
	g_free(req);
}

const struct tn_job_class tn_seq_find_job = {
	.name = "finding",
	.run = run_find,
	.free = free_find,
};
