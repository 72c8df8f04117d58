/* seq-pages.c - the index of the sequence diagram's pages, and the pass
 * that makes it (see seq-pages.h).
 *
 * The pass keeps the messages it read in a model, and at each page
 * boundary notes the oldest one still missing an end: reading the page
 * from there pairs its receives with their sends.  It forgets them once
 * it holds FORGET_MESSAGES of them: a message that misses an end for
 * longer (a send never received) is not waited for then. */
#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "seq-pages-pass.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-pages.h"

/* How often the pass says how far it got (events). */
#define REACHED_EVERY 1024
/* The pass forgets the messages it read once it holds this many. */
#define FORGET_MESSAGES 1024

struct tn_seq_pages {
	/* Readers of a const one take it.  A pthread mutex: ThreadSanitizer
	 * sees it, not GLib's futex-based GMutex. */
	pthread_mutex_t *lock;
	GArray *entries;		/* struct tn_seq_page_entry */
	bool has_reached;		/* the pass read up to reached */
	struct tn_position reached;
	bool complete;
	uint64_t messages;
};

struct tn_seq_pages *tn_seq_pages_create(void)
{
	struct tn_seq_pages *pages = g_new0(struct tn_seq_pages, 1);

	pages->lock = g_new(pthread_mutex_t, 1);
	pthread_mutex_init(pages->lock, NULL);
	pages->entries = g_array_new(FALSE, FALSE,
		sizeof(struct tn_seq_page_entry));
	return pages;
}

void tn_seq_pages_destroy(struct tn_seq_pages *pages)
{
	if (!pages)
		return;
	g_array_free(pages->entries, TRUE);
	pthread_mutex_destroy(pages->lock);
	g_free(pages->lock);
	g_free(pages);
}

static pthread_mutex_t *lock_of(const struct tn_seq_pages *pages)
{
	return pages->lock;
}

size_t tn_seq_pages_get_count(const struct tn_seq_pages *pages)
{
	size_t count;

	pthread_mutex_lock(lock_of(pages));
	count = pages->entries->len;
	pthread_mutex_unlock(lock_of(pages));
	return count;
}

bool tn_seq_pages_is_complete(const struct tn_seq_pages *pages,
		uint64_t *messages)
{
	bool complete;

	pthread_mutex_lock(lock_of(pages));
	complete = pages->complete;
	if (complete && messages)
		*messages = pages->messages;
	pthread_mutex_unlock(lock_of(pages));
	return complete;
}

void tn_seq_pages_get(const struct tn_seq_pages *pages, size_t i,
		struct tn_seq_page_entry *entry)
{
	pthread_mutex_lock(lock_of(pages));
	g_assert(i < pages->entries->len);
	*entry = g_array_index(pages->entries, struct tn_seq_page_entry, i);
	pthread_mutex_unlock(lock_of(pages));
}

bool tn_seq_pages_find(const struct tn_seq_pages *pages,
		const struct tn_position *pos, struct tn_seq_page_entry *entry,
		bool *has_next, struct tn_position *next_start)
{
	const struct tn_seq_page_entry *e;
	size_t lo = 0, hi;
	bool found = false;

	pthread_mutex_lock(lock_of(pages));
	e = (const struct tn_seq_page_entry *) pages->entries->data;
	hi = pages->entries->len;
	if (hi == 0 || (!pages->complete && (!pages->has_reached ||
			tn_position_compare(pos, &pages->reached) > 0)))
		goto out;
	/* The first page that starts after pos. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tn_position_compare(&e[mid].start, pos) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Before the first page: the first one (its messages come next). */
	*entry = e[lo > 0 ? lo - 1 : 0];
	if (has_next) {
		size_t next = lo > 0 ? lo : 1;

		*has_next = next < pages->entries->len;
		if (*has_next && next_start)
			*next_start = e[next].start;
	}
	found = true;
out:
	pthread_mutex_unlock(lock_of(pages));
	return found;
}

/* ---- the pass ---- */

struct tn_seq_pages_pass {
	struct tn_seq_pages *pages;
	struct tn_seq_loaders *loaders;
	struct tn_seq_model *model;
	uint64_t base;		/* the number of model's first message */
	size_t oldest;		/* see begin_page() */
	uint64_t events;
};

