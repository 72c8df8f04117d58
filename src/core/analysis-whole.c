/* analysis-whole.c - every analysis of the whole trace, computed by the
 * state pass as it reads the trace (an observer of the pass: one
 * accumulator per analysis, fed the same events and intervals as the
 * providers' state makes them) and kept with the snapshots as
 * "analysis/NAME" (analysis-save.c's bytes), so that an analysis of the
 * whole trace reads nothing once the pass is done (or the cache holds
 * its snapshots).  The whole trace runs from its first event to its
 * last, as tn_session_get_range() has it.  The timeline's accumulator,
 * in its summary form (timeline-summary.h), is fed the same way and
 * kept as "timeline/summary". */
#include "src/core/analysis-private.h"
#include "tracenav/job.h"

struct whole {
	size_t count;
	void *accs[8];
	bool started;
	int64_t first_ns, last_ns;
	uint64_t events;
	uint64_t trace_bytes;	/* the trace's stream bytes */
	struct tn_aevent_memo memo;
	/* What each attribute is, and the quarks looked up, for all the
	 * analyses: they read the intervals of a few kinds (tn_akind)
	 * alone, so the others are left out once for all of them. */
	struct tn_alookup *look;
	/* The timelines' summary (the timeline's accumulator with no
	 * buckets): kept as "timeline/summary", not as an analysis. */
	void *timeline;
};

/* The accumulators begin at the first event: their range starts there. */
static void start(struct whole *w, int64_t ns)
{
	struct tn_analysis_span span = { ns, INT64_MAX, ns, true, w->look,
		INT64_MAX, 0, w->trace_bytes };

	for (size_t i = 0; i < w->count; i++)
		w->accs[i] = tn_analysis_classes[i]->create(&span);
	w->timeline = tn_analysis_timeline.create(&span);
	w->started = true;
	w->first_ns = ns;
}

static int on_event(void *data, const struct tn_state *state,
		const struct tn_row *row)
{
	struct whole *w = data;
	enum tn_aevent kind = tn_aevent_of_event(&w->memo, &row->ev);

	if (!w->started)
		start(w, row->pos.ns);
	for (size_t i = 0; i < w->count; i++)
		if (tn_analysis_classes[i]->event)
			tn_analysis_classes[i]->event(w->accs[i], state, row,
				kind);
	tn_analysis_timeline.event(w->timeline, state, row, kind);
	w->last_ns = row->pos.ns;
	w->events++;
	return 0;
}

static void on_interval(void *data, const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start_stamp,
		const struct tn_state_stamp *end)
{
	struct whole *w = data;
	enum tn_akind kind;

	if (!w->started ||
	    (kind = tn_akinds_get(&w->look->kinds, state, quark)) == AK_OTHER)
		return;
	for (size_t i = 0; i < w->count; i++)
		if (tn_analysis_classes[i]->interval_kinds & AK_BIT(kind))
			tn_analysis_classes[i]->interval(w->accs[i], state,
				quark, value, start_stamp, end);
	if (tn_analysis_timeline.interval_kinds & AK_BIT(kind))
		tn_analysis_timeline.interval(w->timeline, state, quark, value,
			start_stamp, end);
}

static void on_end(void *data, const struct tn_state *state)
{
	struct whole *w = data;

	for (size_t i = 0; w->started && i < w->count; i++)
		if (tn_analysis_classes[i]->end)
			tn_analysis_classes[i]->end(w->accs[i], state,
				w->last_ns);
	if (w->started)
		tn_analysis_timeline.end(w->timeline, state, w->last_ns);
}

/* The reports of the analyses, made at the end of the pass, each on a
 * helper thread of its own, and the timelines' summary taken on one
 * more (each reads only its own accumulator: the largest report,
 * syscallstats, sorts a row per thread and call, ~0.3 s on a 10 M-event
 * kernel trace; the summary waits for its helper's last records). */
