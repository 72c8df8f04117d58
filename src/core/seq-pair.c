/* seq-pair.c - the two ends of asynchronous messages paired into one
 * message (see seq-loader.h). */
#include <glib.h>
#include <string.h>

#include "tracenav/seq-loader.h"

/* What makes two ends the ends of one message. */
struct pair_key {
	size_t from, to;
	const char *signal;
	const char *id;		/* NULL: none */
	char *storage;		/* a key kept in a table: its strings */
};

struct tn_seq_pairer {
	/* struct pair_key * -> GQueue of serials (oldest first) */
	GHashTable *sends;	/* sends waiting for their receive */
	GHashTable *receives;	/* receives with an id waiting for their
				 * send */
	size_t pending;
};

static guint key_hash(gconstpointer p)
{
	const struct pair_key *key = p;
	guint h = g_str_hash(key->signal);

	h = h * 31 + (guint) key->from;
	h = h * 31 + (guint) key->to;
	if (key->id)
		h = h * 31 + g_str_hash(key->id);
	return h;
}

static gboolean key_equal(gconstpointer pa, gconstpointer pb)
{
	const struct pair_key *a = pa, *b = pb;

	return a->from == b->from && a->to == b->to &&
		strcmp(a->signal, b->signal) == 0 &&
		(a->id == NULL) == (b->id == NULL) &&
		(!a->id || strcmp(a->id, b->id) == 0);
}

static void key_free(gpointer p)
{
	struct pair_key *key = p;

	g_free(key->storage);
	g_free(key);
}

static void queue_free(gpointer p)
{
	g_queue_free_full(p, g_free);
}

static GHashTable *pending_table(void)
{
	return g_hash_table_new_full(key_hash, key_equal, key_free,
		queue_free);
}

struct tn_seq_pairer *tn_seq_pairer_create(void)
{
	struct tn_seq_pairer *pairer = g_new0(struct tn_seq_pairer, 1);

	pairer->sends = pending_table();
	pairer->receives = pending_table();
	return pairer;
}

void tn_seq_pairer_destroy(struct tn_seq_pairer *pairer)
{
	if (!pairer)
		return;
	g_hash_table_destroy(pairer->sends);
	g_hash_table_destroy(pairer->receives);
	g_free(pairer);
}

void tn_seq_pairer_clear(struct tn_seq_pairer *pairer)
{
	g_hash_table_remove_all(pairer->sends);
	g_hash_table_remove_all(pairer->receives);
	pairer->pending = 0;
}

size_t tn_seq_pairer_get_pending_count(const struct tn_seq_pairer *pairer)
{
	return pairer->pending;
}

/* Take the oldest serial waiting under key in table: true with *serial. */
static bool take(struct tn_seq_pairer *pairer, GHashTable *table,
		const struct pair_key *key, uint64_t *serial)
{
	GQueue *queue = g_hash_table_lookup(table, key);
	uint64_t *head;

	if (!queue)
		return false;
	head = g_queue_pop_head(queue);
	*serial = *head;
	g_free(head);
	if (g_queue_is_empty(queue))
		g_hash_table_remove(table, key);
	pairer->pending--;
	return true;
}

static void put(struct tn_seq_pairer *pairer, GHashTable *table,
		const struct pair_key *key, uint64_t serial)
{
	GQueue *queue = g_hash_table_lookup(table, key);

	if (!queue) {
		struct pair_key *copy = g_new(struct pair_key, 1);
		size_t signal_size = strlen(key->signal) + 1;
		size_t id_size = key->id ? strlen(key->id) + 1 : 0;

		copy->from = key->from;
		copy->to = key->to;
		copy->storage = g_malloc(signal_size + id_size);
		memcpy(copy->storage, key->signal, signal_size);
		copy->signal = copy->storage;
		copy->id = NULL;
		if (key->id) {
			memcpy(copy->storage + signal_size, key->id, id_size);
			copy->id = copy->storage + signal_size;
		}
		queue = g_queue_new();
		g_hash_table_insert(table, copy, queue);
	}
	g_queue_push_tail(queue, g_memdup2(&serial, sizeof(serial)));
	pairer->pending++;
}

bool tn_seq_pairer_add_end(struct tn_seq_pairer *pairer,
		struct tn_seq_model *model, bool receive, const char *from,
		const char *to, enum tn_seq_category category,
		const char *signal, const char *id,
		const struct tn_seq_point *at)
{
	struct pair_key key = {
		.from = tn_seq_model_lifeline(model, from, category, at),
		.to = tn_seq_model_lifeline(model, to, category, at),
		.signal = signal ? signal : "",
		.id = id,
	};
	struct tn_seq_message message = {
		.kind = TN_SEQ_ASYNC,
		.from = key.from,
		.to = key.to,
		.signal = key.signal,
		.id = id,
	};
	uint64_t serial;

	if (receive) {
		if (take(pairer, pairer->sends, &key, &serial)) {
			/* Its message may be gone (forgotten): paired all
			 * the same. */
			tn_seq_model_set_end(model, serial, true, at);
			return true;
		}
		message.receive.present = true;
		message.receive.at = *at;
		serial = tn_seq_model_add_message(model, &message);
		if (id)
			put(pairer, pairer->receives, &key, serial);
		return false;
	}
	if (id && take(pairer, pairer->receives, &key, &serial)) {
		tn_seq_model_set_end(model, serial, false, at);
		return true;
	}
	message.send.present = true;
	message.send.at = *at;
	serial = tn_seq_model_add_message(model, &message);
	put(pairer, pairer->sends, &key, serial);
	return false;
}
