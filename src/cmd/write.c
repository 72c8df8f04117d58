/* write.c - exporting events to a file in --dump's format: the events
 * that pass the filters (every event without filters), or the marked
 * ones.  Each line is the one `tracenav --dump` prints for that event,
 * delta included (from the event before it in the trace, written or
 * not), so that the file is what grep would keep of --dump's output.
 *
 * The file is written under a temporary name in its directory and
 * renamed at the end: a cancel or an error leaves no partial file, and
 * an existing file is replaced only by write! (and then at once). */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "tracenav/format.h"
#include "tracenav/runtime.h"

/* Publish progress every this many events. */
#define PROGRESS_EVERY 4096

static const char *const marked_choices[] = { "--marked", NULL };

struct export {
	const char *path;	/* as given */
	char *temp;		/* the file being written */
	struct tn_runtime_tree *pending;	/* temp, removed on a signal */
	FILE *fp;
	struct tn_format_state state;
	GString *line;
	uint64_t written;
	int error;		/* errno of the first failed write */
};

/* Open a temporary file beside path.  Refuses an existing path unless
 * overwrite. */
static int export_open(struct export *ex, const char *path, bool overwrite,
		bool gmt, struct tn_error *err)
{
	char *dir = g_path_get_dirname(path);
	char *base = g_path_get_basename(path);
	struct stat st;
	int fd;

	memset(ex, 0, sizeof(*ex));
	ex->path = path;
	if (!overwrite && lstat(path, &st) == 0) {
		tn_error_set(err, "write: %s exists: write! %s replaces it",
			path, path);
		goto fail;
	}
	if (overwrite && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		tn_error_set(err, "write: %s is a directory", path);
		goto fail;
	}
	if (!tn_runtime_create_begin()) {
		tn_error_set(err, "write: tracenav is ending");
		goto fail;
	}
	ex->temp = g_strdup_printf("%s/.%s.tracenav-XXXXXX", dir, base);
	/* Mode 0666 less the umask, as any new file. */
	fd = g_mkstemp_full(ex->temp, O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0)
		ex->pending = tn_runtime_register_temp(ex->temp);
	tn_runtime_create_end();
	if (fd < 0) {
		tn_error_set(err, "write: cannot write %s: %s", path,
			strerror(errno));
		g_clear_pointer(&ex->temp, g_free);
		goto fail;
	}
	ex->fp = fdopen(fd, "w");
	if (!ex->fp) {
		tn_error_set(err, "write: cannot write %s: %s", path,
			strerror(errno));
		close(fd);
		tn_runtime_remove(ex->pending);
		unlink(ex->temp);
		g_clear_pointer(&ex->temp, g_free);
		goto fail;
	}
	setvbuf(ex->fp, NULL, _IOFBF, 1 << 20);
	tn_format_state_init(&ex->state, gmt);
	ex->line = g_string_new(NULL);
	g_free(dir);
	g_free(base);
	return 0;
fail:
	g_free(dir);
	g_free(base);
	return -1;
}

/* Write row's --dump line (its delta from the event before it). */
static void export_row(struct export *ex, const struct tn_row *row)
{
	ex->state.has_last = row->has_prev;
	ex->state.last_ns = row->prev_ns;
	g_string_truncate(ex->line, 0);
	tn_format_event_line(ex->line, &row->ev, &ex->state);
	g_string_append_c(ex->line, '\n');
	if (fwrite(ex->line->str, 1, ex->line->len, ex->fp) != ex->line->len &&
	    !ex->error)
		ex->error = errno ? errno : EIO;
	ex->written++;
}

/* Put the file in place (done) or remove it (not done).  Returns 0, or
 * -1 with err when writing or renaming failed. */
static int export_close(struct export *ex, bool done, bool overwrite,
		struct tn_error *err)
{
	int error = ex->error;

	if (!ex->fp)
		return done ? 0 : -1;
	if (fflush(ex->fp) != 0 && !error)
		error = errno;
	if (done && !error && fsync(fileno(ex->fp)) != 0)
		error = errno;
	if (fclose(ex->fp) != 0 && !error)
		error = errno;
	ex->fp = NULL;
	if (done && !error) {
		if (overwrite) {
			if (rename(ex->temp, ex->path) != 0)
				error = errno;
		} else if (link(ex->temp, ex->path) != 0) {
			/* A file that appeared meanwhile is kept; a file
			 * system without hard links gets a rename. */
			if (errno == EEXIST)
				error = EEXIST;
			else if (rename(ex->temp, ex->path) != 0)
				error = errno;
		}
	}
	if (error == EEXIST)
		tn_error_set(err, "write: %s exists: write! %s replaces it",
			ex->path, ex->path);
	else if (error)
		tn_error_set(err, "write: cannot write %s: %s", ex->path,
			strerror(error));
	tn_runtime_remove(ex->pending);
	unlink(ex->temp);
	g_clear_pointer(&ex->temp, g_free);
	g_string_free(ex->line, TRUE);
	ex->line = NULL;
	return done && !error ? 0 : -1;
}

