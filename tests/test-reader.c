/* test-reader.c - events in time order, all of them, with bounds. */
#include "gen.h"
#include "tap.h"
#include "tracenav/reader.h"

struct counts {
	uint64_t events;
	uint64_t notices;
	uint64_t lost;
	bool ordered;
	int64_t first_ns, last_ns;
};

static bool read_all(const struct tn_trace *trace,
		const struct tn_reader_options *options, struct counts *c)
{
	struct tn_reader *reader;
	struct tn_error err;
	struct tn_event ev;
	enum tn_reader_status status;

	memset(c, 0, sizeof(*c));
	c->ordered = true;
	if (tn_reader_create(trace, options, &reader, &err)) {
		printf("# %s\n", err.message);
		return false;
	}
	while ((status = tn_reader_next(reader, &ev, &err)) == TN_READER_OK) {
		uint64_t count;

		if (ev.kind == TN_EVENT_KIND_EVENT) {
			if (c->events && ev.ns < c->last_ns)
				c->ordered = false;
			if (!c->events)
				c->first_ns = ev.ns;
			c->last_ns = ev.ns;
			c->events++;
		} else {
			c->notices++;
			if (tn_event_get_discarded_count(&ev, &count))
				c->lost += count;
		}
		tn_event_release(&ev);
	}
	tn_reader_destroy(reader);
	if (status == TN_READER_ERROR)
		printf("# %s\n", err.message);
	return status == TN_READER_END;
}

int main(void)
{
	char *path = gen_trace("lost", "--events 30000 --cpus 4 "
		"--packet-size 4096 --lost-every 4 --seed 3");
	struct tn_reader_options options = { 0 };
	struct tn_trace *trace;
	struct tn_error err;
	struct counts c;
	int64_t first = gen_plan_value(path, "first_ns");
	int64_t last = gen_plan_value(path, "last_ns");
	int64_t middle = first + (last - first) / 2;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "opens"))
		return tap_done();
	tap_ok(read_all(trace, NULL, &c), "reads to the end");
	tap_int_eq(c.events, gen_plan_value(path, "events"), "every event");
	tap_ok(c.ordered, "events in time order");
	tap_int_eq(c.first_ns, first, "first event time");
	tap_int_eq(c.last_ns, last, "last event time");
	tap_int_eq(c.lost, gen_plan_value(path, "discarded_events"),
		"discarded-events notices add up to the plan");
	{
		struct counts again;

		/* The first reader was the one the trace opened with; this
		 * one sets a graph up. */
		tap_ok(read_all(trace, NULL, &again) &&
			again.events == c.events && again.lost == c.lost &&
			again.first_ns == c.first_ns &&
			again.last_ns == c.last_ns,
			"a second reader reads the same");
	}

	options.has_begin = true;
	options.begin_ns = middle;
	tap_ok(read_all(trace, &options, &c), "reads from the middle");
	tap_ok(c.first_ns >= middle, "--begin: nothing before the bound");
	tap_int_eq(c.last_ns, last, "--begin: up to the last event");
	tap_ok(c.events > 0 && c.events < (uint64_t) gen_plan_value(path, "events"),
		"--begin: some events, not all");

	options.has_begin = false;
	options.has_end = true;
	options.end_ns = middle;
	{
		struct counts before = c;

		tap_ok(read_all(trace, &options, &c), "reads to the middle");
		tap_ok(c.last_ns <= middle, "--end: nothing after the bound");
		/* Events exactly at the middle are in both halves. */
		tap_ok(c.events + before.events >=
			(uint64_t) gen_plan_value(path, "events") &&
			c.last_ns <= before.first_ns,
			"--begin and --end halves cover the whole");
	}
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
