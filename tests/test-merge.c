/* test-merge.c - tracenav's merge of streams: the heap's choices against
 * a plain scan that does what libbabeltrace2 2.0's muxer does, on random
 * inputs; then the merge against the library's muxer on generated traces
 * of many streams and many ties, and on the shared traces: every message
 * (stream and packet bounds included) in the same order. */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/merge.h"
#include "tracenav/reader.h"
#include "src/core/merge-heap.h"
#include "src/core/reader-private.h"

/* ---- random inputs: the heap against the muxer's scan ---- */

/* An item of a random upstream.  Items compare by key (as the muxer's
 * comparison by trace and stream), then kind (notices last); two
 * ordinary items by a small value, often equal (a full tie: the scan
 * order decides); two notices by a difference truncated to an int, as
 * the muxer compares clock values: not transitive. */
struct item {
	bool has_time;
	int64_t ns;
	int key;
	bool notice;
	uint64_t value;
};

static int truncated(uint64_t a, uint64_t b)
{
	uint32_t low = (uint32_t) (a - b);

	return low <= INT32_MAX ? (int) low : -(int) (UINT32_MAX - low) - 1;
}

static int compare_items(const void *pa, const void *pb, void *data)
{
	const struct item *a = pa, *b = pb;

	(void) data;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->notice != b->notice)
		return a->notice ? 1 : -1;
	if (a->notice)
		return truncated(a->value, b->value);
	return a->value < b->value ? -1 : a->value > b->value;
}

struct upstreams {
	size_t count;
	GArray **items;		/* struct item, per upstream */
	size_t *next;		/* the next item to give */
};

static struct item *item_at(const struct upstreams *ups, size_t u, size_t i)
{
	return &g_array_index(ups->items[u], struct item, i);
}

static void make_upstreams(struct upstreams *ups, GRand *rand, size_t count,
		size_t max_items, bool backwards)
{
	ups->count = count;
	ups->items = g_new(GArray *, count);
	ups->next = g_new0(size_t, count);
	for (size_t u = 0; u < count; u++) {
		size_t n = (size_t) g_rand_int_range(rand, 0, (gint32) max_items + 1);
		int key = g_rand_int_range(rand, 0, 3);
		int64_t ns = g_rand_int_range(rand, 0, 4);

		ups->items[u] = g_array_new(FALSE, FALSE, sizeof(struct item));
		for (size_t i = 0; i < n; i++) {
			struct item it = { 0 };

			ns += g_rand_int_range(rand, 0, 3);
			/* Now and then a time going back: the muxer fails. */
			if (backwards && g_rand_int_range(rand, 0, 200) == 0)
				ns -= 5;
			it.has_time = g_rand_int_range(rand, 0, 8) != 0;
			it.ns = ns;
			it.key = key;
			it.notice = g_rand_int_range(rand, 0, 6) == 0;
			it.value = it.notice ? ((uint64_t) g_rand_int(rand) << 32 |
				g_rand_int(rand)) : (uint64_t) g_rand_int_range(rand,
				0, 3);
			g_array_append_val(ups->items[u], it);
		}
	}
}

static void free_upstreams(struct upstreams *ups)
{
	for (size_t u = 0; u < ups->count; u++)
		g_array_free(ups->items[u], TRUE);
	g_free(ups->items);
	g_free(ups->next);
}

/* What the muxer does, plainly: an array of active upstreams scanned
 * for each item, ended ones removed as g_ptr_array_remove_index_fast()
 * does, put back after the active ones when it seeks its beginning. */
struct scan {
	struct upstreams *ups;
	GPtrArray *active, *ended;
	int64_t last;
};

static void scan_restart(struct scan *s)
{
	for (guint i = 0; i < s->ended->len; i++)
		g_ptr_array_add(s->active, s->ended->pdata[i]);
	g_ptr_array_set_size(s->ended, 0);
	memset(s->ups->next, 0, s->ups->count * sizeof(size_t));
	s->last = INT64_MIN;
}

