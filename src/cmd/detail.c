/* detail.c - every field of the current event. */
#include <inttypes.h>

#include "cmd.h"
#include "tracenav/format.h"
#include "tracenav/time.h"

struct detail_output {
	struct tn_output *out;
	GString *line;
};

static void detail_line(int depth, const char *field, void *data)
{
	struct detail_output *detail = data;

	g_string_printf(detail->line, "%*s%s", depth * 2, "", field);
	tn_output_text(detail->out, "detail", detail->line->str);
}

static int exec_detail(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row = tn_cmd_current_row(ctx, "detail", err);
	struct detail_output detail = { ctx->out, NULL };
	GString *line;
	const char *host;
	int64_t cpu;

	(void) args;
	if (!row)
		return -1;
	line = g_string_new("time: ");
	tn_time_format_wall(line, row->ev.recorded_ns, session->view.gmt,
		true);
	g_string_append(line, " (");
	tn_time_format_seconds(line, row->ev.recorded_ns);
	g_string_append(line, " s)");
	tn_output_text(ctx->out, "detail", line->str);
	g_string_printf(line, "name: %s", tn_event_get_name(&row->ev));
	tn_output_text(ctx->out, "detail", line->str);
	host = tn_event_get_hostname(&row->ev);
	g_string_printf(line, "host: %s", host ? host : "(none)");
	tn_output_text(ctx->out, "detail", line->str);
	cpu = tn_event_get_cpu(&row->ev);
	if (cpu >= 0) {
		g_string_printf(line, "cpu: %" PRId64, cpu);
		tn_output_text(ctx->out, "detail", line->str);
	}
	if (row->lost_before) {
		g_string_printf(line, "lost before: %" PRIu64 " events "
			"discarded by the tracer", row->lost_before);
		tn_output_text(ctx->out, "detail", line->str);
	}
	detail.line = line;
	tn_format_event_tree(&row->ev, detail_line, &detail);
	g_string_free(line, TRUE);
	return 0;
}

const struct tn_command tn_cmd_detail = {
	"detail", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"show every field of the current event",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT | TN_CMD_SHOWS_CURRENT, TN_COUNT_NONE,
	exec_detail,
};
