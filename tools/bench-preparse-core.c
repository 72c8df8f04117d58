/* bench-preparse-core.c - the preparse's parts on one trace, in
 * process, for tools/bench-preparse.
 *
 *   bench-preparse-core TRACE [RUNS [STEP]]
 *
 * Times (wall and CPU, medians of RUNS, default 3), each from a fresh
 * start: the index build alone (time slices on every core); the one
 * read with no consumer (the decoding threads and the merge alone); the
 * one read with the index; with the index and the state snapshots;
 * with the analyses of the whole trace too; and everything (index,
 * state, analyses, the diagram's pages), which is what `tracenav
 * --batch index` and the event list make.  A run's CPU time less the
 * one read's without consumer is roughly what its consumers cost.
 *
 * Prints "name value" lines: NAME_ms and NAME_cpu_ms, for the one read
 * NAME_decoding_ms and NAME_consuming_ms (the CPU time of the decoding
 * threads and of the consumers' thread), the parts (decoding threads)
 * the one read used, and the peak RSS, with the peak of its anonymous
 * part (what tracenav allocates) and the file pages mapped at that
 * moment (libbabeltrace2 maps up to 8 MiB of each stream file it reads:
 * babeltrace2 -o dummy has them too), sampled every 10 ms.  With STEP
 * (one of the names below, e.g. read_everything), that step alone. */
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tracenav/analysis.h"
#include "tracenav/index.h"
#include "tracenav/preparse.h"
#include "tracenav/seq-pages.h"
#include "tracenav/state-history.h"

#define BENCH_PROGRAM "bench-preparse"
#include "bench-util.h"

/* The peak of the anonymous resident memory, and the file-backed one
 * at that moment, from /proc/self/status (kB). */
struct rss_peak {
	atomic_bool stop;
	long anon_kb, file_kb;
};

static long status_kb(const char *text, const char *field)
{
	const char *at = strstr(text, field);

	return at ? strtol(at + strlen(field), NULL, 10) : -1;
}

static gpointer sample_rss(gpointer data)
{
	struct rss_peak *peak = data;

	while (!atomic_load(&peak->stop)) {
		gchar *text = NULL;

		if (g_file_get_contents("/proc/self/status", &text, NULL,
				NULL)) {
			long anon = status_kb(text, "RssAnon:");
			long file = status_kb(text, "RssFile:");

			if (anon > peak->anon_kb) {
				peak->anon_kb = anon;
				peak->file_kb = file;
			}
		}
		g_free(text);
		g_usleep(10000);
	}
	return NULL;
}

enum what {
	INDEX_ALONE, READ_ONLY, WITH_INDEX, WITH_STATE, WITH_ANALYSES,
	EVERYTHING, WHAT_COUNT,
};

static const char *const names[WHAT_COUNT] = {
	"index_alone", "read_only", "read_index", "read_index_state",
	"read_index_state_analyses", "read_everything",
};

/* Wait for job and fail on anything but done. */
static void finish(struct tn_job *job, const char *what)
{
	struct tn_job_progress progress;

	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE) {
		fprintf(stderr, "bench-preparse: %s: %s\n", what,
			progress.message);
		exit(1);
	}
}

static unsigned parts_used;

/* The CPU time of a run's two sides (s). */
struct sides {
	double decoding, consuming;
};

static void run(const struct tn_trace *trace, enum what what,
		struct sides *sides)
{
	struct tn_preparse_request request = { .parts = 0 };
	struct tn_state_pass_observer observer;
	struct tn_state_snapshots *snapshots = NULL;
	struct tn_seq_pages *pages = NULL;
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;

	if (what == INDEX_ALONE) {
		bench_check(tn_index_build_start(trace, 0, &job, &err), &err);
		finish(job, names[what]);
		tn_index_destroy(tn_index_build_take(job));
		tn_job_destroy(job);
		return;
	}
	request.index = what >= WITH_INDEX;
	if (what >= WITH_STATE) {
		snapshots = tn_state_snapshots_create();
		request.snapshots = snapshots;
	}
	if (what >= WITH_ANALYSES) {
		tn_analysis_observe(&observer,
			tn_trace_get_stream_bytes(trace));
		request.observer = &observer;
	}
	if (what >= EVERYTHING) {
		pages = tn_seq_pages_create();
		request.pages = pages;
	}
	bench_check(tn_preparse_start(trace, &request, &job, &err), &err);
	finish(job, names[what]);
	parts_used = tn_preparse_get_part_count(job);
	tn_preparse_get_cpu(job, &sides->decoding, &sides->consuming);
	index = tn_preparse_take_index(job);
	tn_job_destroy(job);
	tn_index_destroy(index);
	tn_state_snapshots_destroy(snapshots);
	tn_seq_pages_destroy(pages);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	const char *only = argc > 3 ? argv[3] : NULL;
	struct tn_trace *trace;
	struct tn_error err;
	struct rusage usage;
	struct rss_peak rss = { false, 0, 0 };
	GThread *rss_thread;
	int known = 0;

	for (int w = 0; only && w < WHAT_COUNT; w++)
		known += strcmp(only, names[w]) == 0;
	if (argc < 2 || runs < 1 || (only && !known)) {
		fprintf(stderr, "usage: bench-preparse-core TRACE [RUNS "
			"[STEP]]\n");
		return 2;
	}
	bench_check(tn_trace_open(argv[1], &trace, &err), &err);
	rss_thread = g_thread_new("rss", sample_rss, &rss);
	for (int w = 0; w < WHAT_COUNT; w++) {
		if (only && strcmp(only, names[w]) != 0)
			continue;
		double *wall = g_new(double, runs), *cpu = g_new(double, runs);
		double *decoding = g_new(double, runs);
		double *consuming = g_new(double, runs);

		for (int r = 0; r < runs; r++) {
			double t0 = bench_now_ms(), c0 = bench_cpu_ms();
			struct sides sides = { 0, 0 };

			run(trace, (enum what) w, &sides);
			wall[r] = bench_now_ms() - t0;
			cpu[r] = bench_cpu_ms() - c0;
			decoding[r] = sides.decoding * 1e3;
			consuming[r] = sides.consuming * 1e3;
		}
		printf("%s_ms %.0f\n", names[w], bench_median(wall, runs));
		printf("%s_cpu_ms %.0f\n", names[w], bench_median(cpu, runs));
		if (w != INDEX_ALONE) {
			printf("%s_decoding_ms %.0f\n", names[w],
				bench_median(decoding, runs));
			printf("%s_consuming_ms %.0f\n", names[w],
				bench_median(consuming, runs));
		}
		fflush(stdout);
		g_free(wall);
		g_free(cpu);
		g_free(decoding);
		g_free(consuming);
	}
	printf("parts %u\n", parts_used);
	getrusage(RUSAGE_SELF, &usage);
	printf("peak_rss_mb %.1f\n", usage.ru_maxrss / 1024.0);
	atomic_store(&rss.stop, true);
	g_thread_join(rss_thread);
	printf("peak_anon_rss_mb %.1f\n", rss.anon_kb / 1024.0);
	printf("file_rss_at_peak_anon_mb %.1f\n", rss.file_kb / 1024.0);
	tn_trace_destroy(trace);
	return 0;
}
