/* test-trace.c - finding traces under a path and what their metadata
 * says, checked against the plans of generated traces. */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gen.h"
#include "src/core/trace-private.h"
#include "tap.h"
#include "tracenav/trace.h"

static struct tn_trace *open_ok(const char *path, const char *what)
{
	struct tn_trace *trace = NULL;
	struct tn_error err;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "%s: opens", what))
		printf("#   %s\n", err.message);
	return trace;
}

/* The metadata's event names: sorted, once each, and every name the
 * plan counts events of is there. */
static void check_event_names(const struct tn_trace *trace, const char *path)
{
	const char *const *names = tn_trace_get_event_names(trace);
	char *plan_path = g_strdup_printf("%s.plan", path);
	char *plan = NULL;
	bool sorted = true, all = true;
	size_t n = 0;

	for (; names[n]; n++)
		if (n && strcmp(names[n - 1], names[n]) >= 0)
			sorted = false;
	tap_ok(n > 0 && sorted, "event names: %zu, sorted, each once", n);
	if (g_file_get_contents(plan_path, &plan, NULL, NULL)) {
		char **lines = g_strsplit(plan, "\n", -1);

		for (char **l = lines; *l; l++) {
			char **words = g_strsplit(*l, " ", 3);

			if (words[0] && !strcmp(words[0], "event_count") &&
			    words[1] && !g_strv_contains(names, words[1]))
				all = false;
			g_strfreev(words);
		}
		g_strfreev(lines);
	}
	tap_ok(all, "event names: every name of the plan");
	g_free(plan);
	g_free(plan_path);
}

/* The metadata's field names: sorted, once each, plain and by scope
 * ($payload.x, $ctx.x for a context's), as a kernel trace declares
 * them (sched_switch's payload, the common context's cpu_id). */
static void check_field_names(const struct tn_trace *trace)
{
	const char *const *names = tn_trace_get_field_names(trace);
	const char *want[] = { "prev_comm", "$payload.prev_comm",
		"next_tid", "$payload.next_tid", "cpu_id", "$pctx.cpu_id" };
	bool sorted = true;
	size_t n = 0;

	for (; names[n]; n++)
		if (n && strcmp(names[n - 1], names[n]) >= 0)
			sorted = false;
	tap_ok(n > 0 && sorted, "field names: %zu, sorted, each once", n);
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
		tap_ok(g_strv_contains(names, want[i]), "field names: %s",
			want[i]);
}

static void test_one_trace(void)
{
	char *path = gen_trace("one", "--events 5000 --cpus 3 --hostname box1");
	struct tn_trace *trace = open_ok(path, "one trace");
	const struct tn_trace_info *info;
	int64_t begin, end;

	if (!trace)
		return;
	tap_int_eq(tn_trace_get_dir_count(trace), 1, "one trace: one directory");
	tap_str_eq(tn_trace_get_dir(trace, 0), path, "one trace: its directory");
	tap_int_eq(tn_trace_get_stream_count(trace), 3, "one trace: 3 streams");
	tap_int_eq(tn_trace_get_info_count(trace), 1, "one trace: one info");
	info = tn_trace_borrow_info(trace, 0);
	tap_str_eq(info->hostname ? info->hostname : "", "box1",
		"one trace: hostname from env");
	tap_str_eq(info->domain ? info->domain : "", "kernel",
		"one trace: domain from env");
	tap_int_eq(info->stream_count, 3, "one trace: info has 3 streams");
	tap_int_eq(info->clock_count, 1, "one trace: one clock");
	tap_int_eq(info->clock_count ? info->clocks[0].frequency : 0,
		1000000000, "one trace: 1 GHz clock");
	tap_ok(tn_trace_get_time_range(trace, &begin, &end),
		"one trace: has a time range");
	tap_int_eq(begin, gen_plan_value(path, "first_ns"),
		"one trace: range begins at the first event");
	tap_int_eq(end, gen_plan_value(path, "last_ns"),
		"one trace: range ends at the last event");
	tap_ok(tn_trace_get_first_event_time(trace, &begin) &&
		begin == gen_plan_value(path, "first_ns"),
		"one trace: the first event's time, read at open");
	check_event_names(trace, path);
	check_field_names(trace);
	tn_trace_destroy(trace);
	g_free(path);
}

