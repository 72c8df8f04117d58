/* dump.c - the --dump and --info front ends: a trace as text on stdout. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "tty-text.h"
#include "tracenav/component.h"
#include "tracenav/format.h"
#include "tracenav/live.h"
#include "tracenav/reader.h"
#include "tracenav/time.h"

/* Turn a --begin/--end argument into ns from origin; a time of day is
 * taken on the date of the trace's beginning, as babeltrace2 does (its
 * packets', or its first event's when they carry no times). */
static int resolve_bound(const struct tn_trace *trace, const char *option,
		const char *text, bool gmt, int64_t *ns)
{
	struct tn_time_spec spec;
	struct tn_error err;
	int64_t begin = 0, end = 0;

	if (tn_time_parse(text, gmt, &spec, &err)) {
		tn_tty_text_error("%s: %s", option, err.message);
		return -1;
	}
	if (!tn_trace_get_time_range(trace, &begin, &end))
		tn_trace_get_first_event_time(trace, &begin);
	*ns = tn_time_resolve(&spec, begin, gmt);
	return 0;
}

static int reader_options(const struct tn_trace *trace,
		const struct dump_options *options,
		struct tn_reader_options *out)
{
	memset(out, 0, sizeof(*out));
	if (options->begin) {
		if (resolve_bound(trace, "--begin", options->begin,
				options->gmt, &out->begin_ns))
			return -1;
		out->has_begin = true;
	}
	if (options->end) {
		if (resolve_bound(trace, "--end", options->end, options->gmt,
				&out->end_ns))
			return -1;
		out->has_end = true;
	}
	if (out->has_begin && out->has_end && out->begin_ns > out->end_ns) {
		tn_tty_text_error("--begin (%s) is after --end (%s)",
			options->begin, options->end);
		return -1;
	}
	return 0;
}

int dump_report_problems(const struct tn_trace *trace)
{
	size_t count = tn_trace_get_left_out_count(trace);
	size_t damage = tn_trace_get_damage_count(trace);

	for (size_t i = 0; i < count; i++)
		tn_tty_text_error("%s: left out: %s",
			tn_trace_get_left_out_dir(trace, i),
			tn_trace_get_left_out_reason(trace, i));
	for (size_t i = 0; i < damage; i++)
		tn_tty_text_error("%s: %s", tn_trace_get_damage_file(trace, i),
			tn_trace_get_damage_text(trace, i));
	/* Said, but no event is missing: not a failure. */
	for (size_t i = 0; i < tn_trace_get_notice_count(trace); i++)
		tn_tty_text_error("%s", tn_trace_get_notice(trace, i));
	return count + damage > 0 ? 1 : 0;
}

static int finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tracenav: cannot write the output: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

/* The streams whose times went back: read whole all the same. */
static void warn_steps(const struct tn_reader *reader)
{
	char **lines = tn_reader_describe_steps(reader);

	fflush(stdout);
	for (char **line = lines; *line; line++)
		tn_tty_text_error("warning: %s; read on in the stream's "
			"own order (babeltrace2 stops at the first)", *line);
	g_strfreev(lines);
}

/* Print the events of reader (named name in messages) as babeltrace2
 * does, up to options' count; destroys reader.  Returns 0, or 1 when it
 * failed (said on stderr, after what it printed). */
static int print_events(struct tn_reader *reader, const char *name,
		const struct dump_options *options)
{
	struct tn_format_state state;
	struct tn_error err;
	GString *line = g_string_sized_new(512);
	struct tn_tty_text out, notices;
	uint64_t printed = 0;
	int status = 0;

	tn_format_state_init(&state, options->gmt);
	tn_tty_text_init(&out, stdout);
	tn_tty_text_init(&notices, stderr);
	while (!options->has_count || printed < options->count) {
		struct tn_event ev;
		enum tn_reader_status next = tn_reader_next(reader, &ev, &err);

		if (next == TN_READER_END)
			break;
		if (next == TN_READER_ERROR) {
			const char *cause = err.message;

			fflush(stdout);
			if (options->live && g_str_has_prefix(cause,
					"cannot read trace: "))
				cause += strlen("cannot read trace: ");
			if (options->live)
				tn_tty_text_error("%s: the live session's "
					"connection failed: %s (%" PRIu64
					" events received, all printed)", name,
					cause, printed);
			else
				tn_tty_text_error("%s: %s", name, cause);
			status = 1;
			break;
		}
		g_string_truncate(line, 0);
		if (ev.kind == TN_EVENT_KIND_EVENT) {
			tn_format_event_line(line, &ev, &state);
			if (out.escape) {
				tn_tty_text_line(&out, line->str,
					(gssize) line->len);
			} else {
				/* Piped: babeltrace2's bytes, at full speed. */
				g_string_append_c(line, '\n');
				fwrite(line->str, 1, line->len, stdout);
			}
			/* A live session's events as they come. */
			if (options->live)
				fflush(stdout);
			printed++;
		} else {
			/* babeltrace2 reports lost items on stderr. */
			tn_format_notice(line, &ev, options->gmt);
			fflush(stdout);
			tn_tty_text_line(&notices, line->str,
				(gssize) line->len);
		}
		tn_event_release(&ev);
	}
	warn_steps(reader);
	tn_reader_destroy(reader);
	g_string_free(line, TRUE);
	tn_tty_text_fini(&out);
	tn_tty_text_fini(&notices);
	return status;
}

