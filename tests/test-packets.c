/* test-packets.c - packet tables: filling, lookups, and the memo of the
 * magic checks (per table and per mtime, shared by threads). */
#include <glib.h>
#include <pthread.h>

#include "tap.h"
#include "tracenav/packets.h"
#include "src/core/packets-private.h"

static void add(struct tn_packet_tables *tables, const char *file,
		uint64_t count, int64_t first_ns)
{
	int64_t *begin_ns = g_new(int64_t, count);
	int64_t *end_ns = g_new(int64_t, count);

	for (uint64_t k = 0; k < count; k++) {
		begin_ns[k] = first_ns + (int64_t) k * 100;
		end_ns[k] = begin_ns[k] + 99;
	}
	tn_packets_add_table(tables, file, count, begin_ns, end_ns);
}

static void test_tables(void)
{
	struct tn_packet_tables *tables = tn_packets_create();
	char file[] = "/t/channel0_1";
	size_t table = 99;

	tap_ok(tn_packets_get_table_count(tables) == 0 &&
	       !tn_packets_find(tables, "/t/channel0_0", &table) &&
	       table == 99, "a new set is empty");
	add(tables, "/t/channel0_0", 3, -1000);
	add(tables, file, 5, 7000);
	file[0] = 'x';	/* the tables keep their own copy */
	tap_ok(tn_packets_get_table_count(tables) == 2, "two tables");
	tap_ok(tn_packets_find(tables, "/t/channel0_1", &table) && table == 1,
		"found by file");
	tap_ok(!tn_packets_find(tables, "/t/channel0", &table),
		"not found by a prefix");
	tap_str_eq(tn_packets_get_file(tables, 0), "/t/channel0_0",
		"file of table 0");
	tap_ok(tn_packets_get_packet_count(tables, 1) == 5 &&
	       tn_packets_borrow_begin_ns(tables, 1)[4] == 7400 &&
	       tn_packets_borrow_end_ns(tables, 0)[0] == -901,
		"packet counts and times");
	tn_packets_destroy(tables);
	tn_packets_destroy(NULL);
	tap_ok(true, "destroy, and destroy NULL");
}

static void test_memo(void)
{
	struct tn_packet_tables *tables = tn_packets_create();
	const struct tn_packet_tables *shared = tables;

	add(tables, "/t/a", 2, 0);
	add(tables, "/t/b", 2, 0);
	tap_ok(tn_packets_get_magics(shared, 0, 0) ==
	       TN_PACKETS_MAGICS_UNKNOWN, "memo: unknown at first");
	tn_packets_set_magics(shared, 0, 555, TN_PACKETS_MAGICS_FOUND);
	tap_ok(tn_packets_get_magics(shared, 0, 555) ==
	       TN_PACKETS_MAGICS_FOUND, "memo: found, for that mtime");
	tap_ok(tn_packets_get_magics(shared, 0, 556) ==
	       TN_PACKETS_MAGICS_UNKNOWN, "memo: unknown for another mtime");
	tap_ok(tn_packets_get_magics(shared, 1, 555) ==
	       TN_PACKETS_MAGICS_UNKNOWN, "memo: one per table");
	tn_packets_set_magics(shared, 0, 556, TN_PACKETS_MAGICS_MISSING);
	tap_ok(tn_packets_get_magics(shared, 0, 556) ==
	       TN_PACKETS_MAGICS_MISSING &&
	       tn_packets_get_magics(shared, 0, 555) ==
	       TN_PACKETS_MAGICS_UNKNOWN, "memo: the newest check counts");
	tn_packets_destroy(tables);
}

/* Threads reading and writing the memo of shared tables at once (what
 * the slices of the UI, workers and jobs do); under ThreadSanitizer this
 * is where a race would show. */
struct memo_thread {
	const struct tn_packet_tables *tables;
	size_t table;
	bool consistent;
};

static void *hammer_memo(void *data)
{
	struct memo_thread *t = data;

	t->consistent = true;
	for (int64_t i = 0; i < 20000; i++) {
		enum tn_packets_magics found;

		tn_packets_set_magics(t->tables, t->table, i,
			TN_PACKETS_MAGICS_FOUND);
		found = tn_packets_get_magics(t->tables, t->table, i);
		/* Another thread may have checked another mtime since. */
		if (found != TN_PACKETS_MAGICS_FOUND &&
		    found != TN_PACKETS_MAGICS_UNKNOWN)
			t->consistent = false;
	}
	return NULL;
}

static void test_memo_threads(void)
{
	struct tn_packet_tables *tables = tn_packets_create();
	struct memo_thread threads[4];
	pthread_t ids[4];
	bool consistent = true;

	add(tables, "/t/a", 2, 0);
	add(tables, "/t/b", 2, 0);
	for (int i = 0; i < 4; i++) {
		threads[i] = (struct memo_thread) { tables, (size_t) i % 2,
			false };
		pthread_create(&ids[i], NULL, hammer_memo, &threads[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(ids[i], NULL);
		consistent = consistent && threads[i].consistent;
	}
	tap_ok(consistent, "memo: 4 threads on 2 tables at once");
	tn_packets_destroy(tables);
}

int main(void)
{
	test_tables();
	test_memo();
	test_memo_threads();
	return tap_done();
}