/* Packets without times (DPDK traces): no packets' time range, but the
 * first event's time is known from the start. */
static void test_no_packet_times(void)
{
	char *path = gen_trace("no-times", "--events 2000 --cpus 2 "
		"--packet-size 4096 --no-packet-times");
	struct tn_trace *trace = open_ok(path, "no packet times");
	int64_t begin, end;

	if (!trace)
		return;
	tap_ok(!tn_trace_get_time_range(trace, &begin, &end),
		"no packet times: no packets' time range");
	tap_ok(tn_trace_get_first_event_time(trace, &begin) &&
		begin == gen_plan_value(path, "first_ns"),
		"no packet times: the first event's time, read at open");
	tap_int_eq(tn_trace_get_stream_count(trace), 2,
		"no packet times: 2 streams");
	tn_trace_destroy(trace);
	g_free(path);
}

static void test_several_traces(void)
{
	char *path = gen_trace("hosts", "--events 3000 --cpus 2 --traces 3");
	struct tn_trace *trace = open_ok(path, "three hosts");
	bool hosts[3] = { false, false, false };

	if (!trace)
		return;
	tap_int_eq(tn_trace_get_dir_count(trace), 3, "three hosts: 3 directories");
	tap_int_eq(tn_trace_get_info_count(trace), 3, "three hosts: 3 traces");
	tap_int_eq(tn_trace_get_stream_count(trace), 6, "three hosts: 6 streams");
	for (size_t i = 0; i < tn_trace_get_info_count(trace); i++) {
		const char *host = tn_trace_borrow_info(trace, i)->hostname;

		if (host && strncmp(host, "host", 4) == 0 && host[4] >= '0' &&
				host[4] <= '2' && !host[5])
			hosts[host[4] - '0'] = true;
	}
	tap_ok(hosts[0] && hosts[1] && hosts[2],
		"three hosts: hostnames host0, host1, host2");
	/* Directories come in name order, whatever readdir says. */
	tap_ok(strcmp(tn_trace_get_dir(trace, 0), tn_trace_get_dir(trace, 1)) < 0 &&
		strcmp(tn_trace_get_dir(trace, 1), tn_trace_get_dir(trace, 2)) < 0,
		"three hosts: directories sorted");
	tn_trace_destroy(trace);
	g_free(path);

	path = gen_trace("both", "--events 3000 --cpus 2 --domain both");
	trace = open_ok(path, "kernel and ust");
	if (trace) {
		const struct tn_trace_info *a = tn_trace_borrow_info(trace, 0);
		const struct tn_trace_info *b = tn_trace_borrow_info(trace, 1);

		tap_int_eq(tn_trace_get_info_count(trace), 2,
			"kernel and ust: 2 traces");
		tap_ok(a->domain && b->domain && strcmp(a->domain, b->domain) &&
			(!strcmp(a->domain, "ust") || !strcmp(b->domain, "ust")),
			"kernel and ust: both domains");
		tap_ok(a->uuid && b->uuid && strcmp(a->uuid, b->uuid) != 0,
			"kernel and ust: different uuids");
		tn_trace_destroy(trace);
	}
	g_free(path);
}

/* Push the end time of the last packet of every stream of the trace
 * in dir 5 s later, in its packet index file (CTF index 1.1: 72-byte
 * big-endian entries; timestamp_end is the fifth field). */
