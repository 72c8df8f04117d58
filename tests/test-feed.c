/* test-feed.c - the whole trace read on helper threads (src/core/feed.c)
 * gives the items of a full read, in its order: events and notices,
 * their times, names, streams and traces, on generated traces (one
 * directory split by streams, several hosts split by traces, lost
 * events and packets, runs of equal times) and on the shared ones,
 * with the values of every field of the trace as the records made on
 * the decoding threads hold them (event-record.h), none asked that was
 * not wanted; packet tables gathered on the way; a cancel stops it. */
#include <glib.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "gen.h"
#include "tap.h"
#include "src/core/event-record.h"
#include "src/core/feed.h"
#include "tracenav/core.h"
#include "tracenav/job.h"
#include "tracenav/packets.h"
#include "tracenav/reader.h"

/* The fields of a trace, each as struct tn_field_want for every event
 * (the scope its name says, or any), for as long as the trace. */
static GArray *trace_wants(const struct tn_trace *trace)
{
	const char *const *fields = tn_trace_get_field_names(trace);
	GArray *wants = g_array_new(FALSE, FALSE, sizeof(struct tn_field_want));

	for (size_t i = 0; fields && fields[i]; i++) {
		struct tn_field_want want = { NULL, TN_SCOPE_ANY, fields[i] };
		const char *dot = strchr(fields[i], '.');

		if (fields[i][0] == '$' && dot) {
			if (!tn_field_scope_from_name(fields[i],
					(size_t) (dot - fields[i]), &want.scope))
				continue;
			want.path = dot + 1;
		}
		g_array_append_val(wants, want);
	}
	return wants;
}

/* The fields of wants that ev has, as text. */
static void describe_fields(const struct tn_event *ev, const GArray *wants,
		GString *out)
{
	for (guint i = 0; wants && i < wants->len; i++) {
		const struct tn_field_want *w = &g_array_index(wants,
			struct tn_field_want, i);
		struct tn_field_value v;

		if (!tn_event_find_field(ev, w->scope, w->path, &v))
			continue;
		g_string_append_printf(out, " %s=", w->path);
		switch (v.type) {
		case TN_VALUE_SIGNED:
			g_string_append_printf(out, "%" G_GINT64_FORMAT, v.s);
			break;
		case TN_VALUE_UNSIGNED:
			g_string_append_printf(out, "%" G_GUINT64_FORMAT, v.u);
			break;
		case TN_VALUE_REAL:
			g_string_append_printf(out, "%.17g", v.d);
			break;
		case TN_VALUE_STRING:
			g_string_append_printf(out, "\"%s\"", v.string);
			break;
		default:
			g_string_append(out, "?");
		}
		for (uint64_t k = 0; k < v.label_count; k++)
			g_string_append_printf(out, "/%s", v.labels[k]);
	}
}

/* What identifies an item, as text, with the fields of wants (NULL:
 * none). */
static char *describe(const struct tn_event *ev, const GArray *wants)
{
	uint64_t count = 0;
	GString *fields = g_string_new(NULL);
	char *text;

	describe_fields(ev, wants, fields);
	if (ev->kind != TN_EVENT_KIND_EVENT) {
		tn_event_get_discarded_count(ev, &count);
		text = g_strdup_printf("%d %d %" G_GINT64_FORMAT " %s/%"
			G_GUINT64_FORMAT " lost %" G_GUINT64_FORMAT,
			(int) ev->kind, ev->has_ns, ev->ns,
			tn_event_get_trace_name(ev),
			tn_event_get_stream_id(ev), count);
	} else {
		text = g_strdup_printf("%d %d %" G_GINT64_FORMAT " %s/%"
			G_GUINT64_FORMAT " %s cpu %" G_GINT64_FORMAT "%s",
			(int) ev->kind, ev->has_ns, ev->ns,
			tn_event_get_trace_name(ev),
			tn_event_get_stream_id(ev), tn_event_get_name(ev),
			tn_event_get_cpu(ev), fields->str);
	}
	g_string_free(fields, TRUE);
	return text;
}

/* The items of a full read, described, and how it ended: "" or the
 * failure's message. */
static GPtrArray *read_whole(const struct tn_trace *trace,
		const GArray *wants, char **ending)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	struct tn_reader *reader;
	struct tn_error err;
	struct tn_event ev;

	*ending = g_strdup(err.message);
	if (tn_reader_create(trace, NULL, &reader, &err)) {
		printf("# %s\n", err.message);
		return items;
	}
	g_free(*ending);
	enum tn_reader_status status;

	while ((status = tn_reader_next(reader, &ev, &err)) == TN_READER_OK) {
		g_ptr_array_add(items, describe(&ev, wants));
		tn_event_release(&ev);
	}
	*ending = g_strdup(status == TN_READER_ERROR ? err.message : "");
	tn_reader_destroy(reader);
	return items;
}

