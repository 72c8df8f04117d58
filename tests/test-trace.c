/* test-trace.c - finding traces under a path and what their metadata
 * says, checked against the plans of generated traces. */
#include <string.h>

#include "gen.h"
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

int main(void)
{
	test_one_trace();
	test_several_traces();
	test_no_packet_times();
	test_errors();
	gen_cleanup();
	return tap_done();
}