static void push_last_packet_ends(const char *dir)
{
	char *index_dir = g_build_filename(dir, "index", NULL);
	GDir *listing = g_dir_open(index_dir, 0, NULL);
	const char *name;

	while (listing && (name = g_dir_read_name(listing))) {
		char *path = g_build_filename(index_dir, name, NULL);
		gchar *data = NULL;
		gsize len = 0;

		if (g_file_get_contents(path, &data, &len, NULL) && len >= 72) {
			guint8 *end = (guint8 *) data + len - 72 + 32;
			guint64 value = 0;

			for (int i = 0; i < 8; i++)
				value = value << 8 | end[i];
			value += 5000000000u;
			for (int i = 7; i >= 0; i--, value >>= 8)
				end[i] = (guint8) value;
			g_file_set_contents(path, data, (gssize) len, NULL);
		}
		g_free(data);
		g_free(path);
	}
	if (listing)
		g_dir_close(listing);
	g_free(index_dir);
}

/* LTTng before 2.9.13 wrote packet end times that src.ctf.fs fixes up
 * (the last packet's end: its last event's time).  The query that does
 * it starts while the metadata is parsed for the probe; a newer tracer's
 * indexes are taken as they are.  A metadata of a thousand event
 * classes gives each name once. */
static void test_fixed_up_indexes(void)
{
	static const struct {
		const char *version;
		bool fixed;
	} cases[] = { { "2.8.0", true }, { "2.9.12", true },
		{ "2.13.0", false } };

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		char *name = g_strdup_printf("fixups-%s", cases[c].version);
		char *options = g_strdup_printf("--events 4000 --cpus 4 "
			"--extra-event-classes 1000 --packetized-metadata "
			"--tracer-version %s", cases[c].version);
		char *path = gen_trace(name, options);
		struct tn_trace *trace;
		int64_t begin, end, last = gen_plan_value(path, "last_ns");

		push_last_packet_ends(path);
		trace = open_ok(path, name);
		if (trace) {
			const char *const *names = tn_trace_get_event_names(trace);
			size_t n = 0;

			tap_ok(tn_trace_get_time_range(trace, &begin, &end) &&
				begin == gen_plan_value(path, "first_ns") &&
				end == (cases[c].fixed ? last : last +
					5000000000),
				"lttng-modules %s: the range ends %s", cases[c].version,
				cases[c].fixed ? "at the last event (indexes "
				"fixed up)" : "where the index says");
			while (names[n])
				n++;
			tap_ok(n > 1000 && g_strv_contains(names,
					"extra_probe_999") && g_strv_contains(
					names, "sched_switch"),
				"lttng-modules %s: %zu event names",
				cases[c].version, n);
			check_event_names(trace, path);
			tn_trace_destroy(trace);
		}
		g_free(path);
		g_free(options);
		g_free(name);
	}
}

/* A trace in two directories (session rotation chunks: one metadata,
 * each chunk some of the streams) is one group, as src.ctf.fs's
 * support-info query groups them (by the UUID of the metadata's trace
 * block, which tracenav reads itself); hosts stay groups of their own. */
static void test_chunks(void)
{
	char *path = gen_trace("chunks", "--events 4000 --cpus 4");
	char *cmd = g_strdup_printf("cd '%s' && mkdir 1 2 1/index 2/index && "
		"cp metadata 1 && mv metadata 2 && "
		"mv channel0_0 channel0_1 1 && mv channel0_2 channel0_3 2 && "
		"mv index/channel0_0.idx index/channel0_1.idx 1/index && "
		"mv index/channel0_2.idx index/channel0_3.idx 2/index && "
		"rmdir index", path);
	struct tn_trace *trace;

	if (!tap_ok(system(cmd) == 0, "chunks: made"))
		goto out;
	trace = open_ok(path, "chunks");
	if (trace) {
		tap_ok(tn_trace_get_dir_count(trace) == 2 &&
			tn_trace_get_group_count(trace) == 1 &&
			tn_trace_get_group_dir_count(trace, 0) == 2 &&
			tn_trace_get_stream_count(trace) == 4 &&
			tn_trace_get_info_count(trace) == 1,
			"chunks: two directories, one group, one trace of 4 "
			"streams");
		tn_trace_destroy(trace);
	}
	g_free(path);
	path = gen_trace("two-hosts", "--events 2000 --cpus 2 --traces 2");
	trace = open_ok(path, "two hosts");
	if (trace) {
		tap_int_eq(tn_trace_get_group_count(trace), 2,
			"two hosts: a group each");
		tn_trace_destroy(trace);
	}
out:
	g_free(cmd);
	g_free(path);
}

