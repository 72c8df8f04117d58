/* merge-filter.c - tracenav's merge of a trace's streams: a filter
 * component class in place of flt.utils.muxer (see merge-filter.h).
 *
 * Each upstream iterator keeps the batch its last "next" call gave; the
 * message at its front is its head, in the heap (merge-heap.h) at the
 * time the muxer gives it (its default clock snapshot where the muxer
 * reads one, else "no time": the time of the last message given).  A
 * call hands out heads one by one; only the upstream whose head just
 * went out needs a new one, so a message costs one heap update, not a
 * look at every stream.  An upstream asks its iterator for more when its
 * batch is used up, and leaves the scan order when that says END, at the
 * moment the muxer's would.
 *
 * The muxer checks the streams' clocks as their beginnings come: the
 * first stream decides whether all have a clock, and then whether all
 * clocks are absolute (Unix epoch origin) or share its UUID or have
 * none; any other stream fails the read.  So does this merge.
 */
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/merge.h"
#include "merge-compare.h"
#include "merge-filter.h"
#include "merge-heap.h"
#include "sync-stream.h"

#define UUID_BYTES 16
#define NONE SIZE_MAX

static atomic_int merge_method = TN_MERGE_HEAP;

void tn_merge_set_method(enum tn_merge_method method)
{
	atomic_store(&merge_method, (int) method);
}

enum tn_merge_method tn_merge_get_method(void)
{
	return (enum tn_merge_method) atomic_load(&merge_method);
}

/* ---- the component: one more input port after each connection ---- */

struct merge_component {
	bt_self_component_filter *self;
	uint64_t next_port;
	struct tn_merge_context *context;	/* may be NULL */
};

static bt_self_component_add_port_status add_input_port(
		struct merge_component *comp)
{
	bt_self_component_add_port_status status;
	char name[32];