static void add_entry(struct tn_seq_pages *pages,
		const struct tn_seq_page_entry *entry)
{
	pthread_mutex_lock(pages->lock);
	g_array_append_val(pages->entries, *entry);
	pthread_mutex_unlock(pages->lock);
}

static void set_reached(struct tn_seq_pages *pages,
		const struct tn_position *pos, bool complete, uint64_t messages)
{
	pthread_mutex_lock(pages->lock);
	pages->has_reached = true;
	pages->reached = *pos;
	pages->complete = complete;
	pages->messages = messages;
	pthread_mutex_unlock(pages->lock);
}

/* A page begins with message index i of model (number n): note it,
 * with the oldest message before it in model that misses an end.
 * *oldest: the messages of model before it have both ends (it moves
 * on). */
static void begin_page(struct tn_seq_pages *pages, struct tn_seq_model *model,
		size_t i, uint64_t n, size_t *oldest)
{
	struct tn_seq_page_entry entry = {
		.first = n,
		.start = tn_seq_message_first(tn_seq_model_borrow_message(
			model, i))->pos,
	};

	while (*oldest < i && !tn_seq_message_is_unpaired(
			tn_seq_model_borrow_message(model, *oldest)))
		++*oldest;
	entry.prime = entry.start;
	if (*oldest < i) {
		const struct tn_position *first = &tn_seq_message_first(
			tn_seq_model_borrow_message(model, *oldest))->pos;

		if (tn_position_compare(first, &entry.prime) < 0)
			entry.prime = *first;
	}
	add_entry(pages, &entry);
}

struct tn_seq_pages_pass *tn_seq_pages_pass_new(
		const struct tn_seq_source *source, struct tn_seq_pages *pages)
{
	struct tn_seq_pages_pass *pass = g_new0(struct tn_seq_pages_pass, 1);

	pass->pages = pages;
	pass->loaders = tn_seq_loaders_create_with_rules(source->trace,
		source->rules);
	pass->model = tn_seq_model_create();
	tn_seq_loaders_reset(pass->loaders);
	return pass;
}

void tn_seq_pages_pass_add_wants(const struct tn_seq_pages_pass *pass,
		GArray *wants)
{
	tn_seq_loaders_add_wants(pass->loaders, wants);
}

bool tn_seq_pages_pass_needs_state(const struct tn_seq_pages_pass *pass)
{
	return tn_seq_loaders_need_state(pass->loaders);
}

int tn_seq_pages_pass_event(struct tn_seq_pages_pass *pass,
		const struct tn_row *row, const struct tn_state *state,
		struct tn_error *err)
{
	struct tn_seq_model *model = pass->model;
	size_t before = tn_seq_model_get_message_count(model), after;

	if (tn_seq_loaders_handle(pass->loaders, model, &row->ev, &row->pos,
			state, err))
		return -1;
	after = tn_seq_model_get_message_count(model);
	for (size_t i = before; i < after; i++) {
		if ((pass->base + i) % TN_SEQ_PAGE_MESSAGES)
			continue;
		begin_page(pass->pages, model, i, pass->base + i,
			&pass->oldest);
		/* Forget the messages read so far now and then (the next
		 * pages' primes reach back to here at most), when the
		 * page's first one is the last one read. */
		if (after >= FORGET_MESSAGES && i + 1 == after) {
			pass->base += after;
			tn_seq_model_forget_messages(model);
			pass->oldest = 0;
			break;
		}
	}
	if ((++pass->events % REACHED_EVERY) == 0)
		set_reached(pass->pages, &row->pos, false, pass->base +
			tn_seq_model_get_message_count(model));
	return 0;
}

void tn_seq_pages_pass_end(struct tn_seq_pages_pass *pass)
{
	struct tn_position end = { INT64_MAX, UINT64_MAX };

	tn_seq_loaders_finish(pass->loaders, pass->model);
	set_reached(pass->pages, &end, true, pass->base +
		tn_seq_model_get_message_count(pass->model));
}

void tn_seq_pages_pass_free(struct tn_seq_pages_pass *pass)
{
	if (!pass)
		return;
	tn_seq_model_destroy(pass->model);
	tn_seq_loaders_destroy(pass->loaders);
	g_free(pass);
}