static void test_errors(void)
{
	struct tn_trace *trace = NULL;
	struct tn_error err;
	char *empty = g_strdup_printf("%s/empty", gen_tmpdir());

	tap_ok(tn_trace_open("/nonexistent/trace", &trace, &err) == -1 &&
		!trace, "missing path fails");
	tap_ok(strstr(err.message, "/nonexistent/trace") &&
		strstr(err.message, "No such file"),
		"missing path: message names the path and the cause");
	g_mkdir_with_parents(empty, 0700);
	tap_ok(tn_trace_open(empty, &trace, &err) == -1,
		"directory without trace fails");
	tap_ok(strstr(err.message, "no CTF trace found") != NULL,
		"directory without trace: says so");
	g_free(empty);
}

/* The shared corpus's cases (real traces that show a problem), beside
 * the repository, or NULL. */
static char *shared_case(const char *name)
{
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	const char *top = getenv("top_srcdir");
	char *traces = env ? g_strdup(env) :
		g_strdup_printf("%s/../shared/traces", top ? top : ".");
	char *path = g_strdup_printf("%s/../cases/%s", traces, name);

	g_free(traces);
	if (g_file_test(path, G_FILE_TEST_IS_DIR))
		return path;
	g_free(path);
	return NULL;
}

/* Copy directory from into to (cp -R), writable. */
static void copy_dir(const char *from, const char *to)
{
	char *cmd = g_strdup_printf("cp -R '%s' '%s' && chmod -R u+w '%s'",
		from, to, to);

	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		exit(99);
	}
	g_free(cmd);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);

	g_mkdir_with_parents(dir, 0700);
	if (!g_file_set_contents(path, text, -1, NULL)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(99);
	}
	g_free(path);
}

/* src.ctf.fs's trace-infos query of the trace in dir. */
static int query_trace_infos(const char *dir, const bt_value **result,
		int *crash, struct tn_error *err)
{
	bt_value *params = bt_value_map_create(), *inputs = NULL;
	int status;

	bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
	bt_value_array_append_string_element(inputs, dir);
	status = tn_trace_query_ctf_fs("babeltrace.trace-infos", params,
		60000, result, crash, err);
	bt_value_put_ref(params);
	return status;
}

/* libbabeltrace2 2.0.4 aborts the process on the trace-infos query of
 * the trace of a process that exited before its metadata declared its
 * stream class: the query runs in a child, which dies alone. */
static void test_query_isolated(void)
{
	char *broken = shared_case("ust-missing-stream-class");
	char *good = gen_trace("query", "--events 1000 --cpus 2 --domain ust");
	const bt_value *result = NULL;
	struct tn_error err;
	int crash = -1, status;

	if (broken) {
		status = query_trace_infos(broken, &result, &crash, &err);
		tap_ok(status == -1 && !result, "trace-infos query of a broken "
			"trace: fails, and the process lives on (%s)",
			crash ? strsignal(crash) : "no crash");
		printf("#   %s\n", err.message);
		tap_ok(crash == 0 || crash == SIGABRT || crash == SIGSEGV,
			"its child: no crash, or libbabeltrace2's abort");
	} else {
		printf("ok %d # SKIP no shared case ust-missing-stream-class\n",
			++tap_count);
	}
	/* The next query works: a new child. */
	status = query_trace_infos(good, &result, &crash, &err);
	tap_ok(status == 0 && result && bt_value_is_array(result) &&
		bt_value_array_get_length(result) == 1 && crash == 0,
		"trace-infos query of a good trace: one trace");
	if (status == 0) {
		const bt_value *info = bt_value_array_borrow_element_by_index_const(
			result, 0);
		const bt_value *streams = bt_value_map_borrow_entry_value_const(
			info, "stream-infos");

		tap_ok(streams && bt_value_is_array(streams) &&
			bt_value_array_get_length(streams) == 2,
			"trace-infos query: its 2 streams, through the pipe");
		bt_value_put_ref(result);
	} else {
		printf("#   %s\n", err.message);
	}
	g_free(good);
	g_free(broken);
}