struct reports {
	struct whole *w;
	struct tn_analysis_span range;
	GBytes *blobs[G_N_ELEMENTS(((struct whole *) NULL)->accs)];
	/* The timelines' summary, taken beside the reports (one more task
	 * after them: it too reads only its own accumulator). */
	bool timeline_taken;
	GBytes *timeline;
};

static int report_one(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct reports *r = data;
	const struct tn_analysis_class *cls;
	struct tn_analysis_result *result;
	GByteArray *buf;

	(void) fanout;
	(void) err;
	if (i == r->w->count) {
		r->timeline = tn_analysis_timeline_take_summary(
			r->w->timeline);
		r->timeline_taken = true;
		return 0;
	}
	cls = tn_analysis_classes[i];
	result = tn_analysis_result_new(cls->name, r->w->first_ns,
		r->w->last_ns);
	buf = g_byte_array_new();
	result->events = r->w->events;
	result->slices = 1;
	cls->report(r->w->accs[i], &r->range, result);
	tn_analysis_result_save(result, buf);
	r->blobs[i] = g_byte_array_free_to_bytes(buf);
	tn_analysis_result_destroy(result);
	return 0;
}

static void finish(void *data, struct tn_state_snapshots *snapshots)
{
	struct whole *w = data;
	struct reports r = { w, { w->first_ns, w->last_ns, w->first_ns, true,
		w->look, w->last_ns, 0, w->trace_bytes }, { NULL }, false,
		NULL };
	struct tn_error err;

	if (!w->started)
		return;
	/* A helper that could not start leaves its report to this thread. */
	tn_fanout_run((unsigned) w->count + 1, report_one, &r, &err);
	for (size_t i = 0; i < w->count; i++) {
		char *name = g_strdup_printf("analysis/%s",
			tn_analysis_classes[i]->name);

		if (!r.blobs[i])
			report_one(NULL, &r, (unsigned) i, &err);
		tn_state_snapshots_set_extra(snapshots, name, r.blobs[i]);
		g_bytes_unref(r.blobs[i]);
		g_free(name);
	}
	if (!r.timeline_taken)
		report_one(NULL, &r, (unsigned) w->count, &err);
	tn_state_snapshots_set_extra(snapshots, "timeline/summary",
		r.timeline);
	g_bytes_unref(r.timeline);
}

static void destroy(void *data)
{
	struct whole *w = data;

	for (size_t i = 0; w->started && i < w->count; i++)
		tn_analysis_classes[i]->destroy(w->accs[i]);
	if (w->started)
		tn_analysis_timeline.destroy(w->timeline);
	tn_alookup_free(w->look);
	g_free(w);
}

void tn_analysis_observe(struct tn_state_pass_observer *observer,
		uint64_t trace_bytes)
{
	struct whole *w = g_new0(struct whole, 1);

	w->trace_bytes = trace_bytes;
	w->look = tn_alookup_new();
	while (tn_analysis_classes[w->count] &&
	       w->count < G_N_ELEMENTS(w->accs))
		w->count++;
	observer->hooks.event = on_event;
	observer->hooks.interval = on_interval;
	observer->hooks.end = on_end;
	observer->add_wants = tn_analysis_add_wants;
	observer->data = w;
	observer->finish = finish;
	observer->destroy = destroy;
}

/* What the analyses read of the events (analysis-*.c), beside the
 * state. */
static const struct tn_field_want wants[] = {
	{ "sched_switch", TN_SCOPE_PAYLOAD, "prev_tid" },
	{ "irq_handler_entry", TN_SCOPE_PAYLOAD, "irq" },
	{ "irq_handler_entry", TN_SCOPE_PAYLOAD, "name" },
	{ "sched_wak*", TN_SCOPE_PAYLOAD, "tid" },
};

void tn_analysis_add_wants(GArray *out)
{
	g_array_append_vals(out, wants, G_N_ELEMENTS(wants));
}
