/* packets.c - the packet tables of a trace (see packets.h) and the memo
 * of their magic checks (packets-private.h). */
#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "packets-private.h"

struct packet_table {
	char *file;		/* the stream file's real path */
	uint64_t count;		/* at least 1 */
	int64_t *begin_ns, *end_ns;	/* count of each */
};

struct magics_memo {
	enum tn_packets_magics found;
	int64_t mtime_ns;
};

/* Written by any thread through const tables: kept apart from them, so
 * that no const is cast away, and behind a pthread mutex (one that
 * ThreadSanitizer sees). */
struct memo {
	pthread_mutex_t lock;
	GArray *entries;	/* struct magics_memo, one per table */
};

struct tn_packet_tables {
	GArray *tables;		/* struct packet_table; immutable once shared */
	struct memo *memo;
};

struct tn_packet_tables *tn_packets_create(void)
{
	struct tn_packet_tables *tables = g_new0(struct tn_packet_tables, 1);

	tables->tables = g_array_new(FALSE, FALSE,
		sizeof(struct packet_table));
	tables->memo = g_new0(struct memo, 1);
	pthread_mutex_init(&tables->memo->lock, NULL);
	tables->memo->entries = g_array_new(FALSE, TRUE,
		sizeof(struct magics_memo));
	return tables;
}

void tn_packets_destroy(struct tn_packet_tables *tables)
{
	if (!tables)
		return;
	for (guint i = 0; i < tables->tables->len; i++) {
		struct packet_table *table = &g_array_index(tables->tables,
			struct packet_table, i);

		g_free(table->file);
		g_free(table->begin_ns);
		g_free(table->end_ns);
	}
	g_array_free(tables->tables, TRUE);
	pthread_mutex_destroy(&tables->memo->lock);
	g_array_free(tables->memo->entries, TRUE);
	g_free(tables->memo);
	g_free(tables);
}

void tn_packets_add_table(struct tn_packet_tables *tables, const char *file,
		uint64_t count, int64_t *begin_ns, int64_t *end_ns)
{
	struct packet_table table = {
		.file = g_strdup(file),
		.count = count,
		.begin_ns = begin_ns,
		.end_ns = end_ns,
	};
	struct magics_memo unknown = { TN_PACKETS_MAGICS_UNKNOWN, 0 };

	g_array_append_val(tables->tables, table);
	pthread_mutex_lock(&tables->memo->lock);
	g_array_append_val(tables->memo->entries, unknown);
	pthread_mutex_unlock(&tables->memo->lock);
}

size_t tn_packets_get_table_count(const struct tn_packet_tables *tables)
{
	return tables->tables->len;
}

static const struct packet_table *table_at(
		const struct tn_packet_tables *tables, size_t table)
{
	return &g_array_index(tables->tables, struct packet_table, table);
}

const char *tn_packets_get_file(const struct tn_packet_tables *tables,
		size_t table)
{
	return table_at(tables, table)->file;
}

uint64_t tn_packets_get_packet_count(const struct tn_packet_tables *tables,
		size_t table)
{
	return table_at(tables, table)->count;
}

const int64_t *tn_packets_borrow_begin_ns(
		const struct tn_packet_tables *tables, size_t table)
{
	return table_at(tables, table)->begin_ns;
}

const int64_t *tn_packets_borrow_end_ns(
		const struct tn_packet_tables *tables, size_t table)
{
	return table_at(tables, table)->end_ns;
}

bool tn_packets_find(const struct tn_packet_tables *tables, const char *file,
		size_t *table)
{
	for (size_t i = 0; i < tables->tables->len; i++) {
		if (strcmp(table_at(tables, i)->file, file) == 0) {
			*table = i;
			return true;
		}
	}
	return false;
}

enum tn_packets_magics tn_packets_get_magics(
		const struct tn_packet_tables *tables, size_t table,
		int64_t mtime_ns)
{
	struct memo *memo = tables->memo;
	struct magics_memo entry;

	pthread_mutex_lock(&memo->lock);
	entry = g_array_index(memo->entries, struct magics_memo, table);
	pthread_mutex_unlock(&memo->lock);
	return entry.mtime_ns == mtime_ns ? entry.found :
		TN_PACKETS_MAGICS_UNKNOWN;
}

void tn_packets_set_magics(const struct tn_packet_tables *tables,
		size_t table, int64_t mtime_ns, enum tn_packets_magics found)
{
	struct memo *memo = tables->memo;
	struct magics_memo *entry;

	pthread_mutex_lock(&memo->lock);
	entry = &g_array_index(memo->entries, struct magics_memo, table);
	entry->found = found;
	entry->mtime_ns = mtime_ns;
	pthread_mutex_unlock(&memo->lock);
}