/* libbabeltrace2 2.0.4 loops for ever on a packetized metadata file
 * that ends inside a packet's text.  Opening refuses it at once
 * (metadata-check.h); a query given it all the same is stopped by the
 * watchdog, its child killed. */
static void test_query_watchdog(void)
{
	char *path = gen_trace("cutmeta",
		"--events 100 --cpus 1 --packetized-metadata");
	char *metadata = g_build_filename(path, "metadata", NULL);
	bt_value *params = bt_value_map_create();
	struct tn_trace *trace = NULL;
	const bt_value *result = NULL;
	struct tn_error err;
	int crash = 0, status;
	gint64 start;

	/* Into the text of the second packet. */
	if (truncate(metadata, 4096 + 300) != 0)
		exit(99);
	/* Without its watchdog, the test would wait for ever: it dies. */
	alarm(60);
	start = g_get_monotonic_time();
	status = tn_trace_open(path, &trace, &err);
	tap_ok(status == -1 && strstr(err.message, "cut short") &&
		strstr(err.message, "packet 1 (byte 4096)"),
		"metadata cut inside a packet: refused (%s)", err.message);
	tap_ok(g_get_monotonic_time() - start < 2 * G_USEC_PER_SEC,
		"at once (%" G_GINT64_FORMAT " ms)",
		(g_get_monotonic_time() - start) / 1000);
	bt_value_map_insert_string_entry(params, "input", path);
	bt_value_map_insert_string_entry(params, "type", "directory");
	start = g_get_monotonic_time();
	status = tn_trace_query_ctf_fs("babeltrace.support-info", params,
		1000, &result, &crash, &err);
	tap_ok(status == -1 && !result && crash == SIGKILL &&
		strstr(err.message, "did not answer within 1 s"),
		"the query itself: stopped by the watchdog (%s)", err.message);
	tap_ok(g_get_monotonic_time() - start < 5 * G_USEC_PER_SEC,
		"after its time (%" G_GINT64_FORMAT " ms)",
		(g_get_monotonic_time() - start) / 1000);
	alarm(0);
	bt_value_put_ref(params);
	g_free(metadata);
	g_free(path);
}

/* A collection with traces that cannot be read: they are left out,
 * with the reason, and the rest opens. */