	snprintf(name, sizeof(name), "in%" PRIu64, comp->next_port);
	status = bt_self_component_filter_add_input_port(comp->self, name,
		NULL, NULL);
	if (status == BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
		comp->next_port++;
	return status;
}

static bt_component_class_initialize_method_status merge_initialize(
		bt_self_component_filter *self,
		bt_self_component_filter_configuration *config,
		const bt_value *params, void *data)
{
	struct merge_component *comp = g_new0(struct merge_component, 1);
	bt_self_component *self_comp =
		bt_self_component_filter_as_self_component(self);

	(void) config;
	(void) params;
	comp->self = self;
	comp->context = data;
	bt_self_component_set_data(self_comp, comp);
	if (add_input_port(comp) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK ||
	    bt_self_component_filter_add_output_port(self, "out", NULL,
			NULL) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK) {
		bt_self_component_set_data(self_comp, NULL);
		g_free(comp);
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	}
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static void merge_finalize(bt_self_component_filter *self)
{
	g_free(bt_self_component_get_data(
		bt_self_component_filter_as_self_component(self)));
}

static bt_component_class_port_connected_method_status merge_port_connected(
		bt_self_component_filter *self,
		bt_self_component_port_input *port, const bt_port_output *other)
{
	struct merge_component *comp = bt_self_component_get_data(
		bt_self_component_filter_as_self_component(self));

	(void) port;
	(void) other;
	switch (add_input_port(comp)) {
	case BT_SELF_COMPONENT_ADD_PORT_STATUS_OK:
		return BT_COMPONENT_CLASS_PORT_CONNECTED_METHOD_STATUS_OK;
	case BT_SELF_COMPONENT_ADD_PORT_STATUS_MEMORY_ERROR:
		return BT_COMPONENT_CLASS_PORT_CONNECTED_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_COMPONENT_CLASS_PORT_CONNECTED_METHOD_STATUS_ERROR;
	}
}

/* ---- the message iterator ---- */

/* What the first stream's clock says of the others (the muxer's). */
enum clock_expectation {
	EXPECT_ANY,		/* no stream seen yet */
	EXPECT_NO_CLOCK,
	EXPECT_ABSOLUTE,	/* origin: the Unix epoch */
	EXPECT_UUID,		/* not absolute, this UUID */
	EXPECT_NO_UUID,		/* not absolute, no UUID */
};

struct upstream {
	bt_message_iterator *iterator;
	/* The last batch (the iterator's array, valid until its next
	 * call); we own the references of batch[next..count). */
	bt_message_array_const batch;
	uint64_t count;
	uint64_t next;
	bool has_head;		/* batch[next] is in the heap */
	bool ended;
	char *stream_name;	/* its stream's (its file), once begun */
	/* Its host's correction, once begun (NULL: its clock as it is). */
	const struct tn_sync_transform *transform;
	/* The latest time of its messages so far: a message before it is
	 * placed at it (its time went back). */
	bool has_latest;
	int64_t latest_ns;
	bool has_latest_event;	/* the latest time of its events */
	int64_t latest_event_ns;
};

struct merge_iterator {
	bt_self_message_iterator *self;
	struct upstream *upstreams;
	size_t count;
	struct tn_merge_heap *heap;
	bool filled;		/* every upstream got its first head */
	size_t taken;		/* whose head went out last, or NONE */
	size_t last_taken;	/* the same, kept for a failure's message */
	struct tn_merge_context *context;	/* may be NULL */
	enum clock_expectation expect;
	uint8_t expected_uuid[UUID_BYTES];
	/* A failure after some messages of a batch: said on the next
	 * call, as the muxer does. */
	const bt_error *saved_error;
	bt_message_iterator_class_next_method_status saved_status;
};

/* Say why the merge fails (an error cause) and return ERROR. */
#define FAIL(it, ...) \
	((void) BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR( \
		(it)->self, __VA_ARGS__), \
	 BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR)

static const char *clock_kind(enum clock_expectation expect)
{
	switch (expect) {
	case EXPECT_NO_CLOCK:
		return "no clock";
	case EXPECT_ABSOLUTE:
		return "a clock whose origin is the Unix epoch";
	case EXPECT_UUID:
		return "a clock of another origin, with a UUID";
	case EXPECT_NO_UUID:
		return "a clock of another origin, without UUID";
	default:
		return "a clock";
	}
}

static enum clock_expectation kind_of_clock(const bt_clock_class *cc)
{
	if (bt_clock_class_origin_is_unix_epoch(cc))
		return EXPECT_ABSOLUTE;
	return bt_clock_class_get_uuid(cc) ? EXPECT_UUID : EXPECT_NO_UUID;
}

/* A stream of clock class cc (NULL: none) begins: the first one decides
 * what the others must have. */
static bt_message_iterator_class_next_method_status check_clock(
		struct merge_iterator *it, const bt_clock_class *cc)
{
	enum clock_expectation kind = cc ? kind_of_clock(cc) : EXPECT_NO_CLOCK;
	const char *name = cc ? bt_clock_class_get_name(cc) : NULL;

	if (it->expect == EXPECT_ANY) {
		it->expect = kind;
		if (kind == EXPECT_UUID)
			memcpy(it->expected_uuid, bt_clock_class_get_uuid(cc),
				UUID_BYTES);
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	}
	if (kind != it->expect)
		return FAIL(it, "cannot merge streams of different clocks: "
			"the first stream has %s, another %s%s%s%s",
			clock_kind(it->expect), clock_kind(kind),
			name ? " (\"" : "", name ? name : "", name ? "\")" : "");
	if (kind == EXPECT_UUID && memcmp(it->expected_uuid,
			bt_clock_class_get_uuid(cc), UUID_BYTES) != 0)
		return FAIL(it, "cannot merge streams of different clocks: "
			"clock \"%s\" has another UUID than the first "
			"stream's", name ? name : "");
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

static const bt_stream_class *stream_class_of(const bt_message *msg)
{
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		return bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_beginning_borrow_packet_const(msg)));
	case BT_MESSAGE_TYPE_PACKET_END:
		return bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_end_borrow_packet_const(msg)));
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		return bt_stream_borrow_class_const(
			bt_message_discarded_events_borrow_stream_const(msg));
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return bt_stream_borrow_class_const(
			bt_message_discarded_packets_borrow_stream_const(msg));
	default:
		return NULL;
	}
}

