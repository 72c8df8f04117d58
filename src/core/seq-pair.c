/* seq-pair.c - the two ends of asynchronous messages paired into one
 * message (see seq-loader.h). */
#include <glib.h>
#include <string.h>

#include "tracenav/seq-loader.h"

/* What makes two ends the ends of one message; hash is computed once
 * from the rest (key_of()), not at every lookup of the tables. */
struct pair_key {
	size_t from, to;
	const char *signal;
	const char *id;		/* NULL: none */
	guint hash;
};

/* The ends waiting under one key, oldest first, and the key's strings:
 * one allocation for an end that waits alone (most of them: a send,
 * then its receive). */
struct pending {
	struct pair_key key;	/* its strings in text */
	uint64_t only;		/* the serial, while no more waits */
	GArray *more;		/* uint64_t from head, once two waited */
	guint head;
	char text[];
};

struct tn_seq_pairer {
	/* struct pair_key * (in its struct pending) -> struct pending * */
	GHashTable *sends;	/* sends waiting for their receive */
	GHashTable *receives;	/* receives with an id waiting for their
				 * send */
	size_t pending;
};

static guint key_hash(gconstpointer p)
{
	const struct pair_key *key = p;

	return key->hash;
}

static void key_set_hash(struct pair_key *key)
{
	guint h = g_str_hash(key->signal);

	h = h * 31 + (guint) key->from;
	h = h * 31 + (guint) key->to;
	if (key->id)
		h = h * 31 + g_str_hash(key->id);
	key->hash = h;
}

static gboolean key_equal(gconstpointer pa, gconstpointer pb)
{
	const struct pair_key *a = pa, *b = pb;

	return a->hash == b->hash && a->from == b->from && a->to == b->to &&
		strcmp(a->signal, b->signal) == 0 &&
		(a->id == NULL) == (b->id == NULL) &&
		(!a->id || strcmp(a->id, b->id) == 0);
}

static void pending_free(gpointer p)
{
	struct pending *pending = p;

	if (pending->more)
		g_array_free(pending->more, TRUE);
	g_free(pending);
}

static GHashTable *pending_table(void)
{
	return g_hash_table_new_full(key_hash, key_equal, NULL,
		pending_free);
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
	struct pending *pending = g_hash_table_lookup(table, key);
	bool emptied = true;

	if (!pending)
		return false;
	if (pending->more) {
		*serial = g_array_index(pending->more, uint64_t,
			pending->head++);
		/* Let the array not grow for ever under a key that keeps
		 * ends waiting. */
		if (pending->head >= 64 &&
		    pending->head * 2 >= pending->more->len) {
			g_array_remove_range(pending->more, 0, pending->head);
			pending->head = 0;
		}
		emptied = pending->head == pending->more->len;
	} else {
		*serial = pending->only;
	}
	pairer->pending--;
	if (emptied)
		g_hash_table_remove(table, &pending->key);
	return true;
}

static struct pending *pending_new(const struct pair_key *key)
{
	size_t signal_size = strlen(key->signal) + 1;
	size_t id_size = key->id ? strlen(key->id) + 1 : 0;
	struct pending *pending = g_malloc(sizeof(*pending) + signal_size +
		id_size);

	pending->key = *key;
	memcpy(pending->text, key->signal, signal_size);
	pending->key.signal = pending->text;
	if (key->id) {
		memcpy(pending->text + signal_size, key->id, id_size);
		pending->key.id = pending->text + signal_size;
	}
	pending->more = NULL;
	pending->head = 0;
	return pending;
}

static void put(struct tn_seq_pairer *pairer, GHashTable *table,
		const struct pair_key *key, uint64_t serial)
{
	struct pending *pending = g_hash_table_lookup(table, key);

	if (!pending) {
		pending = pending_new(key);
		pending->only = serial;
		g_hash_table_insert(table, &pending->key, pending);
	} else {
		if (!pending->more) {
			pending->more = g_array_new(FALSE, FALSE,
				sizeof(uint64_t));
			g_array_append_val(pending->more, pending->only);
		}
		g_array_append_val(pending->more, serial);
	}
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

	key_set_hash(&key);
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
