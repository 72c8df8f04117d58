/* seq-model.c - the sequence diagram's model (see seq.h). */
#include <glib.h>
#include <string.h>

#include "tracenav/seq.h"

/* Slots of the memo of the lifelines last asked for by name. */
#define LIFELINE_MEMO 16

struct tn_seq_model {
	GArray *lifelines;		/* struct tn_seq_lifeline */
	/* index + 1 of a lifeline asked for by name (0: none), in the
	 * slot of its name's length and last byte: the same few are asked
	 * for at every message's end, and a look here is a fifth of a
	 * lookup in by_name.  Lifelines are never removed. */
	size_t memo[LIFELINE_MEMO];
	GHashTable *by_name;		/* name (in names) -> index + 1 */
	GStringChunk *names;		/* the lifelines' names */
	GArray *messages;		/* struct tn_seq_message */
	GStringChunk *strings;		/* the messages' signals and ids */
	uint64_t base;			/* the serial of messages[0] */
	bool unsorted;			/* a message came out of order */
	GArray *activations;		/* struct tn_seq_activation */
};

const char *tn_seq_category_name(enum tn_seq_category category)
{
	switch (category) {
	case TN_SEQ_PROCESS: return "process";
	case TN_SEQ_THREAD: return "thread";
	case TN_SEQ_NODE: return "node";
	case TN_SEQ_HOST: return "host";
	}
	return "?";
}

const char *tn_seq_message_kind_name(enum tn_seq_message_kind kind)
{
	switch (kind) {
	case TN_SEQ_SYNC: return "sync";
	case TN_SEQ_ASYNC: return "async";
	case TN_SEQ_RETURN: return "return";
	}
	return "?";
}

const struct tn_seq_point *tn_seq_message_first(
		const struct tn_seq_message *message)
{
	return message->send.present ? &message->send.at :
		&message->receive.at;
}

bool tn_seq_message_is_unpaired(const struct tn_seq_message *message)
{
	return !message->send.present || !message->receive.present;
}

struct tn_seq_model *tn_seq_model_create(void)
{
	struct tn_seq_model *model = g_new0(struct tn_seq_model, 1);

	model->lifelines = g_array_new(FALSE, FALSE,
		sizeof(struct tn_seq_lifeline));
	model->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	model->names = g_string_chunk_new(1024);
	model->messages = g_array_new(FALSE, FALSE,
		sizeof(struct tn_seq_message));
	model->strings = g_string_chunk_new(4096);
	model->activations = g_array_new(FALSE, FALSE,
		sizeof(struct tn_seq_activation));
	return model;
}

void tn_seq_model_destroy(struct tn_seq_model *model)
{
	if (!model)
		return;
	g_array_free(model->lifelines, TRUE);
	g_hash_table_destroy(model->by_name);
	g_string_chunk_free(model->names);
	g_array_free(model->messages, TRUE);
	g_string_chunk_free(model->strings);
	g_array_free(model->activations, TRUE);
	g_free(model);
}

/* ---- lifelines ---- */

static struct tn_seq_lifeline *lifeline_at(const struct tn_seq_model *model,
		size_t index)
{
	g_assert(index < model->lifelines->len);
	return &g_array_index(model->lifelines, struct tn_seq_lifeline,
		index);
}

bool tn_seq_model_find_lifeline(const struct tn_seq_model *model,
		const char *name, size_t *index)
{
	gpointer value = g_hash_table_lookup(model->by_name, name);

	if (!value)
		return false;
	*index = GPOINTER_TO_SIZE(value) - 1;
	return true;
}

static size_t *memo_slot(struct tn_seq_model *model, const char *name)
{
	size_t len = strlen(name);
	unsigned char last = len ? (unsigned char) name[len - 1] : 0;

	return &model->memo[(len * 7 + last) % LIFELINE_MEMO];
}