static void test_left_out(void)
{
	char *broken = shared_case("ust-missing-stream-class");
	char *path = gen_trace("coll", "--events 3000 --domain ust --traces 3");
	char *garbage = g_build_filename(path, "garbage", NULL);
	char *copy = g_build_filename(path, "zz-proc", NULL);
	char *none = g_strdup_printf("%s/none", gen_tmpdir());
	char *none_a, *none_b;
	char *good;
	struct tn_trace *trace;
	struct tn_error err;
	size_t want = broken ? 2 : 1;

	write_file(garbage, "metadata", "this is not TSDL {{{\n");
	if (broken)
		copy_dir(broken, copy);
	trace = open_ok(path, "collection with unreadable traces");
	if (trace) {
		tap_int_eq(tn_trace_get_left_out_count(trace), want,
			"collection: %zu traces left out", want);
		tap_int_eq(tn_trace_get_dir_count(trace), 3,
			"collection: the 3 others read");
		tap_int_eq(tn_trace_get_info_count(trace), 3,
			"collection: 3 traces");
		tap_str_eq(tn_trace_get_left_out_dir(trace, 0), garbage,
			"collection: the garbage metadata's directory");
		tap_ok(!strncmp(tn_trace_get_left_out_reason(trace, 0),
			"cannot read the trace metadata: ", 32),
			"collection: its reason, without the directory: %s",
			tn_trace_get_left_out_reason(trace, 0));
		if (broken && tn_trace_get_left_out_count(trace) == 2) {
			tap_str_eq(tn_trace_get_left_out_dir(trace, 1), copy,
				"collection: the broken process's directory");
			tap_ok(strstr(tn_trace_get_left_out_reason(trace, 1),
				"cannot read trace: No stream class") ==
				tn_trace_get_left_out_reason(trace, 1),
				"collection: its reason: %s",
				tn_trace_get_left_out_reason(trace, 1));
		}
		tn_trace_destroy(trace);
	}
	/* A good collection leaves nothing out. */
	good = gen_trace("coll-good", "--events 1000 --traces 2");
	trace = open_ok(good, "good collection");
	if (trace) {
		tap_int_eq(tn_trace_get_left_out_count(trace), 0,
			"good collection: nothing left out");
		tn_trace_destroy(trace);
	}
	g_free(good);
	/* Nothing readable: an error naming the first one. */
	none_a = g_build_filename(none, "a", NULL);
	none_b = g_build_filename(none, "b", NULL);
	write_file(none_a, "metadata", "");
	write_file(none_b, "metadata", "this is not TSDL {{{\n");
	tap_ok(tn_trace_open(none, &trace, &err) == -1,
		"no readable trace: fails");
	tap_ok(strstr(err.message, "none of the 2 traces under it can be "
		"read") && strstr(err.message, "a: cannot read the trace "
		"metadata: the `metadata` file is empty"),
		"no readable trace: says so, and why for the first: %s",
		err.message);
	g_free(none_a);
	g_free(none_b);
	g_free(none);
	g_free(copy);
	g_free(garbage);
	g_free(path);
	g_free(broken);
}

/* A trace without packet indexes has its range from a query that reads
 * every packet header (about 4,300 here: a margin over the moment from
 * the child's start to the first peek), in a child started as the trace
 * opens: the peek does not wait for it (the first screen does not), and
 * gives the same range once the child has ended. */
static void test_peek_range(void)
{
	char *path = gen_trace("peek", "--events 500000 --cpus 4 "
		"--packet-size 4096 --no-index");
	struct tn_trace *trace = open_ok(path, "no index");
	int64_t begin = 0, end = 0, peek_begin = 0, peek_end = 0;
	gint64 deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
	bool pending, found;

	if (!trace)
		return;
	tap_ok(tn_trace_time_range_pending(trace), "no index: "
		"tn_trace_time_range_pending() right after the open");
	found = tn_trace_peek_time_range(trace, &peek_begin, &peek_end,
		&pending);
	tap_ok(!found && pending, "no index: the range is pending right "
		"after the open (the query runs in its child)");
	while (tn_trace_time_range_pending(trace) &&
	       g_get_monotonic_time() < deadline)
		g_usleep(10000);
	found = tn_trace_peek_time_range(trace, &peek_begin, &peek_end,
		&pending);
	tap_ok(found && !pending, "no index: the peek gives the range once "
		"the query has ended");
	tap_ok(tn_trace_get_time_range(trace, &begin, &end) &&
		begin == peek_begin && end == peek_end &&
		begin == gen_plan_value(path, "first_ns") &&
		end == gen_plan_value(path, "last_ns"),
		"no index: the same range as tn_trace_get_time_range(), the "
		"first to the last event");
	tn_trace_destroy(trace);
	g_free(path);
}