/* 1 with *u, 0 at the end, -1 when the muxer fails. */
static int scan_next(struct scan *s, size_t *u)
{
	struct item *chosen = NULL;
	int64_t chosen_ns = 0;

	for (guint i = 0; i < s->active->len; i++) {
		size_t v = GPOINTER_TO_SIZE(s->active->pdata[i]);

		if (s->ups->next[v] == s->ups->items[v]->len) {
			g_ptr_array_add(s->ended, s->active->pdata[i]);
			g_ptr_array_remove_index_fast(s->active, i);
			i--;
		}
	}
	for (guint i = 0; i < s->active->len; i++) {
		size_t v = GPOINTER_TO_SIZE(s->active->pdata[i]);
		struct item *it = item_at(s->ups, v, s->ups->next[v]);
		int64_t ns = it->has_time ? it->ns : s->last;

		if (!chosen || ns < chosen_ns ||
		    (ns == chosen_ns && compare_items(it, chosen, NULL) < 0)) {
			chosen = it;
			chosen_ns = ns;
			*u = v;
		}
	}
	if (!chosen)
		return 0;
	if (chosen_ns < s->last)
		return -1;
	s->last = chosen_ns;
	s->ups->next[*u]++;
	return 1;
}

/* The merge filter's use of the heap: give an upstream a head, or end
 * it when it has no more items. */
static void heap_refill(struct tn_merge_heap *heap, struct upstreams *ups,
		size_t u)
{
	if (ups->next[u] < ups->items[u]->len) {
		struct item *it = item_at(ups, u, ups->next[u]);

		tn_merge_heap_set_head(heap, u, it->has_time, it->ns, it,
			it->notice);
	} else {
		tn_merge_heap_end(heap, u);
	}
}

static void heap_fill(struct tn_merge_heap *heap, struct upstreams *ups)
{
	size_t i = 0;

	while (i < tn_merge_heap_get_active_count(heap)) {
		size_t u = tn_merge_heap_get_upstream(heap, i);

		heap_refill(heap, ups, u);
		if (tn_merge_heap_get_active_count(heap) > i &&
		    tn_merge_heap_get_upstream(heap, i) == u)
			i++;
	}
}

/* The scan's candidates when the two disagreed (ua's item was taken). */
static void print_heads(const struct scan *s, size_t ua)
{
	printf("#   last time %" PRId64 "\n", s->last);
	for (guint k = 0; k < s->active->len; k++) {
		size_t v = GPOINTER_TO_SIZE(s->active->pdata[k]);
		size_t n = s->ups->next[v] - (v == ua);
		const struct item *it;

		if (n >= s->ups->items[v]->len)
			continue;
		it = item_at(s->ups, v, n);
		printf("#   place %u upstream %zu: %s%" PRId64 " key %d %s "
			"%" PRIu64 "\n", k, v, it->has_time ? "" : "no time, ",
			it->ns, it->key, it->notice ? "notice" : "item",
			it->value);
	}
}

/* As the filter: the upstream whose item went out gets its next head
 * (or ends) only when the next item is asked for, so that a restart in
 * between finds it still active, as the muxer does. */
static int heap_next(struct tn_merge_heap *heap, struct upstreams *ups,
		size_t *pending, size_t *u)
{
	int64_t ns;
	int status;

	if (*pending != SIZE_MAX)
		heap_refill(heap, ups, *pending);
	*pending = SIZE_MAX;
	status = tn_merge_heap_take(heap, u, &ns);
	if (status == 1) {
		ups->next[*u]++;
		*pending = *u;
	}
	return status;
}

/* One random run: the same upstreams merged by the scan and the heap,
 * restarting both now and then.  Returns whether they agree. */
