/* seqlist.c - seqdiag-list: the messages of the sequence diagram from
 * the current event on, one a line, for scripts. */
#include <string.h>

#include "cmd.h"
#include "tracenav/seq-list.h"
#include "tracenav/seq-loader.h"
#include "tracenav/text.h"
#include "tracenav/time.h"

#define DEFAULT_COUNT 1000

struct printer {
	struct tn_output *out;
	bool gmt;
	bool utf8;
	GString *line;
};

static void append_end(struct printer *p, const struct tn_seq_end *end)
{
	if (!end->present) {
		g_string_append_c(p->line, '-');
		return;
	}
	g_string_append_c(p->line, '[');
	tn_time_format_wall(p->line, end->at.ns, p->gmt, false);
	g_string_append_c(p->line, ']');
}

static void append_text(struct printer *p, const char *text)
{
	g_string_append_c(p->line, '\t');
	tn_text_append_safe(p->line, text, -1, p->utf8);
}

/* SEND RECEIVE KIND FROM TO SIGNAL [ID], separated by tabs. */
static int print_message(const struct tn_seq_model *model, size_t index,
		void *data, struct tn_error *err)
{
	struct printer *p = data;
	const struct tn_seq_message *m = tn_seq_model_borrow_message(model,
		index);

	(void) err;
	g_string_truncate(p->line, 0);
	append_end(p, &m->send);
	g_string_append_c(p->line, '\t');
	append_end(p, &m->receive);
	append_text(p, tn_seq_message_kind_name(m->kind));
	append_text(p, tn_seq_model_borrow_lifeline(model, m->from)->name);
	append_text(p, tn_seq_model_borrow_lifeline(model, m->to)->name);
	append_text(p, m->signal);
	if (m->id)
		append_text(p, m->id);
	tn_output_line(p->out, "seqdiag-list", p->line->str);
	return 0;
}

static int exec_seqdiag_list(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_seq_source source = tn_session_get_seq_source(session);
	struct printer p = {
		.out = ctx->out,
		.gmt = session->view.gmt,
		.utf8 = tn_text_locale_is_utf8(),
	};
	int64_t count = args->has_count ? args->count : DEFAULT_COUNT;
	struct tn_seq_loaders *loaders;
	const struct tn_row *row;
	uint64_t listed;
	bool none;
	int status;

	loaders = tn_seq_loaders_create_with_rules(session->trace,
		session->seq.rules);
	none = tn_seq_loaders_get_count(loaders) == 0;
	tn_seq_loaders_destroy(loaders);
	if (none) {
		tn_error_set(err, "seqdiag-list: no event of this trace makes "
			"a message (see seqdiag)");
		return -1;
	}
	if (count < 1) {
		tn_error_set(err, "seqdiag-list: N must be at least 1");
		return -1;
	}
	row = tn_cmd_current_row(ctx, "seqdiag-list", err);
	if (!row)
		return -1;
	p.line = g_string_new(NULL);
	status = tn_seq_list(&source, &row->pos, (uint64_t) count,
		session->seq.hide, print_message, &p, &listed, err);
	if (status == 0 && listed == 0)
		tn_output_message(ctx->out, "seqdiag-list: no message from "
			"the current event on");
	g_string_free(p.line, TRUE);
	return status;
}

const struct tn_command tn_cmd_seqdiag_list = {
	"seqdiag-list", NULL, { { TN_ARG_COUNT, "N", true, NULL } },
	"list the N messages (1000) of the sequence diagram from the current "
	"event on, one a line: send and receive times ('-': not seen), "
	"kind, sender, receiver, signal and id, separated by tabs",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_REPEAT, exec_seqdiag_list,
};
