/* packets-collect.c - packet tables gathered while reading (see
 * packets-collect.h). */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "bt-util.h"
#include "clock.h"
#include "ctf-index.h"
#include "packets-collect.h"
#include "reader-private.h"

/* The packets of one stream as the reader gives them. */
struct stream_packets {
	char *file;		/* real path; NULL: not collected */
	GArray *begin_ns, *end_ns;	/* int64_t */
	/* Packets without times: their first and last events' instead
	 * (an empty packet: the end of the one before). */
	bool by_events;
	bool has_event;		/* in the current packet */
	int64_t first_ns, last_ns, prev_end_ns;
};

struct tn_packets_collector {
	GHashTable *streams;	/* tn_bt_address_key(stream) -> struct
				 * stream_packets * */
	const bt_stream *last_stream;	/* the memo of the last lookup */
	struct stream_packets *last_packets;
};

static void stream_packets_free(gpointer data)
{
	struct stream_packets *packets = data;

	g_free(packets->file);
	g_array_free(packets->begin_ns, TRUE);
	g_array_free(packets->end_ns, TRUE);
	g_free(packets);
}

struct tn_packets_collector *tn_packets_collector_create(void)
{
	struct tn_packets_collector *collector =
		g_new0(struct tn_packets_collector, 1);

	collector->streams = g_hash_table_new_full(g_direct_hash,
		g_direct_equal, NULL, stream_packets_free);
	return collector;
}

void tn_packets_collector_destroy(struct tn_packets_collector *collector)
{
	if (!collector)
		return;
	g_hash_table_destroy(collector->streams);
	g_free(collector);
}

/* The real path of the stream's file if its packets are worth
 * collecting (malloc'ed), or NULL; *by_events when the packets have no
 * times and their events' must do. */
static char *collectable_file(const bt_stream *stream, bool *by_events)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(stream);
	const char *name = bt_stream_get_name(stream);
	char *file, *dir, *base;
	bool indexed;

	if (!name || !bt_stream_class_borrow_default_clock_class_const(sc))
		return NULL;
	*by_events =
		!bt_stream_class_packets_have_beginning_default_clock_snapshot(sc) ||
		!bt_stream_class_packets_have_end_default_clock_snapshot(sc);
	file = realpath(name, NULL);
	if (!file)
		return NULL;
	dir = g_path_get_dirname(file);
	base = g_path_get_basename(file);
	indexed = tn_ctf_index_exists(dir, base);
	g_free(dir);
	g_free(base);
	if (indexed) {
		free(file);
		return NULL;
	}
	return file;
}

static struct stream_packets *packets_of(
		struct tn_packets_collector *collector, const bt_stream *stream)
{
	struct stream_packets *packets = g_hash_table_lookup(
		collector->streams, tn_bt_address_key(stream));
	char *file;

	if (packets)
		return packets;
	packets = g_new0(struct stream_packets, 1);
	packets->begin_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
	packets->end_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
	packets->prev_end_ns = INT64_MIN;
	if ((file = collectable_file(stream, &packets->by_events))) {
		packets->file = g_strdup(file);
		free(file);
	}
	g_hash_table_insert(collector->streams, tn_bt_address_key(stream),
		packets);
	return packets;
}

static void add_packet_time(struct stream_packets *packets, GArray *times,
		const bt_clock_snapshot *snapshot)
{
	int64_t ns;

	if (!packets->file)
		return;
	if (!tn_clock_snapshot_ns(snapshot, &ns)) {
		g_clear_pointer(&packets->file, g_free);	/* give up */
		return;
	}
	g_array_append_val(times, ns);
}

/* An event of a stream whose packets have no times. */
static void add_event_time(struct tn_packets_collector *collector,
		const bt_message *msg)
{
	const bt_stream *stream = bt_event_borrow_stream_const(
		bt_message_event_borrow_event_const(msg));
	struct stream_packets *packets;
	int64_t ns;

	if (stream != collector->last_stream) {
		collector->last_stream = stream;
		collector->last_packets = packets_of(collector, stream);
	}
	packets = collector->last_packets;
	if (!packets->file || !packets->by_events)
		return;
	if (!tn_clock_snapshot_ns(bt_message_event_borrow_default_clock_snapshot_const(
			msg), &ns)) {
		g_clear_pointer(&packets->file, g_free);	/* give up */
		return;
	}
	if (!packets->has_event)
		packets->first_ns = ns;
	packets->last_ns = ns;
	packets->has_event = true;
}

