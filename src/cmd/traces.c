/* traces.c - the traces of the path: each one's directory, host,
 * domain and streams, those left out because they cannot be read, with
 * the reason, and the damaged stream files read in part or skipped. */
#include <string.h>

#include "cmd.h"

struct trace_row {
	char *dir;		/* under the path */
	char *host, *domain;
	size_t streams;
	const char *left_out;	/* the reason, or NULL */
};

static void row_free(gpointer data)
{
	struct trace_row *row = data;

	g_free(row->dir);
	g_free(row->host);
	g_free(row->domain);
	g_free(row);
}

static gint compare_rows(gconstpointer a, gconstpointer b)
{
	return strcmp((*(struct trace_row *const *) a)->dir,
		(*(struct trace_row *const *) b)->dir);
}

/* dir relative to path ("." for the path itself), when it is under it. */
static char *relative_dir(const char *path, const char *dir)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	if (strncmp(dir, path, len) == 0 && dir[len] == '\0')
		return g_strdup(".");
	if (strncmp(dir, path, len) == 0 && dir[len] == '/' && dir[len + 1])
		return g_strdup(dir + len + 1);
	return g_strdup(dir);
}

static GPtrArray *trace_rows(const struct tn_trace *trace)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(row_free);
	const char *path = tn_trace_get_path(trace);

	for (size_t i = 0; i < tn_trace_get_info_count(trace); i++) {
		const struct tn_trace_info *info =
			tn_trace_borrow_info(trace, i);
		struct trace_row *row = g_new0(struct trace_row, 1);
		GString *dirs = g_string_new(NULL);

		/* A trace in several directories (rotated chunks) lists
		 * them all. */
		for (size_t d = 0; d < info->dir_count; d++) {
			char *dir = relative_dir(path, info->dirs[d]);

			g_string_append_printf(dirs, "%s%s", d ? ", " : "",
				dir);
			g_free(dir);
		}
		if (!dirs->len)
			g_string_append(dirs, info->name ? info->name : "?");
		row->dir = g_string_free(dirs, FALSE);
		row->host = g_strdup(info->hostname ? info->hostname : "-");
		row->domain = g_strdup(info->domain ? info->domain : "-");
		row->streams = info->stream_count;
		g_ptr_array_add(rows, row);
	}
	for (size_t i = 0; i < tn_trace_get_left_out_count(trace); i++) {
		struct trace_row *row = g_new0(struct trace_row, 1);

		row->dir = relative_dir(path, tn_trace_get_left_out_dir(trace,
			i));
		row->left_out = tn_trace_get_left_out_reason(trace, i);
		g_ptr_array_add(rows, row);
	}
	g_ptr_array_sort(rows, compare_rows);
	return rows;
}

static int exec_traces(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	const struct tn_trace *trace = ctx->session->trace;
	GPtrArray *rows = trace_rows(trace);
	size_t left = tn_trace_get_left_out_count(trace);
	int dir_w = (int) strlen("DIRECTORY"), host_w = (int) strlen("HOST");
	int domain_w = (int) strlen("DOMAIN");
	char *line;

	(void) args;
	(void) err;
	for (guint i = 0; i < rows->len; i++) {
		const struct trace_row *row = rows->pdata[i];

		dir_w = MAX(dir_w, (int) strlen(row->dir));
		if (row->left_out)
			continue;
		host_w = MAX(host_w, (int) strlen(row->host));
		domain_w = MAX(domain_w, (int) strlen(row->domain));
	}
	line = g_strdup_printf("%s: %zu trace%s read, %zu left out",
		tn_trace_get_path(trace), tn_trace_get_info_count(trace),
		tn_trace_get_info_count(trace) == 1 ? "" : "s", left);
	tn_output_text(ctx->out, "traces", line);
	g_free(line);
	line = g_strdup_printf("%-*s  %-*s  %-*s  STREAMS", dir_w, "DIRECTORY",
		host_w, "HOST", domain_w, "DOMAIN");
	tn_output_text(ctx->out, "traces", line);
	g_free(line);
	for (guint i = 0; i < rows->len; i++) {
		const struct trace_row *row = rows->pdata[i];

		if (row->left_out)
			line = g_strdup_printf("%-*s  left out: %s", dir_w,
				row->dir, row->left_out);
		else
			line = g_strdup_printf("%-*s  %-*s  %-*s  %zu", dir_w,
				row->dir, host_w, row->host, domain_w,
				row->domain, row->streams);
		tn_output_text(ctx->out, "traces", line);
		g_free(line);
	}
	/* Stream files read in part or not at all: after the traces. */
	for (size_t i = 0; i < tn_trace_get_damage_count(trace); i++) {
		char *file = relative_dir(tn_trace_get_path(trace),
			tn_trace_get_damage_file(trace, i));

		line = g_strdup_printf("damaged: %s: %s", file,
			tn_trace_get_damage_text(trace, i));
		tn_output_text(ctx->out, "traces", line);
		g_free(line);
		g_free(file);
	}
	/* Packet indexes not used (no event missing). */
	for (size_t i = 0; i < tn_trace_get_notice_count(trace); i++) {
		line = g_strdup_printf("note: %s", tn_trace_get_notice(trace,
			i));
		tn_output_text(ctx->out, "traces", line);
		g_free(line);
	}
	g_ptr_array_free(rows, TRUE);
	return 0;
}

/* Not TN_CMD_READS: what it shows was read when the trace opened. */
const struct tn_command tn_cmd_traces = {
	"traces", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"list the traces (directory, host, domain, streams), those left out "
	"and why, and the damaged files read in part",
	TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_traces,
};
