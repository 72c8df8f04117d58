/* test-reload.c - a trace that grows under a session: reload picks up
 * what was written since and keeps the current event, the filters and
 * the marks; an index built while the trace changed is never saved
 * under the name of the files as they are after (it would be read as
 * theirs: a stale index); a trace that cannot be read any more leaves
 * the session as it was. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "src/commands.h"
#include "src/session.h"
#include "tap.h"

static GString *messages;

static void collect(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	(void) out;
	(void) kind;
	(void) title;
	g_string_append_printf(messages, "%s\n", text);
}

/* Copy the first bytes of file from to file to (the rest of it written
 * later, as a tracer does). */
static void copy_prefix(const char *from, const char *to, gsize bytes)
{
	gchar *data;
	gsize size;

	if (!g_file_get_contents(from, &data, &size, NULL) ||
	    !g_file_set_contents(to, data, (gssize) MIN(bytes, size), NULL))
		exit(99);
	g_free(data);
}

static int64_t current_ns(struct tn_session *session)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, &err);

	return row ? row->ev.ns : -1;
}

/* The number the last "N events pass the filters" message says. */
static long counted(struct tn_command_context *ctx)
{
	struct tn_error err;
	const char *last;

	g_string_truncate(messages, 0);
	if (tn_command_run(ctx, "count", &err))
		return -1;
	last = messages->str;
	return strtol(last, NULL, 10);
}

static int cache_files(const char *dir)
{
	GDir *listing = g_dir_open(dir, 0, NULL);
	int count = 0;
	const char *name;

	while (listing && (name = g_dir_read_name(listing)))
		count += g_str_has_suffix(name, ".index");
	if (listing)
		g_dir_close(listing);
	return count;
}

static void test_reload(void)
{
	char *whole = gen_trace("whole", "--events 4000 --cpus 1 "
		"--packet-size 4096 --seed 5");
	char *path = g_build_filename(gen_tmpdir(), "growing", NULL);
	char *cache = g_build_filename(gen_tmpdir(), "cache", NULL);
	char *cmd = g_strdup_printf("cp -R '%s' '%s'", whole, path);
	char *stream = g_build_filename(path, "channel0_0", NULL);
	char *whole_stream = g_build_filename(whole, "channel0_0", NULL);
	struct tn_output out = { collect };
	struct tn_session session;
	struct tn_command_context ctx = {
		.session = &session, .out = &out, .page_rows = 10,
	};
	struct tn_trace *trace;
	struct tn_error err;
	struct stat st;
	long before, after;
	int64_t at;

	messages = g_string_new(NULL);
	if (system(cmd) != 0 || stat(whole_stream, &st) != 0)
		exit(99);
	/* Half written, its last packet cut. */
	copy_prefix(whole_stream, stream, (gsize) st.st_size / 2 + 1000);
	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0,
		    "the half-written trace opens") ||
	    !tap_ok(tn_session_init(&session, trace, true, &err) == 0,
		    "session"))
		exit(99);
	session.owns_trace = true;
	session.indexing.cache_dir = g_strdup(cache);
	session.wait_for_index = true;
	tap_ok(tn_trace_get_damage_count(trace) == 1 &&
		strstr(tn_trace_get_damage_text(trace, 0), "read up to byte"),
		"its incomplete packet is left out, said");

	/* An index whose trace changes while it is built is not saved. */
	tap_int_eq(tn_session_start_index(&session, &out, &err), 0,
		"the index build starts");
	g_usleep(1000);
	copy_prefix(whole_stream, stream, (gsize) st.st_size * 3 / 4 + 1000);
	tn_job_wait(session.indexing.build_job);
	g_string_truncate(messages, 0);
	tn_session_poll_index(&session, &out);
	tap_ok(session.indexing.index && cache_files(cache) == 0 &&
		strstr(messages->str, "the trace changed while it was indexed"),
		"the trace changed while indexed: the index is used, not saved "
		"(%s)", messages->str);

	tap_int_eq(tn_command_run(&ctx, "filter-in sched_", &err), 0,
		"a filter");
	before = counted(&ctx);
	tap_int_eq(tn_command_run(&ctx, "goto 50%", &err), 0, "goto 50%%");
	at = current_ns(&session);
	tap_int_eq(tn_command_run(&ctx, "mark", &err), 0, "a mark");

	/* Whole now: reload reads it all. */
	copy_prefix(whole_stream, stream, (gsize) st.st_size);
	g_string_truncate(messages, 0);
	tap_int_eq(tn_command_run(&ctx, "reload", &err), 0, "reload asks");
	tap_ok(session.reload, "the front end does it, between commands");
	tap_int_eq(tn_session_reload(&session, &out, &err), 0, "reload");
	tap_ok(strstr(messages->str, "reloaded ") &&
		strstr(messages->str, "bytes more"), "says what grew (%s)",
		messages->str);
	tap_ok(session.trace != trace && session.owns_trace &&
		tn_trace_get_damage_count(session.trace) == 0,
		"a new trace, whole");
	tap_int_eq(current_ns(&session), at, "the current event stays");
	tap_ok(session.filters.stack && session.filters.set,
		"the filter stays");
	tap_ok(tn_marks_count(session.marks.set) == 1, "the mark stays");
	tap_ok(!session.indexing.index && !session.state.snapshots &&
		!session.filters.counts, "what was read of the old trace goes");
	after = counted(&ctx);
	tap_ok(before > 0 && after > before, "more events pass the filter "
		"(%ld, then %ld)", before, after);

	/* Unchanged while indexed: saved, and found again. */
	tap_int_eq(tn_session_start_index(&session, &out, &err), 0,
		"the index of the whole trace");
	tn_job_wait(session.indexing.build_job);
	tn_session_poll_index(&session, &out);
	/* The cache is written in the background. */
	tn_index_service_wait_save(&session.indexing, &out);
	tap_ok(session.indexing.index && cache_files(cache) == 1,
		"unchanged while indexed: saved");
	tap_ok(session.indexing.index->event_count == 4000,
		"every event indexed (%llu)",
		(unsigned long long) session.indexing.index->event_count);

	/* A trace that cannot be read any more: the session stays. */
	copy_prefix(whole_stream, stream, 0);
	{
		char *metadata = g_build_filename(path, "metadata", NULL);

		g_file_set_contents(metadata, "", 0, NULL);
		g_free(metadata);
	}
	trace = session.trace;
	tap_int_eq(tn_session_reload(&session, &out, &err), -1,
		"reload of an unreadable trace fails");
	tap_ok(strstr(err.message, "the trace stays as it was read") != NULL,
		"saying the trace stays (%s)", err.message);
	tap_ok(session.trace == trace && current_ns(&session) == at,
		"the session is as it was");

	tn_session_fini(&session);
	g_string_free(messages, TRUE);
	g_free(whole_stream);
	g_free(stream);
	g_free(cmd);
	g_free(cache);
	g_free(path);
	g_free(whole);
}

int main(void)
{
	test_reload();
	gen_cleanup();
	return tap_done();
}