/* The correction --sync asks for: computed ("") or read from a file;
 * says why on stderr when it cannot be had. */
static int get_sync(const struct tn_trace *trace, const char *file,
		struct tn_sync **out)
{
	struct tn_error err;

	if (*file ? tn_sync_load_file(file, out, &err) :
			tn_sync_compute(trace, 0, out, &err)) {
		tn_tty_text_error("%s: --sync: %s", tn_trace_get_path(trace),
			err.message);
		return -1;
	}
	return 0;
}

int dump_events(const struct tn_trace *trace, const struct dump_options *options)
{
	struct tn_reader_options read_options;
	struct tn_reader *reader;
	struct tn_error err;
	int status;
	/* Before anything else is printed. */
	int left_out = dump_report_problems(trace);

	struct tn_sync *sync = NULL;

	if (reader_options(trace, options, &read_options))
		return 2;
	if (options->sync && get_sync(trace, options->sync, &sync))
		return 1;
	read_options.sync = sync;
	if (tn_reader_create(trace, &read_options, &reader, &err)) {
		tn_tty_text_error("%s: %s", tn_trace_get_path(trace),
			err.message);
		tn_sync_destroy(sync);
		return 1;
	}
	status = print_events(reader, tn_trace_get_path(trace), options);
	tn_sync_destroy(sync);
	return finish_output() ? 1 : status ? status : left_out;
}

/* The sessions of a relay daemon, one line each, as babeltrace2
 * --input-format=lttng-live prints them. */
static int print_sessions(const struct tn_live_url *url)
{
	GArray *sessions;
	struct tn_error err;

	if (tn_live_list_sessions(url, &sessions, &err)) {
		tn_tty_text_error("%s", err.message);
		return 1;
	}
	for (guint i = 0; i < sessions->len; i++) {
		const struct tn_live_session *s = &g_array_index(sessions,
			struct tn_live_session, i);

		printf("%s (timer = %" PRIu64 ", %" PRIu64 " stream(s), %"
			PRIu64 " client(s) connected)\n", s->url, s->timer_us,
			s->stream_count, s->client_count);
	}
	tn_live_sessions_free(sessions);
	return finish_output();
}

/* --begin and --end cut trace directories by time: not what a live
 * session or a component gives (said, under name).  1 if given. */
static int refuse_bounds(const struct dump_options *options,
		const char *name)
{
	if (!options->begin && !options->end)
		return 0;
	tn_tty_text_error("%s: --begin and --end cut trace directories "
		"(--count stops here)", name);
	return 1;
}

int dump_component(const char *spec, const char *params, const char *path,
		const struct dump_options *options)
{
	struct tn_reader *reader;
	struct tn_error err;
	int status;

	if (refuse_bounds(options, spec))
		return 2;
	if (path && access(path, R_OK) != 0) {
		tn_tty_text_error("%s: %s", path, strerror(errno));
		return 1;
	}
	if (tn_component_reader_create(spec, params, path, &reader, &err)) {
		tn_tty_text_error("%s", err.message);
		return 1;
	}
	status = print_events(reader, path ? path : spec, options);
	return finish_output() ? 1 : status;
}

