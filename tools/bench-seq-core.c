/* bench-seq-core.c - the sequence diagram's page times on one trace, for
 * tools/bench-seq.
 *
 *   bench-seq-core TRACE [SAMPLES [RULES]]
 *
 * At SAMPLES (default 31) random times of the trace, the page around
 * the event there (seqdiag's: 8 messages before, 24 from it) loaded and
 * drawn at 120 columns, as seqdiag does: first without the index of
 * pages (windows that grow before the position), then after the page
 * pass (its time, and the pages it made), with it.  Prints "name value"
 * lines; times in ms (median and p90).  RULES: a sequence diagram
 * rule file to read the messages with (a trace whose messages are rare
 * shows what the index is for). */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracenav/seq-pages.h"
#include "tracenav/seq-render.h"
#include "tracenav/seq-rules.h"
#include "tracenav/seq-window.h"

#define BENCH_PROGRAM "bench-seq-core"
#include "bench-util.h"

/* Load and draw the page at each position: the times in ms. */
static int time_pages(const struct tn_seq_source *source,
		const struct tn_position *at, int count, double *ms,
		uint64_t *events)
{
	struct tn_seq_render_options options = { .width = 120, .ascii = true };
	struct tn_error err;

	*events = 0;
	for (int i = 0; i < count; i++) {
		struct tn_seq_page page;
		struct tn_seq_drawing *drawing;
		double t0 = bench_now_ms();

		if (tn_seq_page_load_from(source, &at[i],
				&tn_seq_default_limits, NULL, &page, &err)) {
			fprintf(stderr, "bench-seq: %s\n", err.message);
			return -1;
		}
		options.has_selected = page.has_selected;
		options.selected = page.selected;
		drawing = tn_seq_render(page.model, &options);
		ms[i] = bench_now_ms() - t0;
		*events += page.events_read;
		tn_seq_drawing_destroy(drawing);
		tn_seq_page_fini(&page);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int samples = argc > 2 ? atoi(argv[2]) : 31;
	struct tn_seq_source source = { 0 };
	struct tn_seq_rules *rules = NULL;
	struct tn_position *at;
	struct tn_trace *trace;
	struct tn_seq_pages *pages;
	struct tn_job *job;
	struct tn_error err;
	int64_t begin, end;
	uint64_t events, messages = 0;
	double *ms, t0;

	if (argc < 2 || samples < 1) {
		fprintf(stderr, "usage: bench-seq-core TRACE [SAMPLES]\n");
		return 2;
	}
	if (tn_trace_open(argv[1], &trace, &err) ||
	    !tn_trace_get_time_range(trace, &begin, &end)) {
		fprintf(stderr, "bench-seq: cannot read %s\n", argv[1]);
		return 1;
	}
	source.trace = trace;
	if (argc > 3 && tn_seq_rules_load(argv[3], &rules, &err)) {
		fprintf(stderr, "bench-seq: %s\n", err.message);
		return 2;
	}
	source.rules = rules;
	at = g_new0(struct tn_position, samples);
	ms = g_new(double, samples);
	srand(7);
	for (int i = 0; i < samples; i++)
		at[i].ns = begin + (int64_t) ((double) rand() / RAND_MAX *
			(double) (end - begin));

	if (time_pages(&source, at, samples, ms, &events))
		return 1;
	printf("page_without_index_median_ms %.1f\n",
		bench_median(ms, samples));
	printf("page_without_index_p90_ms %.1f\n",
		bench_quantile(ms, samples, 0.9));
	printf("page_without_index_events %" PRIu64 "\n", events / samples);

	pages = tn_seq_pages_create();
	t0 = bench_now_ms();
	if (tn_seq_pages_pass_start(&source, pages, &job, &err)) {
		fprintf(stderr, "bench-seq: %s\n", err.message);
		return 1;
	}
	tn_job_wait(job);
	tn_job_destroy(job);
	tn_seq_pages_is_complete(pages, &messages);
	printf("page_pass_s %.2f\n", (bench_now_ms() - t0) / 1e3);
	printf("messages %" PRIu64 "\n", messages);
	printf("pages %zu\n", tn_seq_pages_get_count(pages));

	source.pages = pages;
	if (time_pages(&source, at, samples, ms, &events))
		return 1;
	printf("page_with_index_median_ms %.1f\n", bench_median(ms, samples));
	printf("page_with_index_p90_ms %.1f\n",
		bench_quantile(ms, samples, 0.9));
	printf("page_with_index_events %" PRIu64 "\n", events / samples);

	tn_seq_pages_destroy(pages);
	tn_seq_rules_destroy(rules);
	tn_trace_destroy(trace);
	g_free(at);
	g_free(ms);
	return 0;
}