static bool random_run(GRand *rand, size_t count, size_t max_items,
		bool backwards, size_t *taken)
{
	struct upstreams a, b;
	uint32_t seed = g_rand_int(rand);
	GRand *ra = g_rand_new_with_seed(seed), *rb = g_rand_new_with_seed(seed);
	struct scan s;
	struct tn_merge_heap *heap;
	bool same = true;
	int restarts = 0;
	size_t pending = SIZE_MAX;

	make_upstreams(&a, ra, count, max_items, backwards);
	make_upstreams(&b, rb, count, max_items, backwards);
	s.ups = &a;
	s.active = g_ptr_array_new();
	s.ended = g_ptr_array_new();
	s.last = INT64_MIN;
	for (size_t u = 0; u < count; u++)
		g_ptr_array_add(s.active, GSIZE_TO_POINTER(u));
	heap = tn_merge_heap_create(count, compare_items, NULL);
	heap_fill(heap, &b);
	*taken = 0;
	for (;;) {
		size_t ua = 0, ub = 0;
		int sa = scan_next(&s, &ua), sb = heap_next(heap, &b, &pending, &ub);

		if (sa != sb || (sa == 1 && ua != ub)) {
			printf("# after %zu items: scan %d (upstream %zu), "
				"heap %d (upstream %zu)\n", *taken, sa, ua, sb,
				ub);
			print_heads(&s, ua);
			same = false;
			break;
		}
		if (sa != 1)
			break;
		(*taken)++;
		if (restarts < 2 && g_rand_int_range(rand, 0, 500) == 0) {
			restarts++;
			scan_restart(&s);
			tn_merge_heap_restart(heap);
			memset(b.next, 0, count * sizeof(size_t));
			pending = SIZE_MAX;
			heap_fill(heap, &b);
		}
	}
	tn_merge_heap_destroy(heap);
	g_ptr_array_free(s.active, TRUE);
	g_ptr_array_free(s.ended, TRUE);
	free_upstreams(&a);
	free_upstreams(&b);
	g_rand_free(ra);
	g_rand_free(rb);
	return same;
}

static void test_random(void)
{
	GRand *rand = g_rand_new_with_seed(20240601);
	size_t runs = 0, items = 0, failed = 0;

	for (int i = 0; i < 3000 && failed == 0; i++) {
		size_t count = (size_t) g_rand_int_range(rand, 1, 41);
		size_t taken;

		if (!random_run(rand, count, 60, i % 4 == 3, &taken))
			failed++;
		runs++;
		items += taken;
	}
	tap_ok(failed == 0, "heap = scan on %zu random merges (%zu items; "
		"ties, items without time, notices compared non-transitively, "
		"ended upstreams, restarts, times going back)", runs, items);
	for (int i = 0; i < 5 && failed == 0; i++) {
		size_t taken;

		if (!random_run(rand, 2000, 8, false, &taken))
			failed++;
		items = taken;
	}
	tap_ok(failed == 0, "heap = scan with 2000 upstreams");
	g_rand_free(rand);
}

/* ---- traces: the merge against libbabeltrace2's muxer ---- */

