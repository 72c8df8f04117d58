/* seq-view.c - the sequence diagram pane's view of a page (see
 * seq-view.h). */
#include <glib.h>
#include <string.h>

#include "seq-view.h"

void tn_seq_view_init(struct tn_seq_view *view)
{
	memset(view, 0, sizeof(*view));
	view->style.width = 80;
	view->style.ascii = true;
}

static void forget_drawing(struct tn_seq_view *view)
{
	tn_seq_drawing_destroy(view->drawing);
	view->drawing = NULL;
}

void tn_seq_view_fini(struct tn_seq_view *view)
{
	forget_drawing(view);
	tn_seq_model_destroy(view->model);
	memset(view, 0, sizeof(*view));
}

static size_t message_count(const struct tn_seq_view *view)
{
	return view->model ? tn_seq_model_get_message_count(view->model) : 0;
}

void tn_seq_view_set_page(struct tn_seq_view *view, struct tn_seq_model *model,
		bool starts_trace, bool ends_trace, bool has_selected,
		size_t selected)
{
	forget_drawing(view);
	tn_seq_model_destroy(view->model);
	view->model = model;
	view->starts_trace = starts_trace;
	view->ends_trace = ends_trace;
	view->has_selected = has_selected && selected < message_count(view);
	view->selected = view->has_selected ? selected : 0;
	if (model && view->first_lifeline >=
			tn_seq_model_get_lifeline_count(model))
		view->first_lifeline = 0;
}

void tn_seq_view_set_style(struct tn_seq_view *view,
		const struct tn_seq_render_options *style)
{
	int width = MAX(style->width, 1);

	if (width == view->style.width && style->ascii == view->style.ascii &&
	    style->utf8 == view->style.utf8 && style->gmt == view->style.gmt)
		return;
	view->style.width = width;
	view->style.ascii = style->ascii;
	view->style.utf8 = style->utf8;
	view->style.gmt = style->gmt;
	forget_drawing(view);
}

const struct tn_seq_drawing *tn_seq_view_drawing(struct tn_seq_view *view)
{
	struct tn_seq_render_options options = view->style;

	if (!view->model || tn_seq_model_get_lifeline_count(view->model) == 0)
		return NULL;
	if (view->drawing)
		return view->drawing;
	options.first_lifeline = view->first_lifeline;
	options.has_selected = view->has_selected;
	options.selected = view->selected;
	view->drawing = tn_seq_render(view->model, &options);
	return view->drawing;
}

size_t tn_seq_view_body_lines(struct tn_seq_view *view)
{
	const struct tn_seq_drawing *d = tn_seq_view_drawing(view);

	return d && d->line_count > d->header_lines ?
		d->line_count - d->header_lines : 0;
}

/* Scroll the lifelines so that message index's ends show, or its
 * leftmost one when they do not fit together. */
static void reveal(struct tn_seq_view *view, size_t index)
{
	const struct tn_seq_message *m =
		tn_seq_model_borrow_message(view->model, index);
	const struct tn_seq_drawing *d = tn_seq_view_drawing(view);
	size_t lo = MIN(m->from, m->to), hi = MAX(m->from, m->to);
	size_t first = view->first_lifeline;

	if (!d)
		return;
	if (lo < first)
		first = lo;
	else if (hi >= first + d->shown_lifelines)
		first = MIN(lo, hi + 1 - d->shown_lifelines);
	if (first != view->first_lifeline) {
		view->first_lifeline = first;
		forget_drawing(view);
	}
}

bool tn_seq_view_select(struct tn_seq_view *view, size_t index)
{
	size_t count = message_count(view);

	if (count == 0)
		return false;
	index = MIN(index, count - 1);
	if (!view->has_selected || view->selected != index) {
		view->has_selected = true;
		view->selected = index;
		forget_drawing(view);
	}
	reveal(view, index);
	return true;
}

/* The first body line of the selected message, and how many it takes. */
static bool selected_lines(struct tn_seq_view *view, size_t *line,
		size_t *count)
{
	const struct tn_seq_drawing *d = tn_seq_view_drawing(view);

	if (!d || !view->has_selected || !d->has_selected_line)
		return false;
	*line = d->selected_line - d->header_lines;
	*count = 1;
	while (d->selected_line + *count < d->line_count &&
	       d->lines[d->selected_line + *count].has_message &&
	       d->lines[d->selected_line + *count].message == view->selected)
		++*count;
	return true;
}