/* Read trace with a feed of `parts`, comparing with want; returns the
 * parts it used, or 0 when it failed. */
static unsigned check_feed(const struct tn_trace *trace, const char *name,
		unsigned parts, const GArray *wants, const GPtrArray *want,
		const char *ending)
{
	struct tn_feed *feed;
	struct tn_error err;
	struct tn_event ev;
	guint n = 0, first_diff = G_MAXUINT;
	unsigned used;
	int status;

	uint64_t misses = tn_event_record_get_misses();
	const char *mode = wants ? "every field of the trace" : "no field";

	if (!tap_ok(tn_feed_open(trace, parts, 0, wants ?
			(const struct tn_field_want *) (void *) wants->data :
			NULL, wants ? wants->len : 0, &feed, &err) == 0,
			"%s: a feed of %u parts opens", name, parts))
		return 0;
	used = tn_feed_get_part_count(feed);
	while ((status = tn_feed_next(feed, &ev, &err)) == 1) {
		char *got = describe(&ev, wants);

		if (first_diff == G_MAXUINT && (n >= want->len ||
				strcmp(got, want->pdata[n]))) {
			first_diff = n;
			printf("#   item %u: got  %s\n#   want %s\n", n, got,
				n < want->len ? (char *) want->pdata[n] :
				"(the end)");
		}
		g_free(got);
		n++;
	}
	tap_int_eq(tn_event_record_get_misses() - misses, 0,
		"%s: %u parts: no field asked that was not wanted", name,
		parts);
	if (status < 0)
		printf("#   %s\n", err.message);
	tap_ok(first_diff == G_MAXUINT && n == want->len &&
		(status < 0 ? !strcmp(err.message, ending) : !*ending),
		"%s: %u parts (%u used) give the %u items of a full read, in "
		"its order, with %s, and end as it does%s (got %u)", name,
		parts, used, want->len, mode, *ending ? " (failing)" : "", n);
	tn_feed_destroy(feed);
	return used;
}

/* A sanitizer's build (10 times slower here) checks 3 parts only: the
 * one-part feed is the plain read, and 2 parts split as 3 do. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FIRST_PARTS 3
#else
#define FIRST_PARTS 1
#endif

/* expect_split: 1 when the trace can be split, 0 when not, -1 not
 * checked. */
static void check_trace(const char *path, const char *name,
		int expect_split)
{
	struct tn_trace *trace;
	struct tn_error err;
	GPtrArray *want, *want_fields;
	GArray *wants;
	char *ending, *ending_fields;
	unsigned most = 1;

	if (tn_trace_open(path, &trace, &err)) {
		printf("# %s: %s\n", name, err.message);
		return;
	}
	wants = trace_wants(trace);
	want = read_whole(trace, NULL, &ending);
	want_fields = read_whole(trace, wants, &ending_fields);
	for (unsigned parts = FIRST_PARTS; parts <= 3; parts++) {
		unsigned used = check_feed(trace, name, parts, NULL, want,
			ending);

		most = MAX(most, used);
		check_feed(trace, name, parts, wants, want_fields,
			ending_fields);
	}
	if (expect_split >= 0)
		tap_ok((most > 1) == (expect_split == 1),
			"%s: split (%u parts at most; %s expected)", name, most,
			expect_split ? "some" : "none");
	g_ptr_array_free(want, TRUE);
	g_ptr_array_free(want_fields, TRUE);
	g_array_free(wants, TRUE);
	g_free(ending);
	g_free(ending_fields);
	tn_trace_destroy(trace);
}

static void check_generated(const char *name, const char *options,
		int expect_split)
{
	char *path = gen_trace(name, options);

	check_trace(path, name, expect_split);
	g_free(path);
}

/* Packet tables from a feed of a trace without index files equal those
 * its first packets say: one table a stream file, counted. */
static void check_packets(void)
{
	char *path = gen_trace("noidx", "--events 6000 --cpus 3 "
		"--packet-size 4096 --no-index");
	struct tn_trace *trace;
	struct tn_packet_tables *tables = NULL;
	struct tn_feed *feed;
	struct tn_error err;
	struct tn_event ev;
	uint64_t packets = 0;

	if (tn_trace_open(path, &trace, &err)) {
		tap_ok(false, "noidx: opens (%s)", err.message);
		g_free(path);
		return;
	}
	if (tn_feed_open(trace, 2, TN_FEED_COLLECT_PACKETS, NULL, 0, &feed,
			&err) == 0) {
		tap_int_eq(tn_feed_get_part_count(feed), 1,
			"noidx: gathering packet tables, one part");
		while (tn_feed_next(feed, &ev, &err) == 1)
			;
		tables = tn_feed_take_packets(feed);
		tn_feed_destroy(feed);
	}
	if (tap_ok(tables != NULL, "noidx: packet tables gathered")) {
		tap_int_eq(tn_packets_get_table_count(tables), 3,
			"noidx: a table per stream file");
		for (size_t i = 0; i < tn_packets_get_table_count(tables); i++)
			packets += tn_packets_get_packet_count(tables, i);
		tap_ok(packets >= 6000 * 8 / 4096, "noidx: %" G_GUINT64_FORMAT
			" packets", packets);
	}
	tn_packets_destroy(tables);
	tn_trace_destroy(trace);
	g_free(path);
}

