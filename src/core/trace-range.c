/* trace-range.c - the packets' time range of a trace, from src.ctf.fs's
 * trace-infos queries (see trace-object.h), and its getters
 * (tn_trace_get_time_range(), tn_trace_peek_time_range()).
 *
 * The time range from the packets: src.ctf.fs's "babeltrace.trace-infos"
 * query reads no event, but parses the metadata again, and reads every
 * packet header of the stream files without packet index, and fixes the
 * indexes of some tracers up, which decodes events: the path on which
 * libbabeltrace2 2.0.4 can abort, so it runs in a child process
 * (ctf-query.h).  Started before the probe when the metadata's env says
 * that the indexes will need fixing up (trace->fixups_likely), else
 * after it (trace-probe.c), it runs on the other core meanwhile; its
 * answer is only waited for when the range is first asked for
 * (tn_trace_get_time_range()), which the first event does not need; the
 * event list's first screen asks without waiting
 * (tn_trace_peek_time_range()), and shows the range once found.
 */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>

#include "ctf-query.h"
#include "tracenav/sync.h"
#include "trace-object.h"
#include "trace-private.h"

/* Widen range with the times begin and end. */
void tn_trace_range_widen(struct trace_range *range, int64_t begin, int64_t end)
{
	if (!range->has || begin < range->begin_ns)
		range->begin_ns = begin;
	if (!range->has || end > range->end_ns)
		range->end_ns = end;
	range->has = true;
}

/* The range of group in shared, made when first asked for. */
static struct trace_range *group_range(struct trace_shared *shared,
		size_t group)
{
	if (group >= shared->group_ranges->len)
		g_array_set_size(shared->group_ranges, group + 1);
	return &g_array_index(shared->group_ranges, struct trace_range,
		group);
}

void tn_trace_range_widen_group(struct trace_shared *shared, size_t group,
		int64_t begin, int64_t end)
{
	tn_trace_range_widen(&shared->range, begin, end);
	tn_trace_range_widen(group_range(shared, group), begin, end);
}

/* Widen the range with the "range-ns" map of a stream: to, and group's
 * in shared when there is one. */
static void widen_range(struct trace_range *to, struct trace_shared *shared,
		size_t group, const bt_value *range)
{
	const bt_value *begin, *end;

	if (!range)
		return;
	if (!bt_value_is_map(range))
		return;
	begin = bt_value_map_borrow_entry_value_const(range, "begin");
	end = bt_value_map_borrow_entry_value_const(range, "end");
	if (!begin || !end || !bt_value_is_signed_integer(begin) ||
	    !bt_value_is_signed_integer(end))
		return;
	tn_trace_range_widen(to, bt_value_integer_signed_get(begin),
		bt_value_integer_signed_get(end));
	if (shared)
		tn_trace_range_widen(group_range(shared, group),
			bt_value_integer_signed_get(begin),
			bt_value_integer_signed_get(end));
}

struct trace_infos *tn_trace_infos_start(const struct tn_trace *trace,
		bool held)
{
	struct trace_infos *ti = g_new0(struct trace_infos, 1);
	uint64_t stream_bytes = tn_trace_get_stream_bytes(trace);

	ti->count = trace->groups->len;
	ti->queries = g_new0(struct tn_ctf_query, ti->count);
	for (guint g = 0; g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];
		bt_value *params = bt_value_map_create(), *inputs = NULL;

		bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
		for (guint i = 0; i < group->dirs->len; i++)
			bt_value_array_append_string_element(inputs,
				tn_trace_get_group_read_dir(trace, g, i));
		ti->queries[g].object = "babeltrace.trace-infos";
		ti->queries[g].params = params;
		ti->queries[g].where = g_strdup_printf("%s: cannot read the "
			"packets' time range", (char *) group->dirs->pdata[0]);
		ti->queries[g].timeout_ms = TN_CTF_TRACE_INFOS_TIMEOUT_MS +
			stream_bytes / TN_CTF_TRACE_INFOS_BYTES_PER_MS;
	}
	ti->run = held ? tn_ctf_queries_start_held(ti->queries, ti->count) :
		tn_ctf_queries_start(ti->queries, ti->count);
	return ti;
}

void tn_trace_infos_free(struct trace_infos *ti)
{
	for (size_t g = 0; g < ti->count; g++)
		tn_ctf_query_fini(&ti->queries[g]);
	g_free(ti->queries);
	g_free(ti);
}

/* Not needed after all (NULL-safe). */
void tn_trace_infos_abandon(struct trace_infos *ti)
{
	if (!ti)
		return;
	tn_ctf_queries_abandon(ti->run);
	tn_trace_infos_free(ti);
}