static void clamp_top(struct tn_seq_view *view, size_t rows)
{
	size_t body = tn_seq_view_body_lines(view);

	rows = MAX(rows, 1);
	if (view->top + rows > body)
		view->top = body > rows ? body - rows : 0;
}

/* Lines kept around the selection when scrolling to it. */
static size_t scroll_off(size_t rows, size_t count)
{
	size_t off = rows >= 8 ? 2 : rows >= 5 ? 1 : 0;

	return rows > count + 2 * off ? off : 0;
}

void tn_seq_view_keep_in_view(struct tn_seq_view *view, size_t rows)
{
	size_t line, count;

	rows = MAX(rows, 1);
	if (selected_lines(view, &line, &count)) {
		size_t off = scroll_off(rows, count);
		size_t above = line > off ? line - off : 0;
		size_t below = line + MIN(count, rows) + off;

		if (above < view->top)
			view->top = above;
		else if (below > view->top + rows)
			view->top = below - rows;
	}
	clamp_top(view, rows);
}

void tn_seq_view_center(struct tn_seq_view *view, size_t rows)
{
	size_t line, count;

	rows = MAX(rows, 1);
	if (selected_lines(view, &line, &count))
		view->top = line > rows / 3 ? line - rows / 3 : 0;
	clamp_top(view, rows);
}

void tn_seq_view_scroll(struct tn_seq_view *view, long lines, size_t rows)
{
	if (lines < 0)
		view->top = (size_t) -lines > view->top ? 0 :
			view->top - (size_t) -lines;
	else
		view->top += (size_t) lines;
	clamp_top(view, rows);
}

bool tn_seq_view_scroll_lifelines(struct tn_seq_view *view, long step)
{
	const struct tn_seq_drawing *d = tn_seq_view_drawing(view);
	size_t first = view->first_lifeline;

	if (!d)
		return false;
	for (; step < 0 && first > 0; step++)
		first--;
	/* Right while the last lifeline does not show. */
	for (; step > 0 && first + d->shown_lifelines < d->lifeline_count;
	     step--)
		first++;
	if (first == view->first_lifeline)
		return false;
	view->first_lifeline = first;
	forget_drawing(view);
	return true;
}

bool tn_seq_view_message_at(struct tn_seq_view *view, size_t line,
		size_t *message)
{
	const struct tn_seq_drawing *d = tn_seq_view_drawing(view);
	const struct tn_seq_line *l;

	if (!d || line >= tn_seq_view_body_lines(view))
		return false;
	l = &d->lines[d->header_lines + line];
	if (!l->has_message)
		return false;
	*message = l->message;
	return true;
}

static int compare_first(const struct tn_seq_view *view, size_t index,
		const struct tn_position *pos)
{
	return tn_position_compare(&tn_seq_message_first(
		tn_seq_model_borrow_message(view->model, index))->pos, pos);
}

bool tn_seq_view_follow(const struct tn_seq_view *view,
		const struct tn_position *pos, size_t margin, size_t *message)
{
	size_t count = message_count(view);
	size_t index;

	if (count == 0 || !tn_seq_model_select(view->model, pos, &index))
		return false;
	/* Beyond the page's first or last message. */
	if (compare_first(view, 0, pos) > 0 && !view->starts_trace)
		return false;
	if (compare_first(view, count - 1, pos) < 0 && !view->ends_trace)
		return false;
	/* Too close to either edge for the next move. */
	if ((index < margin && !view->starts_trace) ||
	    (index + margin >= count && !view->ends_trace))
		return false;
	*message = index;
	return true;
}

bool tn_seq_view_message_end(const struct tn_seq_view *view, size_t index,
		bool receive, struct tn_position *pos)
{
	const struct tn_seq_message *m;

	if (index >= message_count(view))
		return false;
	m = tn_seq_model_borrow_message(view->model, index);
	if (receive) {
		if (!m->receive.present)
			return false;
		*pos = m->receive.at.pos;
		return true;
	}
	*pos = tn_seq_message_first(m)->pos;
	return true;
}