const bt_clock_snapshot *tn_merge_placing_snapshot(const bt_message *msg)
{
	const bt_clock_snapshot *cs = NULL;
	const bt_stream_class *sc;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		if (bt_message_event_borrow_stream_class_default_clock_class_const(
				msg))
			cs = bt_message_event_borrow_default_clock_snapshot_const(
				msg);
		return cs;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		sc = stream_class_of(msg);
		return bt_stream_class_packets_have_beginning_default_clock_snapshot(sc) ?
			bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg) :
			NULL;
	case BT_MESSAGE_TYPE_PACKET_END:
		sc = stream_class_of(msg);
		return bt_stream_class_packets_have_end_default_clock_snapshot(sc) ?
			bt_message_packet_end_borrow_default_clock_snapshot_const(msg) :
			NULL;
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		if (bt_message_stream_beginning_borrow_default_clock_snapshot_const(
				msg, &cs) == BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_UNKNOWN)
			cs = NULL;
		return cs;
	case BT_MESSAGE_TYPE_STREAM_END:
		if (bt_message_stream_end_borrow_default_clock_snapshot_const(
				msg, &cs) == BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_UNKNOWN)
			cs = NULL;
		return cs;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		sc = stream_class_of(msg);
		return bt_stream_class_discarded_events_have_default_clock_snapshots(sc) ?
			bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(msg) :
			NULL;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		sc = stream_class_of(msg);
		return bt_stream_class_discarded_packets_have_default_clock_snapshots(sc) ?
			bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(msg) :
			NULL;
	case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
		return bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(
			msg);
	default:
		return NULL;
	}
}

/* Count a step back of upstream u's stream: an event before the one
 * before it, or another message (a packet's beginning, a notice) before
 * the latest time of the stream. */
void tn_merge_step_free(gpointer data)
{
	struct tn_merge_step *step = data;

	g_array_free(step->event_times, TRUE);
	g_free(step);
}

static void count_step(struct merge_iterator *it, size_t u, bool event,
		int64_t ns, int64_t by)
{
	GHashTable *steps = it->context ? it->context->steps : NULL;
	const char *name = it->upstreams[u].stream_name;
	struct tn_merge_step *step;

	if (!steps || !name)
		return;
	step = g_hash_table_lookup(steps, name);
	if (!step) {
		step = g_new0(struct tn_merge_step, 1);
		step->event_times = g_array_new(FALSE, FALSE,
			sizeof(int64_t));
		g_hash_table_insert(steps, g_strdup(name), step);
	}
	if (event) {
		int64_t times[2] = { ns, ns + by };

		step->events++;
		step->events_by = MAX(step->events_by, by);
		g_array_append_vals(step->event_times, times, 2);
	} else {
		step->others++;
		step->others_by = MAX(step->others_by, by);
	}
}

/* Where upstream u's head at ns goes: at ns, or at the latest time of
 * its stream when its time went back (it then comes right after the
 * message before it there); counted. */
static int64_t place_head(struct merge_iterator *it, size_t u, bool event,
		int64_t ns)
{
	struct upstream *up = &it->upstreams[u];

	if (event && up->has_latest_event && ns < up->latest_event_ns)
		count_step(it, u, true, ns, up->latest_event_ns - ns);
	else if (!event && up->has_latest && ns < up->latest_ns)
		count_step(it, u, false, ns, up->latest_ns - ns);
	if (event && (!up->has_latest_event || ns > up->latest_event_ns)) {
		up->has_latest_event = true;
		up->latest_event_ns = ns;
	}
	if (up->has_latest && ns < up->latest_ns)
		return up->latest_ns;
	up->has_latest = true;
	up->latest_ns = ns;
	return ns;
}

/* Put batch[next] of upstream u in the heap. */
static bt_message_iterator_class_next_method_status set_head(
		struct merge_iterator *it, size_t u)
{
	struct upstream *up = &it->upstreams[u];
	const bt_message *msg = up->batch[up->next];
	bt_message_type type = bt_message_get_type(msg);
	bt_message_iterator_class_next_method_status status =
		BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	const bt_clock_snapshot *cs = NULL;
	int64_t ns = 0;