/* The share of the trace's time span read, for the progress. */
static double time_fraction(int64_t ns, int64_t begin, int64_t end)
{
	if (end <= begin)
		return -1;
	return CLAMP((double) (ns - begin) / (double) (end - begin), 0.0, 1.0);
}

/* Every event that passes filter (NULL: every event), in trace order. */
static int write_events(struct tn_command_context *ctx, struct export *ex,
		const struct tn_filter *filter, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	int64_t begin = 0, end = 0;
	struct tn_walk *walk;
	struct tn_row row;
	bool exact;
	int status;

	if (!tn_cursor_get_time_span(session->cursor, &begin, &end, &exact))
		begin = end = 0;
	if (tn_walk_open(session->trace, INT64_MIN, &walk, err))
		return -1;
	tn_job_current_set_progress("writing", 0, 0);
	while ((status = tn_walk_next(walk, filter, &row, err)) == 1) {
		export_row(ex, &row);
		if (ex->written % PROGRESS_EVERY == 0) {
			tn_job_current_set_progress("writing",
				time_fraction(row.pos.ns, begin, end),
				ex->written);
			if (tn_job_current_is_cancelled()) {
				tn_error_set(err, "cancelled");
				status = -1;
			}
		}
		tn_row_release(&row);
		if (status < 0 || ex->error)
			break;
	}
	tn_walk_destroy(walk);
	return status < 0 ? -1 : 0;
}

static int write_mark(const struct tn_cmd_mark_event *mark, void *data,
		struct tn_error *err)
{
	struct export *ex = data;

	(void) err;
	if (mark->row)
		export_row(ex, mark->row);
	return 0;
}

static int exec_write(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	bool marked = args->argc == 2;	/* --marked (the parser checked) */
	const char *path = args->argc ? args->argv[args->argc - 1] : NULL;
	size_t marks = tn_marks_count(ctx->session->marks.set);
	struct export ex;
	int status;

	if (!path) {
		tn_error_set(err, "usage: write[!] [--marked] FILE");
		return -1;
	}
	if (marked && marks == 0) {
		tn_error_set(err, "write --marked: no marks (m marks the "
			"current event)");
		return -1;
	}
	if (export_open(&ex, path, args->bang, ctx->session->view.gmt, err))
		return -1;
	if (marked)
		status = tn_cmd_each_mark(ctx, "writing", write_mark, &ex, err);
	else
		status = write_events(ctx, &ex,
			tn_filter_service_borrow(&ctx->session->filters), err);
	if (status) {
		char message[TN_ERROR_MAX];

		export_close(&ex, false, args->bang, NULL);
		snprintf(message, sizeof(message), "%s", err->message);
		/* A cancel is said by the front end; the file is not there. */
		if (strcmp(message, "cancelled") == 0)
			tn_error_set(err, "cancelled");
		else
			tn_error_set(err, "write: %s: %s", path, message);
		return -1;
	}
	if (export_close(&ex, true, args->bang, err))
		return -1;
	if (marked && ex.written < marks)
		tn_output_message(ctx->out, "wrote %" PRIu64 " of the %zu "
			"marked events to %s (the others are no longer in the "
			"trace)", ex.written, marks, path);
	else if (!marked && tn_filter_service_borrow(&ctx->session->filters))
		tn_output_message(ctx->out, "wrote %" PRIu64 " event%s (those "
			"that pass the filters) to %s", ex.written,
			ex.written == 1 ? "" : "s", path);
	else
		tn_output_message(ctx->out, "wrote %" PRIu64 " event%s to %s",
			ex.written, ex.written == 1 ? "" : "s", path);
	return 0;
}

const struct tn_command tn_cmd_write = {
	"write", NULL, {
		{ TN_ARG_WORD, "--marked", true, marked_choices },
		{ TN_ARG_FILE, "FILE", false, NULL },
	},
	"write the events that pass the filters (with --marked: the marked "
	"ones) to FILE as --dump prints them; write! replaces an existing "
	"FILE",
	TN_CMD_READS | TN_CMD_BANG, TN_COUNT_NONE, exec_write,
};
