/* output.c - where commands write (see output.h). */
#include <stdarg.h>

#include "output.h"

void tn_output_text(struct tn_output *out, const char *title,
		const char *text)
{
	if (out)
		out->write(out, TN_OUTPUT_TEXT, title, text);
}

void tn_output_line(struct tn_output *out, const char *title,
		const char *text)
{
	if (out)
		out->write(out, TN_OUTPUT_LINE, title, text);
}

void tn_output_message(struct tn_output *out, const char *fmt, ...)
{
	va_list args;
	char *text;

	if (!out)
		return;
	va_start(args, fmt);
	text = g_strdup_vprintf(fmt, args);
	va_end(args);
	out->write(out, TN_OUTPUT_MESSAGE, NULL, text);
	g_free(text);
}

struct buffered {
	enum tn_output_kind kind;
	char *title;
	char *text;
};

static void buffer_write(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	struct tn_output_buffer *buffer = (struct tn_output_buffer *) out;
	struct buffered item = { kind, g_strdup(title), g_strdup(text) };

	g_array_append_val(buffer->items, item);
}

void tn_output_buffer_init(struct tn_output_buffer *buffer)
{
	buffer->output.write = buffer_write;
	buffer->items = g_array_new(FALSE, FALSE, sizeof(struct buffered));
}

static void clear_items(struct tn_output_buffer *buffer)
{
	for (guint i = 0; i < buffer->items->len; i++) {
		struct buffered *item = &g_array_index(buffer->items,
			struct buffered, i);

		g_free(item->title);
		g_free(item->text);
	}
	g_array_set_size(buffer->items, 0);
}

void tn_output_buffer_replay(struct tn_output_buffer *buffer,
		struct tn_output *out)
{
	for (guint i = 0; out && i < buffer->items->len; i++) {
		struct buffered *item = &g_array_index(buffer->items,
			struct buffered, i);

		out->write(out, item->kind, item->title, item->text);
	}
	clear_items(buffer);
}

void tn_output_buffer_fini(struct tn_output_buffer *buffer)
{
	if (!buffer->items)
		return;
	clear_items(buffer);
	g_array_free(buffer->items, TRUE);
	buffer->items = NULL;
}