	if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING && !up->stream_name)
		up->stream_name = g_strdup(bt_stream_get_name(
			bt_message_stream_beginning_borrow_stream_const(msg)));
	if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING && it->context)
		up->transform = tn_sync_transform_of_stream(it->context->sync,
			bt_message_stream_beginning_borrow_stream_const(msg));
	if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING)
		status = check_clock(it, bt_stream_class_borrow_default_clock_class_const(
			bt_stream_borrow_class_const(
				bt_message_stream_beginning_borrow_stream_const(msg))));
	else if (type == BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY)
		status = check_clock(it, bt_clock_snapshot_borrow_clock_class_const(
			bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(
				msg)));
	if (status != BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK)
		return status;
	/* Streams without a clock: everything at the first time. */
	if (it->expect != EXPECT_NO_CLOCK)
		cs = tn_merge_placing_snapshot(msg);
	if (cs && bt_clock_snapshot_get_ns_from_origin(cs, &ns) !=
			BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
		return up->stream_name ?
			FAIL(it, "stream file `%s`: a clock value does not fit "
				"in ns from origin (a damaged packet)",
				up->stream_name) :
			FAIL(it, "cannot merge the streams: a clock value "
				"does not fit in ns from origin");
	if (cs && up->transform)
		ns = tn_sync_transform_apply(up->transform, ns);
	if (cs)
		ns = place_head(it, u, type == BT_MESSAGE_TYPE_EVENT, ns);
	tn_merge_heap_set_head(it->heap, u, cs != NULL, ns, msg,
		type == BT_MESSAGE_TYPE_DISCARDED_EVENTS ||
		type == BT_MESSAGE_TYPE_DISCARDED_PACKETS ||
		type == BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY);
	up->has_head = true;
	return status;
}

/* Give upstream u its next head, asking its iterator for more when its
 * batch is used up; an iterator at its end leaves the scan order. */
static bt_message_iterator_class_next_method_status refill(
		struct merge_iterator *it, size_t u)
{
	struct upstream *up = &it->upstreams[u];

	if (up->next < up->count)
		return set_head(it, u);
	switch (bt_message_iterator_next(up->iterator, &up->batch,
			&up->count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		up->next = 0;
		return set_head(it, u);
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		up->batch = NULL;
		up->count = up->next = 0;
		up->ended = true;
		up->has_head = false;
		tn_merge_heap_end(it->heap, u);
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		up->count = up->next = 0;
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		up->count = up->next = 0;
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
	default:
		up->count = up->next = 0;
		/* Which file: what a user can look at (bt-util.h finds it
		 * in this cause). */
		if (up->stream_name)
			return FAIL(it, "cannot read stream file `%s`",
				up->stream_name);
		return FAIL(it, "cannot read a stream of the trace");
	}
}

/* The first heads, in scan order (as the muxer's first pass fills its
 * queues: an upstream that ends at once is replaced by the last one,
 * which is filled in its place). */
static bt_message_iterator_class_next_method_status fill_all(
		struct merge_iterator *it)
{
	size_t i = 0;

	while (i < tn_merge_heap_get_active_count(it->heap)) {
		size_t u = tn_merge_heap_get_upstream(it->heap, i);
		bt_message_iterator_class_next_method_status status;

		if (it->upstreams[u].has_head) {
			i++;
			continue;
		}
		status = refill(it, u);
		if (status != BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK)
			return status;
		if (!it->upstreams[u].ended)
			i++;
	}
	it->filled = true;
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

/* The head of upstream u, at ns, comes before the last message given:
 * the muxer fails then.  Which streams, when known: of two, one has a
 * wrong time, and neither is named as the "stream file" that
 * bt-util.h would blame; of one, it is. */
static bt_message_iterator_class_next_method_status fail_order(
		struct merge_iterator *it, size_t u, int64_t ns)
{
	const char *late = it->upstreams[u].stream_name;
	const char *early = it->last_taken == NONE ? NULL :
		it->upstreams[it->last_taken].stream_name;

	if (late && early && strcmp(late, early) == 0)
		return FAIL(it, "stream file `%s`: its times go back, a "
			"message at %" PRId64 " ns from origin comes after one "
			"at %" PRId64 " ns (a damaged packet)", late, ns,
			tn_merge_heap_get_last_time(it->heap));
	if (late && early)
		return FAIL(it, "cannot merge the streams: a message of `%s` "
			"at %" PRId64 " ns from origin comes after one of `%s` "
			"at %" PRId64 " ns (one of them has a wrong time)",
			late, ns, early, tn_merge_heap_get_last_time(it->heap));
	return FAIL(it, "cannot merge the streams: a message at %" PRId64
		" ns from origin comes after one at %" PRId64 " ns", ns,
		tn_merge_heap_get_last_time(it->heap));
}

static bt_message_iterator_class_next_method_status next_one(
		struct merge_iterator *it, const bt_message **msg)
{
	bt_message_iterator_class_next_method_status status =
		BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	struct upstream *up;
	int64_t ns;
	size_t u;

