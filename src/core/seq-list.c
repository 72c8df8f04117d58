/* seq-list.c - the messages from an event on, as a list (see
 * seq-list.h). */
#include <glib.h>
#include <string.h>

#include "seq-feed.h"
#include "tracenav/job.h"
#include "tracenav/seq-list.h"

/* The first window read before the position, in ns, and its growth. */
#define FIRST_SPAN_NS 1000000
#define GROWTH 4
/* Events read after the last message listed, for its missing ends. */
#define SETTLE_EVENTS 200000

struct list {
	struct tn_seq_feed feed;
	struct tn_seq_model *model;
	struct tn_walk *walk;
	bool has_next;		/* the first row at or after from, */
	struct tn_row next;	/* read, not fed yet */
	uint64_t events;
};

static void list_close(struct list *l)
{
	tn_walk_destroy(l->walk);
	l->walk = NULL;
	tn_seq_model_destroy(l->model);
	l->model = NULL;
	if (l->has_next)
		tn_row_release(&l->next);
	l->has_next = false;
}

static int list_next(struct list *l, struct tn_row *row, struct tn_error *err)
{
	if (l->has_next) {
		*row = l->next;
		l->has_next = false;
		return 1;
	}
	return tn_walk_next(l->walk, NULL, row, err);
}

static int feed(struct list *l, const struct tn_row *row, struct tn_error *err)
{
	if ((++l->events & 1023) == 0) {
		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
		tn_job_current_set_progress("listing messages", -1,
			l->events);
	}
	return tn_seq_feed_event(&l->feed, l->model, row, err);
}

/* Open the list at ns - span (the trace's start when that is before its
 * first event) and feed the events before from; *before gets how many,
 * *at_start whether it began at the trace's start. */
static int open_before(struct list *l, const struct tn_position *from,
		int64_t span, uint64_t *before, bool *at_start,
		struct tn_error *err)
{
	int64_t first_ns;
	struct tn_position at = {
		from->ns > INT64_MIN + span ? from->ns - span : INT64_MIN, 0
	};
	struct tn_row row;
	int status;

	*at_start = !tn_trace_get_first_event_time(l->feed.source->trace,
		&first_ns) || at.ns <= first_ns;
	l->model = tn_seq_model_create();
	tn_seq_loaders_reset(l->feed.loaders);
	if (tn_seq_feed_open(&l->feed, *at_start ? NULL : &at, &l->walk,
			&l->next, &l->has_next, err))
		return -1;
	*before = 0;
	while ((status = list_next(l, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, from) >= 0) {
			l->next = row;
			l->has_next = true;
			return 0;
		}
		status = feed(l, &row, err);
		tn_row_release(&row);
		if (status)
			return -1;
		++*before;
	}
	return status;
}

/* Whether one of the messages [first, end) of model lacks an end. */
static bool unsettled(const struct tn_seq_model *model, size_t first,
		size_t end)
{
	for (size_t i = first; i < end; i++)
		if (tn_seq_message_is_unpaired(tn_seq_model_borrow_message(
				model, i)))
			return true;
	return false;
}

/* Read from from on until count messages are there and settled.  The
 * messages of model from *first on are the list's (those before were
 * read before from). */
static int read_list(struct list *l, const struct tn_position *from,
		uint64_t count, size_t *first, struct tn_error *err)
{
	uint64_t prime = TN_SEQ_FIND_PRIME_EVENTS, after_last = 0;
	int64_t span = FIRST_SPAN_NS;
	struct tn_row row;
	int status;

	for (;;) {
		uint64_t before;
		bool at_start;

		if (open_before(l, from, span, &before, &at_start, err))
			return -1;
		if (at_start || before >= prime)
			break;
		list_close(l);
		span = span > INT64_MAX / GROWTH ? INT64_MAX : span * GROWTH;
	}
	*first = tn_seq_model_get_message_count(l->model);
	while ((status = list_next(l, &row, err)) == 1) {
		size_t have;

		status = feed(l, &row, err);
		tn_row_release(&row);
		if (status)
			return -1;
		have = tn_seq_model_get_message_count(l->model) - *first;
		if (have < count)
			continue;
		/* Every one in: look for missing ends now and then. */
		if (++after_last >= SETTLE_EVENTS)
			break;
		if ((after_last & 255) == 1 && !unsettled(l->model, *first,
				*first + (size_t) count))
			break;
	}
	return status < 0 ? -1 : 0;
}

int tn_seq_list(const struct tn_seq_source *source,
		const struct tn_position *from, uint64_t count,
		struct tn_seq_hide *hide, tn_seq_list_func fn, void *data,
		uint64_t *listed, struct tn_error *err)
{
	struct list l = { .has_next = false };
	struct tn_seq_hide_matcher *matcher = NULL;
	uint64_t done = 0;
	size_t first, total;
	int status = -1;

	if (listed)
		*listed = 0;
	count = MIN(count, TN_SEQ_LIST_MAX);
	tn_seq_feed_init(&l.feed, source);
	if (count == 0 || tn_seq_loaders_get_count(l.feed.loaders) == 0) {
		tn_seq_feed_fini(&l.feed);
		return 0;
	}
	tn_job_current_set_progress("listing messages", -1, 0);
	if (read_list(&l, from, count, &first, err))
		goto out;
	tn_seq_loaders_finish(l.feed.loaders, l.model);
	tn_seq_model_sort(l.model);
	matcher = tn_seq_hide_matcher_create(hide);
	total = tn_seq_model_get_message_count(l.model);
	/* The messages read before from come first: the sort keeps them
	 * there (a send seen after its receive may move one before). */
	for (size_t i = 0; i < total && done < count; i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(l.model, i);

		if (tn_position_compare(&tn_seq_message_first(m)->pos,
				from) < 0 ||
		    tn_seq_hide_message(matcher, l.model, m))
			continue;
		if (fn(l.model, i, data, err))
			goto out;
		done++;
	}
	status = 0;
out:
	if (listed)
		*listed = done;
	tn_seq_hide_matcher_destroy(matcher);
	list_close(&l);
	tn_seq_feed_fini(&l.feed);
	return status;
}