/* The end of a packet without times: its events' span. */
static void end_packet_by_events(struct stream_packets *packets)
{
	int64_t begin = packets->has_event ? packets->first_ns :
		packets->prev_end_ns;
	int64_t end = packets->has_event ? packets->last_ns : begin;

	g_array_append_val(packets->begin_ns, begin);
	g_array_append_val(packets->end_ns, end);
	packets->prev_end_ns = end;
	packets->has_event = false;
}

void tn_packets_collector_add(struct tn_packets_collector *collector,
		const bt_message *msg)
{
	struct stream_packets *packets;
	const bt_packet *packet;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		add_event_time(collector, msg);
		break;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		packet = bt_message_packet_beginning_borrow_packet_const(msg);
		packets = packets_of(collector,
			bt_packet_borrow_stream_const(packet));
		if (packets->by_events)
			packets->has_event = false;
		else
			add_packet_time(packets, packets->begin_ns,
				bt_message_packet_beginning_borrow_default_clock_snapshot_const(
					msg));
		break;
	case BT_MESSAGE_TYPE_PACKET_END:
		packet = bt_message_packet_end_borrow_packet_const(msg);
		packets = packets_of(collector,
			bt_packet_borrow_stream_const(packet));
		if (packets->by_events && packets->file)
			end_packet_by_events(packets);
		else if (!packets->by_events)
			add_packet_time(packets, packets->end_ns,
				bt_message_packet_end_borrow_default_clock_snapshot_const(
					msg));
		break;
	default:
		break;
	}
}

static int compare_files(gconstpointer a, gconstpointer b)
{
	const struct stream_packets *x = *(struct stream_packets *const *) a;
	const struct stream_packets *y = *(struct stream_packets *const *) b;

	return strcmp(x->file, y->file);
}

void tn_packets_collector_finish(struct tn_packets_collector *collector,
		struct tn_packet_tables *tables)
{
	GPtrArray *ready = g_ptr_array_new();
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, collector->streams);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct stream_packets *packets = value;
		uint64_t count = packets->begin_ns->len;

		if (packets->file && count > 0 &&
		    count == packets->end_ns->len)
			g_ptr_array_add(ready, packets);
	}
	/* By file: the same tables in the same order, whatever the
	 * addresses of the streams (the cache's bytes stay the same). */
	g_ptr_array_sort(ready, compare_files);
	for (guint i = 0; i < ready->len; i++) {
		struct stream_packets *packets = ready->pdata[i];
		uint64_t count = packets->begin_ns->len;

		tn_packets_add_table(tables, packets->file, count,
			(int64_t *) g_array_free(packets->begin_ns, FALSE),
			(int64_t *) g_array_free(packets->end_ns, FALSE));
		g_clear_pointer(&packets->file, g_free);
		packets->begin_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
		packets->end_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
	}
	g_ptr_array_free(ready, TRUE);
}

/* A message tn_reader_next() gives: it would skip what follows one
 * that it does not give, packet bounds included. */
static bool is_item(const bt_message *msg)
{
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return true;
	default:
		return false;
	}
}

enum tn_reader_status tn_packets_collector_next_item(struct tn_reader *reader,
		struct tn_packets_collector *collector, struct tn_event *ev,
		struct tn_error *err)
{
	const bt_message *msg;
	enum tn_reader_status status;

	if (!collector)
		return tn_reader_next(reader, ev, err);
	while ((status = tn_reader_next_message(reader, &msg, err)) ==
			TN_READER_OK) {
		if (is_item(msg)) {
			if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_EVENT)
				tn_packets_collector_add(collector, msg);
			tn_reader_push_back(reader, msg);
			return tn_reader_next(reader, ev, err);
		}
		tn_packets_collector_add(collector, msg);
		tn_reader_place_other(reader, msg);
		bt_message_put_ref(msg);
	}
	return status;
}