/* The lifeline named name: found through the memo, then by_name. */
static bool find_memoized(struct tn_seq_model *model, const char *name,
		size_t *memo, size_t *index)
{
	if (*memo && strcmp(lifeline_at(model, *memo - 1)->name, name) == 0)
		*index = *memo - 1;
	else if (!tn_seq_model_find_lifeline(model, name, index))
		return false;
	*memo = *index + 1;
	return true;
}

size_t tn_seq_model_lifeline(struct tn_seq_model *model, const char *name,
		enum tn_seq_category category, const struct tn_seq_point *at)
{
	struct tn_seq_lifeline lifeline = { 0 };
	size_t *memo = memo_slot(model, name);
	char *copy;
	size_t index;

	if (find_memoized(model, name, memo, &index)) {
		struct tn_seq_lifeline *known = lifeline_at(model, index);

		if (at && tn_position_compare(&at->pos, &known->first.pos) < 0)
			known->first = *at;
		return index;
	}
	copy = g_string_chunk_insert(model->names, name);
	lifeline.name = copy;
	lifeline.category = category;
	if (at)
		lifeline.first = *at;
	else
		lifeline.first.ns = lifeline.first.pos.ns = INT64_MAX;
	g_array_append_val(model->lifelines, lifeline);
	index = model->lifelines->len - 1;
	g_hash_table_insert(model->by_name, copy, GSIZE_TO_POINTER(index + 1));
	*memo = index + 1;
	return index;
}

void tn_seq_model_set_created(struct tn_seq_model *model, size_t lifeline,
		const struct tn_seq_point *at)
{
	struct tn_seq_lifeline *l = lifeline_at(model, lifeline);

	l->has_created = true;
	l->created = *at;
	if (tn_position_compare(&at->pos, &l->first.pos) < 0)
		l->first = *at;
}

void tn_seq_model_set_stopped(struct tn_seq_model *model, size_t lifeline,
		const struct tn_seq_point *at)
{
	struct tn_seq_lifeline *l = lifeline_at(model, lifeline);

	l->has_stopped = true;
	l->stopped = *at;
}

size_t tn_seq_model_get_lifeline_count(const struct tn_seq_model *model)
{
	return model->lifelines->len;
}

const struct tn_seq_lifeline *tn_seq_model_borrow_lifeline(
		const struct tn_seq_model *model, size_t index)
{
	return lifeline_at(model, index);
}

/* ---- messages ---- */

uint64_t tn_seq_model_add_message(struct tn_seq_model *model,
		const struct tn_seq_message *message)
{
	struct tn_seq_message copy = *message;
	GArray *messages = model->messages;

	g_assert(message->from < model->lifelines->len &&
		message->to < model->lifelines->len);
	g_assert(message->send.present || message->receive.present);
	copy.signal = g_string_chunk_insert_const(model->strings,
		message->signal ? message->signal : "");
	copy.id = message->id ? g_string_chunk_insert(model->strings,
		message->id) : NULL;
	if (messages->len > 0) {
		const struct tn_seq_message *last = &g_array_index(messages,
			struct tn_seq_message, messages->len - 1);

		if (tn_position_compare(&tn_seq_message_first(&copy)->pos,
				&tn_seq_message_first(last)->pos) < 0)
			model->unsorted = true;
	}
	g_array_append_val(messages, copy);
	return model->base + messages->len - 1;
}

bool tn_seq_model_set_end(struct tn_seq_model *model, uint64_t serial,
		bool receive, const struct tn_seq_point *at)
{
	struct tn_seq_message *message;
	struct tn_seq_end *end;

	if (serial < model->base ||
	    serial - model->base >= model->messages->len)
		return false;
	message = &g_array_index(model->messages, struct tn_seq_message,
		serial - model->base);
	end = receive ? &message->receive : &message->send;
	end->present = true;
	end->at = *at;
	/* A send set after its receive makes the send the first end. */
	if (!receive && serial > model->base) {
		const struct tn_seq_message *before = message - 1;

		if (tn_position_compare(&at->pos,
				&tn_seq_message_first(before)->pos) < 0)
			model->unsorted = true;
	}
	return true;
}

