/* cmdq.c - commands run in order as one background job (see cmdq.h). */
#include <string.h>

#include "cmdq.h"

struct tn_cmdq {
	struct tn_session *session;
	int64_t page_rows;
	const GPtrArray *help_prefix;
	bool has_screen, has_screen_span;
	int64_t screen_begin_ns, screen_end_ns;
	GArray *items;			/* struct tn_parsed_command */
	tn_cmdq_after_func after;
	void *after_arg;
	/* Results, read once the job ended. */
	struct tn_output_buffer out;
	struct tn_error err;
	struct tn_cmdq_result result;
};

struct tn_cmdq *tn_cmdq_create(struct tn_session *session,
		int64_t page_rows, const GPtrArray *help_prefix)
{
	struct tn_cmdq *queue = g_new0(struct tn_cmdq, 1);

	queue->session = session;
	queue->page_rows = page_rows;
	queue->help_prefix = help_prefix;
	queue->items = g_array_new(FALSE, FALSE,
		sizeof(struct tn_parsed_command));
	tn_output_buffer_init(&queue->out);
	return queue;
}

void tn_cmdq_destroy(struct tn_cmdq *queue)
{
	if (!queue)
		return;
	for (guint i = 0; i < queue->items->len; i++)
		tn_parsed_command_clear(&g_array_index(queue->items,
			struct tn_parsed_command, i));
	g_array_free(queue->items, TRUE);
	tn_output_buffer_fini(&queue->out);
	g_free(queue);
}

void tn_cmdq_set_screen(struct tn_cmdq *queue, bool has_span,
		int64_t begin_ns, int64_t end_ns)
{
	queue->has_screen = true;
	queue->has_screen_span = has_span;
	queue->screen_begin_ns = begin_ns;
	queue->screen_end_ns = end_ns;
}

void tn_cmdq_add(struct tn_cmdq *queue, struct tn_parsed_command *parsed)
{
	struct tn_parsed_command *last = queue->items->len ?
		&g_array_index(queue->items, struct tn_parsed_command,
			queue->items->len - 1) : NULL;

	if (last && last->command == parsed->command &&
	    parsed->command->count == TN_COUNT_REPEAT &&
	    last->args.argc == parsed->args.argc &&
	    last->args.argc == (last->args.has_count ? 1 : 0) &&
	    parsed->args.argc == (parsed->args.has_count ? 1 : 0)) {
		/* Only the count differs: add the counts up. */
		int64_t a = last->args.has_count ? last->args.count : 1;
		int64_t b = parsed->args.has_count ? parsed->args.count : 1;

		last->args.has_count = true;
		last->args.count = a > INT64_MAX - b ? INT64_MAX : a + b;
		tn_parsed_command_clear(parsed);
		return;
	}
	g_array_append_val(queue->items, *parsed);
	memset(parsed, 0, sizeof(*parsed));
}

bool tn_cmdq_is_empty(const struct tn_cmdq *queue)
{
	return queue->items->len == 0;
}

unsigned tn_cmdq_get_flags(const struct tn_cmdq *queue)
{
	unsigned flags = 0;

	for (guint i = 0; i < queue->items->len; i++)
		flags |= g_array_index(queue->items, struct tn_parsed_command,
			i).command->flags;
	return flags;
}

static int run_queue(struct tn_job *job, void *data, struct tn_error *err)
{
	struct tn_cmdq *queue = data;
	struct tn_command_context ctx = {
		.session = queue->session,
		.out = &queue->out.output,
		.page_rows = queue->page_rows,
		.help_prefix = queue->help_prefix,
		.has_screen = queue->has_screen,
		.has_screen_span = queue->has_screen_span,
		.screen_begin_ns = queue->screen_begin_ns,
		.screen_end_ns = queue->screen_end_ns,
	};

	(void) err;
	for (guint i = 0; i < queue->items->len; i++) {
		const struct tn_parsed_command *parsed = &g_array_index(
			queue->items, struct tn_parsed_command, i);
		int status = tn_command_exec(&ctx, parsed, &queue->err);

		/* A command that failed because of the cancel left the cursor
		 * where it was; one that ended anyway stands. */
		if (status && tn_job_is_cancelled(job)) {
			queue->result.cancelled = true;
			tn_error_set(&queue->err, "cancelled: the cursor stays "
				"where it was");
			return 0;
		}
		if (status)
			break;
		if (parsed->command->flags & TN_CMD_SHOWS_TEXT)
			queue->result.text_command = parsed->command;
	}
	if (queue->after && !tn_job_is_cancelled(job)) {
		queue->after(queue->session, queue->after_arg);
		queue->result.after_done = !tn_job_is_cancelled(job);
	}
	/* A failed command is in the result, not a failed job: what ran
	 * before it stands. */
	return 0;
}

static void free_queue(void *data)
{
	tn_cmdq_destroy(data);
}

static const struct tn_job_class queue_class = {
	.name = "seeking",
	.run = run_queue,
	.free = free_queue,
};

int tn_cmdq_start(struct tn_cmdq *queue, tn_cmdq_after_func after,
		void *after_arg, struct tn_job **job, struct tn_error *err)
{
	queue->after = after;
	queue->after_arg = after_arg;
	tn_error_clear(&queue->err);
	if (tn_job_start(&queue_class, queue, job, err)) {
		tn_cmdq_destroy(queue);
		return -1;
	}
	return 0;
}

struct tn_cmdq_result tn_cmdq_finish(struct tn_job *job,
		struct tn_output *out, struct tn_error *err)
{
	struct tn_cmdq *queue = tn_job_borrow_data(job);
	struct tn_cmdq_result result;

	tn_job_wait(job);
	tn_output_buffer_replay(&queue->out, out);
	tn_error_set(err, "%s", queue->err.message);
	result = queue->result;
	tn_job_destroy(job);
	return result;
}