/* The processes this one started and did not reap yet. */
static int child_count(void)
{
	char *file = g_strdup_printf("/proc/self/task/%ld/children",
		(long) syscall(SYS_gettid));
	char *text = NULL;
	int count = -1;

	if (g_file_get_contents(file, &text, NULL, NULL)) {
		char **pids = g_strsplit_set(g_strstrip(text), " ", -1);

		count = text[0] ? (int) g_strv_length(pids) : 0;
		g_strfreev(pids);
	}
	g_free(text);
	g_free(file);
	return count;
}

/* Opened for the event list (tn_trace_hold_range_queries()), a trace
 * whose indexes src.ctf.fs fixes up has its range query held: still
 * pending well after the same query ran to its end unheld; wanted, it
 * runs and gives the range an unheld one gives; a wait for the range
 * releases it by itself; a trace destroyed while it is held ends. */
static void test_held_range(void)
{
	char *path = gen_trace("held", "--events 4000 --cpus 4 "
		"--extra-event-classes 1000 --packetized-metadata "
		"--tracer-version 2.8.0");
	int64_t last = gen_plan_value(path, "last_ns");
	int64_t begin = 0, end = 0;
	gint64 deadline, start, ran_us;
	struct tn_trace *trace;
	bool pending, found;
	int children;

	push_last_packet_ends(path);
	/* Unheld: how long the query takes here. */
	trace = open_ok(path, "held: unheld first");
	if (!trace)
		goto out;
	start = g_get_monotonic_time();
	deadline = start + 60 * G_USEC_PER_SEC;
	while (tn_trace_time_range_pending(trace) &&
	       g_get_monotonic_time() < deadline)
		g_usleep(5000);
	ran_us = g_get_monotonic_time() - start;
	tn_trace_destroy(trace);

	tn_trace_hold_range_queries(true);
	trace = open_ok(path, "held");
	if (!trace)
		goto out;
	g_usleep(3 * ran_us + 200000);
	found = tn_trace_peek_time_range(trace, &begin, &end, &pending);
	tap_ok(!found && pending && tn_trace_time_range_pending(trace),
		"held: the range is still pending %.2f s after the open (the "
		"query took %.2f s unheld)", (3 * ran_us + 200000) / 1e6,
		ran_us / 1e6);
	tn_trace_want_time_range(trace);
	deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
	while (tn_trace_time_range_pending(trace) &&
	       g_get_monotonic_time() < deadline)
		g_usleep(5000);
	found = tn_trace_peek_time_range(trace, &begin, &end, &pending);
	tap_ok(found && !pending && begin == gen_plan_value(path, "first_ns") &&
		end == last, "held: wanted, the query gives the range (the "
		"first to the last event)");
	tn_trace_destroy(trace);

	trace = open_ok(path, "held, then waited for");
	if (trace) {
		tap_ok(tn_trace_get_time_range(trace, &begin, &end) &&
			end == last, "held: tn_trace_get_time_range() releases "
			"the query and waits for it");
		tn_trace_destroy(trace);
	}
	children = child_count();
	trace = open_ok(path, "held, never wanted");
	if (trace && children < 0) {
		tn_trace_destroy(trace);
		tap_ok(true, "held: the child ends with the trace # SKIP "
			"this kernel does not list a process's children");
	} else if (trace) {
		tap_ok(child_count() == children + 1,
			"held: its query's child waits");
		tn_trace_destroy(trace);
		tap_ok(child_count() == children, "held: a trace destroyed "
			"while its query is held ends the child");
	}
out:
	tn_trace_hold_range_queries(false);
	g_free(path);
}

int main(void)
{
	test_one_trace();
	test_several_traces();
	test_no_packet_times();
	test_peek_range();
	test_fixed_up_indexes();
	test_held_range();
	test_chunks();
	test_errors();
	test_query_isolated();
	test_query_watchdog();
	test_left_out();
	gen_cleanup();
	return tap_done();
}