/* A line saying what msg is and where it comes from. */
static void describe(GString *out, const bt_message *msg)
{
	const bt_clock_snapshot *cs = NULL;
	const bt_stream *stream = NULL;
	bt_message_type type = bt_message_get_type(msg);
	uint64_t count;

	g_string_append_printf(out, "%d", (int) type);
	switch (type) {
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		stream = bt_message_stream_beginning_borrow_stream_const(msg);
		break;
	case BT_MESSAGE_TYPE_STREAM_END:
		stream = bt_message_stream_end_borrow_stream_const(msg);
		break;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		stream = bt_packet_borrow_stream_const(
			bt_message_packet_beginning_borrow_packet_const(msg));
		if (bt_stream_class_packets_have_beginning_default_clock_snapshot(
				bt_stream_borrow_class_const(stream)))
			cs = bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg);
		break;
	case BT_MESSAGE_TYPE_PACKET_END:
		stream = bt_packet_borrow_stream_const(
			bt_message_packet_end_borrow_packet_const(msg));
		if (bt_stream_class_packets_have_end_default_clock_snapshot(
				bt_stream_borrow_class_const(stream)))
			cs = bt_message_packet_end_borrow_default_clock_snapshot_const(msg);
		break;
	case BT_MESSAGE_TYPE_EVENT:
		stream = bt_event_borrow_stream_const(
			bt_message_event_borrow_event_const(msg));
		if (bt_message_event_borrow_stream_class_default_clock_class_const(msg))
			cs = bt_message_event_borrow_default_clock_snapshot_const(msg);
		g_string_append_printf(out, " %s", bt_event_class_get_name(
			bt_event_borrow_class_const(
				bt_message_event_borrow_event_const(msg))));
		break;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		stream = bt_message_discarded_events_borrow_stream_const(msg);
		if (bt_message_discarded_events_get_count(msg, &count) ==
				BT_PROPERTY_AVAILABILITY_AVAILABLE)
			g_string_append_printf(out, " lost %" PRIu64, count);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		stream = bt_message_discarded_packets_borrow_stream_const(msg);
		break;
	default:
		break;
	}
	if (stream)
		g_string_append_printf(out, " %s/%" PRIu64 "/%" PRIu64,
			bt_trace_get_name(bt_stream_borrow_trace_const(stream)) ?
			bt_trace_get_name(bt_stream_borrow_trace_const(stream)) :
			"-", bt_stream_class_get_id(bt_stream_borrow_class_const(
				stream)), bt_stream_get_id(stream));
	if (cs)
		g_string_append_printf(out, " @%" PRIu64,
			bt_clock_snapshot_get_value(cs));
	g_string_append_c(out, '\n');
}

/* Every message of a reader with the given merge, described; or the
 * failure.  dirs as tn_reader_create_on_dirs(). */
static GString *read_messages(const struct tn_trace *trace,
		enum tn_merge_method method, size_t *count)
{
	GString *out = g_string_new(NULL);
	struct tn_reader *reader;
	struct tn_error err;
	const bt_message *msg;
	enum tn_reader_status status;

	*count = 0;
	tn_merge_set_method(method);
	if (tn_reader_create_on_dirs(trace, NULL, NULL, &reader, &err)) {
		g_string_append_printf(out, "cannot create: %s\n", err.message);
		tn_merge_set_method(TN_MERGE_HEAP);
		return out;
	}
	while ((status = tn_reader_next_message(reader, &msg, &err)) ==
			TN_READER_OK) {
		describe(out, msg);
		bt_message_put_ref(msg);
		(*count)++;
	}
	if (status == TN_READER_ERROR)
		g_string_append(out, "error\n");
	tn_reader_destroy(reader);
	tn_merge_set_method(TN_MERGE_HEAP);
	return out;
}

/* Both merges give the same messages on the trace at path. */
static bool same_messages(const char *path, const char *what)
{
	struct tn_trace *trace;
	struct tn_error err;
	GString *heap, *muxer;
	size_t heap_count, muxer_count;
	bool same;

	if (tn_trace_open(path, &trace, &err)) {
		/* Both fail alike: the trace opens through a reader. */
		tn_merge_set_method(TN_MERGE_BT_MUXER);
		same = tn_trace_open(path, &trace, &err) != 0;
		tn_merge_set_method(TN_MERGE_HEAP);
		if (same)
			return tap_ok(true, "%s: neither merge opens it", what);
		tn_trace_destroy(trace);
		return tap_ok(false, "%s: only the muxer opens it", what);
	}
	heap = read_messages(trace, TN_MERGE_HEAP, &heap_count);
	muxer = read_messages(trace, TN_MERGE_BT_MUXER, &muxer_count);
	if (g_str_has_suffix(muxer->str, "\nerror\n") &&
	    !g_str_has_suffix(heap->str, "\nerror\n") &&
	    heap_count > muxer_count) {
		/* The muxer stops where a stream's time goes back; the
		 * merge reads on (merge-filter.h): the same up to there. */
		g_string_truncate(muxer, muxer->len - strlen("error\n"));
		same = strncmp(heap->str, muxer->str, muxer->len) == 0;
		tap_ok(same, "%s: the same %zu messages as the muxer up to "
			"where it stops (a time going back), then %zu more",
			what, muxer_count, heap_count - muxer_count);
		g_string_append(muxer, "error\n");
	} else {
		same = strcmp(heap->str, muxer->str) == 0;
		tap_ok(same, "%s: the same %zu messages as the muxer", what,
			muxer_count);
	}
	if (!same) {
		const char *a = heap->str, *b = muxer->str;
		int line = 1;

		while (*a && *a == *b) {
			if (*a == '\n')
				line++;
			a++;
			b++;
		}
		printf("#   first difference at message %d (heap %zu, muxer "
			"%zu messages)\n", line, heap_count, muxer_count);
	}
	g_string_free(heap, TRUE);
	g_string_free(muxer, TRUE);
	tn_trace_destroy(trace);
	return same;
}