bool tn_seq_model_set_route(struct tn_seq_model *model, uint64_t serial,
		size_t from, size_t to, const char *signal)
{
	struct tn_seq_message *message;

	g_assert(from < model->lifelines->len && to < model->lifelines->len);
	if (serial < model->base ||
	    serial - model->base >= model->messages->len)
		return false;
	message = &g_array_index(model->messages, struct tn_seq_message,
		serial - model->base);
	message->from = from;
	message->to = to;
	if (signal)
		message->signal = g_string_chunk_insert_const(model->strings,
			signal);
	return true;
}

size_t tn_seq_model_get_message_count(const struct tn_seq_model *model)
{
	return model->messages->len;
}

const struct tn_seq_message *tn_seq_model_borrow_message(
		const struct tn_seq_model *model, size_t index)
{
	g_assert(index < model->messages->len);
	return &g_array_index(model->messages, struct tn_seq_message, index);
}

static bool end_is_at(const struct tn_seq_end *end,
		const struct tn_position *pos)
{
	return end->present && tn_position_compare(&end->at.pos, pos) == 0;
}

bool tn_seq_model_select(const struct tn_seq_model *model,
		const struct tn_position *pos, size_t *index)
{
	size_t count = model->messages->len;

	for (size_t i = 0; i < count; i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(model, i);

		if (end_is_at(&m->send, pos) || end_is_at(&m->receive, pos)) {
			*index = i;
			return true;
		}
	}
	for (size_t i = 0; i < count; i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(model, i);

		if (tn_position_compare(&tn_seq_message_first(m)->pos,
				pos) >= 0) {
			*index = i;
			return true;
		}
	}
	*index = count > 0 ? count - 1 : 0;
	return count > 0;
}

void tn_seq_model_forget_messages(struct tn_seq_model *model)
{
	model->base += model->messages->len;
	g_array_set_size(model->messages, 0);
	g_string_chunk_clear(model->strings);
	model->unsorted = false;
}

static gint compare_messages(gconstpointer a, gconstpointer b)
{
	return tn_position_compare(&tn_seq_message_first(a)->pos,
		&tn_seq_message_first(b)->pos);
}

void tn_seq_model_sort(struct tn_seq_model *model)
{
	size_t n = model->messages->len;
	struct tn_seq_message *sorted;

	/* The serials name nothing after a sort, sorted or not. */
	model->base += n;
	if (!model->unsorted)
		return;
	/* A merge sort: stable, unlike g_array_sort(). */
	sorted = g_memdup2(model->messages->data, n * sizeof(*sorted));
	for (size_t width = 1; width < n; width *= 2) {
		struct tn_seq_message *from = sorted;
		struct tn_seq_message *to = g_new(struct tn_seq_message, n);

		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = MIN(lo + width, n);
			size_t hi = MIN(lo + 2 * width, n);
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				to[k++] = compare_messages(&from[j],
					&from[i]) < 0 ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		g_free(from);
		sorted = to;
	}
	memcpy(model->messages->data, sorted, n * sizeof(*sorted));
	g_free(sorted);
	model->unsorted = false;
}

/* ---- activations ---- */

size_t tn_seq_model_add_activation(struct tn_seq_model *model,
		const struct tn_seq_activation *activation)
{
	g_assert(activation->lifeline < model->lifelines->len);
	g_array_append_val(model->activations, *activation);
	return model->activations->len - 1;
}

void tn_seq_model_end_activation(struct tn_seq_model *model, size_t index,
		const struct tn_seq_point *at)
{
	struct tn_seq_activation *a;

	g_assert(index < model->activations->len);
	a = &g_array_index(model->activations, struct tn_seq_activation,
		index);
	a->end.present = true;
	a->end.at = *at;
}