int dump_live(const char *text, const struct dump_options *options)
{
	struct dump_options live = *options;
	struct tn_live_url url;
	struct tn_reader *reader;
	struct tn_error err;
	int status;

	if (refuse_bounds(options, text))
		return 2;
	if (tn_live_url_parse(text, &url, &err)) {
		tn_tty_text_error("%s", err.message);
		return 2;
	}
	if (!url.session) {
		status = print_sessions(&url);
		tn_live_url_fini(&url);
		return status;
	}
	if (tn_live_reader_create(&url, &reader, &err)) {
		tn_tty_text_error("%s", err.message);
		tn_live_url_fini(&url);
		return 1;
	}
	live.live = true;
	status = print_events(reader, text, &live);
	tn_live_url_fini(&url);
	return finish_output() ? 1 : status;
}

static void print_time(struct tn_tty_text *out, const char *label,
		int64_t ns, bool gmt)
{
	GString *text = g_string_new(NULL);

	tn_time_format_wall(text, ns, gmt, true);
	g_string_append(text, " (");
	tn_time_format_seconds(text, ns);
	g_string_append(text, " s)");
	tn_tty_text_printf(out, "%-12s %s", label, text->str);
	g_string_free(text, TRUE);
}

int dump_info(const struct tn_trace *trace, bool gmt)
{
	int left_out = dump_report_problems(trace);
	struct tn_tty_text out;
	int64_t begin, end;

	tn_tty_text_init(&out, stdout);
	tn_tty_text_printf(&out, "%-12s %s", "path:", tn_trace_get_path(trace));
	tn_tty_text_printf(&out, "%-12s %zu", "streams:",
		tn_trace_get_stream_count(trace));
	if (tn_trace_get_time_range(trace, &begin, &end)) {
		GString *span = g_string_new(NULL);

		print_time(&out, "begin:", begin, gmt);
		print_time(&out, "end:", end, gmt);
		tn_time_format_seconds(span, end - begin);
		tn_tty_text_printf(&out, "%-12s %s s", "duration:", span->str);
		g_string_free(span, TRUE);
	}
	for (size_t d = 0; d < tn_trace_get_dir_count(trace); d++)
		tn_tty_text_printf(&out, "%-12s %s", "directory:",
			tn_trace_get_dir(trace, d));
	for (size_t i = 0; i < tn_trace_get_left_out_count(trace); i++)
		tn_tty_text_printf(&out, "%-12s %s: %s", "left out:",
			tn_trace_get_left_out_dir(trace, i),
			tn_trace_get_left_out_reason(trace, i));
	for (size_t i = 0; i < tn_trace_get_damage_count(trace); i++)
		tn_tty_text_printf(&out, "%-12s %s: %s", "damaged:",
			tn_trace_get_damage_file(trace, i),
			tn_trace_get_damage_text(trace, i));
	for (size_t i = 0; i < tn_trace_get_notice_count(trace); i++)
		tn_tty_text_printf(&out, "%-12s %s", "note:",
			tn_trace_get_notice(trace, i));
	for (size_t i = 0; i < tn_trace_get_info_count(trace); i++) {
		const struct tn_trace_info *info =
			tn_trace_borrow_info(trace, i);

		tn_tty_text_line(&out, "", 0);
		tn_tty_text_printf(&out, "trace %zu: %s", i,
			info->name ? info->name : "");
		for (size_t d = 0; d < info->dir_count; d++)
			tn_tty_text_printf(&out, "  %-10s %s", "directory:",
				info->dirs[d]);
		tn_tty_text_printf(&out, "  %-10s %s", "uuid:",
			info->uuid ? info->uuid : "none");
		tn_tty_text_printf(&out, "  %-10s %zu", "streams:",
			info->stream_count);
		for (size_t c = 0; c < info->clock_count; c++)
			tn_tty_text_printf(&out, "  clock:     %s, %" PRIu64
				" Hz, offset %" PRId64 " s + %" PRIu64
				" cycles%s",
				info->clocks[c].name ? info->clocks[c].name :
				"(unnamed)", info->clocks[c].frequency,
				info->clocks[c].offset_seconds,
				info->clocks[c].offset_cycles,
				info->clocks[c].origin_is_unix_epoch ?
				", origin Unix epoch" : "");
		for (size_t e = 0; e < info->env_count; e++)
			tn_tty_text_printf(&out, "  env:       %s = %s",
				info->env[e].name, info->env[e].value);
	}
	tn_tty_text_fini(&out);
	return finish_output() ? 1 : left_out;
}