static void test_generated(void)
{
	static const struct {
		const char *name, *options;
	} traces[] = {
		/* Several hosts with the same clock, runs of equal times
		 * across streams and hosts. */
		{ "hosts-ties", "--events 20000 --cpus 16 --traces 8 "
			"--ties 2 --packet-size 4096 --seed 3" },
		{ "many-streams", "--events 20000 --cpus 64 --traces 6 "
			"--ties 3 --seed 5" },
		/* Lost events and packets: notices tied with events. */
		{ "lost-ties", "--events 30000 --cpus 8 --traces 3 --ties 2 "
			"--packet-size 4096 --lost-every 2 "
			"--lost-packets-every 3 --seed 7" },
		{ "both-domains", "--events 20000 --cpus 4 --traces 4 "
			"--domain both --mix mixed --ties 2 --seed 9" },
		{ "no-index", "--events 10000 --cpus 8 --traces 2 --ties 2 "
			"--no-index --seed 11" },
		{ "no-packet-times", "--events 10000 --cpus 8 --ties 2 "
			"--no-packet-times --lost-every 3 --packet-size 4096 "
			"--seed 13" },
		{ "all-tied", "--events 3000 --cpus 6 --traces 2 --ties 1 "
			"--seed 15" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
		char *path = gen_trace(traces[i].name, traces[i].options);

		same_messages(path, traces[i].name);
		g_free(path);
	}
}

static gint compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every directory of the shared corpus that holds a trace (metadata),
 * and the parents that hold several. */
static void test_shared(void)
{
	const char *srcdir = getenv("top_srcdir");
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	char *root = env ? g_strdup(env) :
		g_strdup_printf("%s/../shared/traces", srcdir ? srcdir : ".");
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);

	if (!g_file_test(root, G_FILE_TEST_IS_DIR)) {
		printf("ok %d # SKIP no shared trace corpus at %s\n",
			++tap_count, root);
		g_free(root);
		g_ptr_array_free(dirs, TRUE);
		return;
	}
	g_ptr_array_add(dirs, g_strdup(root));
	for (guint i = 0; i < dirs->len; i++) {
		GDir *dir = g_dir_open(dirs->pdata[i], 0, NULL);
		const char *name;

		while (dir && (name = g_dir_read_name(dir))) {
			char *path = g_build_filename(dirs->pdata[i], name, NULL);

			if (g_file_test(path, G_FILE_TEST_IS_DIR))
				g_ptr_array_add(dirs, path);
			else
				g_free(path);
		}
		if (dir)
			g_dir_close(dir);
	}
	g_ptr_array_sort(dirs, compare_paths);
	for (guint i = 0; i < dirs->len; i++) {
		const char *path = g_ptr_array_index(dirs, i);

		if (strcmp(path, root) == 0)
			continue;
		same_messages(path, path + strlen(root) + 1);
	}
	g_free(root);
	g_ptr_array_free(dirs, TRUE);
}

int main(void)
{
	test_random();
	test_generated();
	test_shared();
	gen_cleanup();
	return tap_done();
}