int tn_trace_infos_finish(struct trace_range *range,
		struct trace_shared *shared, struct trace_infos *ti,
		size_t *streams)
{
	int status = 0;

	tn_ctf_queries_finish(ti->run);
	if (streams)
		*streams = 0;
	for (size_t g = 0; g < ti->count; g++) {
		const bt_value *result = ti->queries[g].result;

		if (!result || !bt_value_is_array(result))
			status = -1;
		for (uint64_t t = 0; result && bt_value_is_array(result) &&
		     t < bt_value_array_get_length(result); t++) {
			const bt_value *info =
				bt_value_array_borrow_element_by_index_const(
					result, t);
			const bt_value *list = bt_value_is_map(info) ?
				bt_value_map_borrow_entry_value_const(info,
					"stream-infos") : NULL;

			if (!list || !bt_value_is_array(list)) {
				status = -1;
				continue;
			}
			for (uint64_t i = 0; i < bt_value_array_get_length(list);
			     i++) {
				const bt_value *stream =
					bt_value_array_borrow_element_by_index_const(
						list, i);

				if (streams)
					(*streams)++;
				if (bt_value_is_map(stream))
					widen_range(range, shared, g,
						bt_value_map_borrow_entry_value_const(
							stream, "range-ns"));
			}
		}
	}
	tn_trace_infos_free(ti);
	return status;
}

struct trace_range tn_trace_sync_range(const struct tn_trace *trace)
{
	const GArray *ranges = trace->shared->group_ranges;
	struct trace_range range = { 0 };

	for (guint g = 0; g < ranges->len; g++) {
		const struct trace_range *r = &g_array_index(ranges,
			struct trace_range, g);
		const struct tn_sync_transform *tr =
			tn_trace_get_group_transform(trace, g);

		if (!r->has)
			continue;
		if (tr)
			tn_trace_range_widen(&range,
				tn_sync_transform_apply(tr, r->begin_ns),
				tn_sync_transform_apply(tr, r->end_ns));
		else
			tn_trace_range_widen(&range, r->begin_ns, r->end_ns);
	}
	return range;
}

/* range, as tn_trace_get_time_range() gives it. */
static bool give_range(const struct trace_range *range, int64_t *begin_ns,
		int64_t *end_ns)
{
	if (!range->has)
		return false;
	*begin_ns = range->begin_ns;
	*end_ns = range->end_ns;
	return true;
}

bool tn_trace_get_time_range(const struct tn_trace *trace, int64_t *begin_ns,
		int64_t *end_ns)
{
	struct trace_shared *shared = trace->shared;
	struct trace_range range;

	pthread_mutex_lock(&shared->range_lock);
	if (atomic_load(&shared->pending)) {
		tn_trace_infos_finish(&shared->range, shared,
			atomic_load(&shared->pending), NULL);
		atomic_store(&shared->pending, NULL);
	}
	range = trace->sync ? tn_trace_sync_range(trace) : shared->range;
	pthread_mutex_unlock(&shared->range_lock);
	return give_range(&range, begin_ns, end_ns);
}

void tn_trace_want_time_range(const struct tn_trace *trace)
{
	struct trace_shared *shared = trace->shared;
	struct trace_infos *ti;

	/* The lock held by another thread: that one waits for the
	 * answer, and released the query to get it. */
	if (!atomic_load(&shared->pending) ||
	    pthread_mutex_trylock(&shared->range_lock) != 0)
		return;
	ti = atomic_load(&shared->pending);
	if (ti)
		tn_ctf_queries_release(ti->run);
	pthread_mutex_unlock(&shared->range_lock);
}

bool tn_trace_time_range_pending(const struct tn_trace *trace)
{
	struct trace_shared *shared = trace->shared;
	struct trace_infos *ti;
	bool pending;

	if (pthread_mutex_trylock(&shared->range_lock) != 0)
		return true;
	ti = atomic_load(&shared->pending);
	pending = ti && !tn_ctf_queries_ended(ti->run);
	pthread_mutex_unlock(&shared->range_lock);
	return pending;
}

bool tn_trace_peek_time_range(const struct tn_trace *trace,
		int64_t *begin_ns, int64_t *end_ns, bool *pending)
{
	struct trace_shared *shared = trace->shared;
	struct trace_infos *ti;
	struct trace_range range;

	/* Another thread holds the lock while it waits for the queries. */
	if (pthread_mutex_trylock(&shared->range_lock) != 0) {
		*pending = true;
		return false;
	}
	ti = atomic_load(&shared->pending);
	if (ti && !tn_ctf_queries_ended(ti->run)) {
		pthread_mutex_unlock(&shared->range_lock);
		*pending = true;
		return false;
	}
	if (ti) {
		tn_trace_infos_finish(&shared->range, shared, ti, NULL);
		atomic_store(&shared->pending, NULL);
	}
	range = trace->sync ? tn_trace_sync_range(trace) : shared->range;
	pthread_mutex_unlock(&shared->range_lock);
	*pending = false;
	return give_range(&range, begin_ns, end_ns);
}