size_t tn_seq_model_get_activation_count(const struct tn_seq_model *model)
{
	return model->activations->len;
}

const struct tn_seq_activation *tn_seq_model_borrow_activation(
		const struct tn_seq_model *model, size_t index)
{
	g_assert(index < model->activations->len);
	return &g_array_index(model->activations, struct tn_seq_activation,
		index);
}

/* ---- pages ---- */

static bool point_in(const struct tn_seq_point *at,
		const struct tn_position *lo, const struct tn_position *hi)
{
	return tn_position_compare(&at->pos, lo) >= 0 &&
		tn_position_compare(&at->pos, hi) <= 0;
}

struct tn_seq_model *tn_seq_model_copy_range(const struct tn_seq_model *model,
		size_t first, size_t count)
{
	struct tn_seq_model *copy = tn_seq_model_create();
	size_t n = model->lifelines->len;
	size_t *map = g_new(size_t, n ? n : 1);
	bool *kept = g_new0(bool, n ? n : 1);
	struct tn_position lo, hi;

	g_assert(first + count <= model->messages->len || count == 0);
	if (count == 0) {
		g_free(map);
		g_free(kept);
		return copy;
	}
	lo = tn_seq_message_first(tn_seq_model_borrow_message(model,
		first))->pos;
	hi = tn_seq_message_first(tn_seq_model_borrow_message(model,
		first + count - 1))->pos;
	for (size_t i = first; i < first + count; i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(model, i);

		kept[m->from] = kept[m->to] = true;
	}
	for (size_t i = 0; i < n; i++) {
		const struct tn_seq_lifeline *l = lifeline_at(model, i);

		if ((l->has_created && point_in(&l->created, &lo, &hi)) ||
		    (l->has_stopped && point_in(&l->stopped, &lo, &hi)))
			kept[i] = true;
	}
	/* The lifelines in the model's order. */
	for (size_t i = 0; i < n; i++) {
		const struct tn_seq_lifeline *l = lifeline_at(model, i);
		struct tn_seq_lifeline *c;

		if (!kept[i])
			continue;
		map[i] = tn_seq_model_lifeline(copy, l->name, l->category,
			&l->first);
		c = lifeline_at(copy, map[i]);
		/* Not a mark before the first message: whether the model
		 * holds one depends on how far back its window began (a
		 * fork 3 ms before the page is in a window of 4 ms, not in
		 * one read from a page of the index), and the page must
		 * not. */
		c->has_created = l->has_created &&
			tn_position_compare(&l->created.pos, &lo) >= 0;
		c->created = l->created;
		c->has_stopped = l->has_stopped &&
			tn_position_compare(&l->stopped.pos, &lo) >= 0;
		c->stopped = l->stopped;
	}
	for (size_t i = first; i < first + count; i++) {
		struct tn_seq_message m = *tn_seq_model_borrow_message(model,
			i);

		m.from = map[m.from];
		m.to = map[m.to];
		tn_seq_model_add_message(copy, &m);
	}
	for (size_t i = 0; i < model->activations->len; i++) {
		struct tn_seq_activation a = *tn_seq_model_borrow_activation(
			model, i);

		if (!kept[a.lifeline] ||
		    (a.begin.present &&
		     tn_position_compare(&a.begin.at.pos, &hi) > 0) ||
		    (a.end.present &&
		     tn_position_compare(&a.end.at.pos, &lo) < 0))
			continue;
		a.lifeline = map[a.lifeline];
		/* A begin before the first message is outside the page,
		 * for the same reason. */
		if (a.begin.present &&
		    tn_position_compare(&a.begin.at.pos, &lo) < 0)
			a.begin.present = false;
		tn_seq_model_add_activation(copy, &a);
	}
	g_free(map);
	g_free(kept);
	return copy;
}