	if (!it->filled)
		status = fill_all(it);
	else if (it->taken != NONE)
		status = refill(it, it->taken);
	if (status != BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK)
		return status;
	it->taken = NONE;
	switch (tn_merge_heap_take(it->heap, &u, &ns)) {
	case 0:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
	case -1:
		return fail_order(it, u, ns);
	default:
		break;
	}
	up = &it->upstreams[u];
	*msg = up->batch[up->next++];
	up->has_head = false;
	it->taken = it->last_taken = u;
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

static bt_message_iterator_class_next_method_status merge_next(
		bt_self_message_iterator *self, bt_message_array_const msgs,
		uint64_t capacity, uint64_t *count)
{
	struct merge_iterator *it = bt_self_message_iterator_get_data(self);
	bt_message_iterator_class_next_method_status status =
		BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	uint64_t i = 0;

	if (it->saved_error) {
		BT_CURRENT_THREAD_MOVE_ERROR_AND_RESET(it->saved_error);
		return it->saved_status;
	}
	while (i < capacity && (status = next_one(it, &msgs[i])) ==
			BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK)
		i++;
	if (i == 0)
		return status;
	if (status < 0) {
		it->saved_error = bt_current_thread_take_error();
		it->saved_status = status;
	}
	*count = i;
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

/* Drop the messages an upstream holds and not handed out. */
static void drop_batch(struct upstream *up)
{
	while (up->next < up->count)
		bt_message_put_ref(up->batch[up->next++]);
	up->batch = NULL;
	up->count = up->next = 0;
	up->has_head = false;
}

static void merge_iterator_free(struct merge_iterator *it)
{
	for (size_t u = 0; u < it->count; u++) {
		drop_batch(&it->upstreams[u]);
		bt_message_iterator_put_ref(it->upstreams[u].iterator);
		g_free(it->upstreams[u].stream_name);
	}
	if (it->saved_error)
		bt_error_release(it->saved_error);
	tn_merge_heap_destroy(it->heap);
	g_free(it->upstreams);
	g_free(it);
}

static void merge_iterator_finalize(bt_self_message_iterator *self)
{
	struct merge_iterator *it = bt_self_message_iterator_get_data(self);

	if (it)
		merge_iterator_free(it);
}

static bt_message_iterator_class_initialize_method_status
merge_iterator_initialize(bt_self_message_iterator *self,
		bt_self_message_iterator_configuration *config,
		bt_self_component_port_output *port)
{
	struct merge_component *comp = bt_self_component_get_data(
		bt_self_message_iterator_borrow_component(self));
	uint64_t ports = bt_component_filter_get_input_port_count(
		bt_self_component_filter_as_component_filter(comp->self));
	struct merge_iterator *it = g_new0(struct merge_iterator, 1);
	bool can_seek_forward = true;

	(void) port;
	it->self = self;
	it->context = comp->context;
	it->upstreams = g_new0(struct upstream, ports);
	for (uint64_t i = 0; i < ports; i++) {
		bt_self_component_port_input *input =
			bt_self_component_filter_borrow_input_port_by_index(
				comp->self, i);
		bt_message_iterator_create_from_message_iterator_status status;
		bt_message_iterator *upstream;

		if (!bt_port_is_connected(bt_self_component_port_as_port(
				bt_self_component_port_input_as_self_component_port(
					input))))
			continue;
		status = bt_message_iterator_create_from_message_iterator(self,
			input, &upstream);
		if (status !=
		    BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_OK) {
			merge_iterator_free(it);
			return status ==
				BT_MESSAGE_ITERATOR_CREATE_FROM_MESSAGE_ITERATOR_STATUS_MEMORY_ERROR ?
				BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR :
				BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
		}
		it->upstreams[it->count++].iterator = upstream;
		can_seek_forward = can_seek_forward &&
			bt_message_iterator_can_seek_forward(upstream);
	}
	bt_self_message_iterator_configuration_set_can_seek_forward(config,
		can_seek_forward);
	it->heap = tn_merge_heap_create(it->count, tn_merge_compare_items,
		NULL);
	it->taken = it->last_taken = NONE;
	bt_self_message_iterator_set_data(self, it);
	return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_message_iterator_class_can_seek_beginning_method_status
merge_can_seek_beginning(bt_self_message_iterator *self, bt_bool *can_seek)
{
	struct merge_iterator *it = bt_self_message_iterator_get_data(self);

	*can_seek = BT_TRUE;
	for (size_t u = 0; u < it->count && *can_seek; u++) {
		bt_message_iterator_can_seek_beginning_status status =
			bt_message_iterator_can_seek_beginning(
				it->upstreams[u].iterator, can_seek);

		if (status != BT_MESSAGE_ITERATOR_CAN_SEEK_BEGINNING_STATUS_OK)
			return status ==
				BT_MESSAGE_ITERATOR_CAN_SEEK_BEGINNING_STATUS_MEMORY_ERROR ?
				BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_MEMORY_ERROR :
				BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_ERROR;
	}
	return BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_OK;
}

/* As the muxer: every upstream back to its beginning, the ended ones
 * active again after the others, clocks to be checked again. */
static bt_message_iterator_class_seek_beginning_method_status
merge_seek_beginning(bt_self_message_iterator *self)
{
	struct merge_iterator *it = bt_self_message_iterator_get_data(self);

	for (size_t u = 0; u < it->count; u++) {
		bt_message_iterator_seek_beginning_status status;

		drop_batch(&it->upstreams[u]);
		status = bt_message_iterator_seek_beginning(
			it->upstreams[u].iterator);
		if (status != BT_MESSAGE_ITERATOR_SEEK_BEGINNING_STATUS_OK)
			return status ==
				BT_MESSAGE_ITERATOR_SEEK_BEGINNING_STATUS_MEMORY_ERROR ?
				BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_MEMORY_ERROR :
				status == BT_MESSAGE_ITERATOR_SEEK_BEGINNING_STATUS_AGAIN ?
				BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_AGAIN :
				BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_ERROR;
		it->upstreams[u].ended = false;
		it->upstreams[u].has_latest = false;
		it->upstreams[u].has_latest_event = false;
	}
	tn_merge_heap_restart(it->heap);
	it->filled = false;
	it->taken = it->last_taken = NONE;
	it->expect = EXPECT_ANY;
	if (it->saved_error) {
		bt_error_release(it->saved_error);
		it->saved_error = NULL;
	}
	return BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_OK;
}

/* ---- the class, made once ---- */

static pthread_once_t class_once = PTHREAD_ONCE_INIT;
static bt_component_class_filter *merge_class;

static void make_class(void)
{
	bt_message_iterator_class *iterator_class =
		bt_message_iterator_class_create(merge_next);
	bt_component_class_filter *cls = NULL;

	if (!iterator_class)
		return;
	if (bt_message_iterator_class_set_initialize_method(iterator_class,
			merge_iterator_initialize) ||
	    bt_message_iterator_class_set_finalize_method(iterator_class,
			merge_iterator_finalize) ||
	    bt_message_iterator_class_set_seek_beginning_methods(iterator_class,
			merge_seek_beginning, merge_can_seek_beginning))
		goto end;
	cls = bt_component_class_filter_create("tracenav-merge",
		iterator_class);
	if (!cls)
		goto end;
	if (bt_component_class_filter_set_initialize_method(cls,
			merge_initialize) ||
	    bt_component_class_filter_set_finalize_method(cls,
			merge_finalize) ||
	    bt_component_class_filter_set_input_port_connected_method(cls,
			merge_port_connected)) {
		bt_component_class_filter_put_ref(cls);
		cls = NULL;
		goto end;
	}
	merge_class = cls;
end:
	bt_message_iterator_class_put_ref(iterator_class);
}

int tn_merge_filter_class(const bt_component_class_filter **cls,
		struct tn_error *err)
{
	pthread_once(&class_once, make_class);
	if (!merge_class) {
		bt_current_thread_clear_error();
		tn_error_set(err, "cannot set up the trace reader: out of "
			"memory");
		return -1;
	}
	*cls = merge_class;
	return 0;
}