/* A feed run in a job that is cancelled stops with "cancelled". */
struct cancel_run {
	const struct tn_trace *trace;
	uint64_t items;
	char message[TN_ERROR_MAX];
};

static int run_cancelled(struct tn_job *job, void *data, struct tn_error *err)
{
	struct cancel_run *run = data;
	struct tn_feed *feed;
	struct tn_event ev;
	int status;

	if (tn_feed_open(run->trace, 2, 0, NULL, 0, &feed, err))
		return -1;
	while ((status = tn_feed_next(feed, &ev, err)) == 1)
		if (++run->items == 1000)
			tn_job_cancel(job);
	snprintf(run->message, sizeof(run->message), "%s",
		status < 0 ? err->message : "");
	tn_feed_destroy(feed);
	return status < 0 ? -1 : 0;
}

static void check_cancel(void)
{
	char *path = gen_trace("cancel", "--events 200000 --cpus 4 "
		"--packet-size 65536");
	static const struct tn_job_class cls = { "test", run_cancelled, NULL,
		NULL };
	struct cancel_run run = { NULL, 0, "" };
	struct tn_trace *trace;
	struct tn_job *job;
	struct tn_error err;

	if (tn_trace_open(path, &trace, &err) == 0) {
		run.trace = trace;
		if (tn_job_start(&cls, &run, &job, &err) == 0) {
			tn_job_wait(job);
			tn_job_destroy(job);
		}
		tap_ok(run.items < 200000 && strcmp(run.message,
			"cancelled") == 0, "a cancelled feed stops (%"
			G_GUINT64_FORMAT " items, \"%s\")", run.items,
			run.message);
		tn_trace_destroy(trace);
	}
	g_free(path);
}

static void check_shared(void)
{
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	const char *top = getenv("top_srcdir");
	char *root = env ? g_strdup(env) :
		g_strdup_printf("%s/../shared/traces", top ? top : ".");
	const char *suites[] = { "babeltrace2/succeed", "tracecompass" };
	int tried = 0;
	unsigned seen = 0;

	for (size_t s = 0; s < G_N_ELEMENTS(suites); s++) {
		char *suite = g_strdup_printf("%s/%s", root, suites[s]);
		GDir *listing = g_dir_open(suite, 0, NULL);
		const char *name;

		while (listing && (name = g_dir_read_name(listing))) {
			char *path, *what;

			if (!gen_corpus_share(seen++, 0))
				continue;
			path = g_strdup_printf("%s/%s", suite, name);
			what = g_strdup_printf("%s/%s", suites[s], name);
			check_trace(path, what, -1);
			tried++;
			g_free(what);
			g_free(path);
		}
		if (listing)
			g_dir_close(listing);
		g_free(suite);
	}
	if (tried == 0)
		printf("ok %d # SKIP no shared traces under %s\n",
			++tap_count, root);
	g_free(root);
}

int main(void)
{
	char *runtime = g_strdup_printf("%s/runtime", gen_tmpdir());

	/* Keep the user's runtime directory out of the tests. */
	mkdir(runtime, 0700);
	setenv("XDG_RUNTIME_DIR", runtime, 1);
	g_free(runtime);

	check_generated("kernel", "--events 30000 --cpus 4 "
		"--packet-size 4096 --seed 3", 1);
	check_generated("lost", "--events 20000 --cpus 4 --packet-size 4096 "
		"--lost-every 3 --lost-packets-every 5 --seed 5", 1);
	check_generated("ties", "--events 20000 --cpus 5 --packet-size 4096 "
		"--ties 2 --seed 11", 1);
	check_generated("hosts", "--events 20000 --traces 3 --domain both "
		"--cpus 2 --packet-size 4096 --lost-every 4 --ties 2 --seed 6",
		1);
	check_generated("ust", "--events 20000 --domain ust --cpus 3 "
		"--packet-size 4096 --seed 8", 1);
	check_generated("one-stream", "--events 5000 --cpus 1 "
		"--packet-size 4096", 0);
	check_generated("no-times", "--events 5000 --cpus 3 "
		"--packet-size 4096 --no-packet-times", 0);
	check_packets();
	check_cancel();
	check_shared();
	tn_core_thread_cleanup();
	gen_cleanup();
	return tap_done();
}
