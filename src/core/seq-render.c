/* seq-render.c - a sequence diagram drawn as lines of text (see
 * seq-render.h).
 *
 * Each line is first a grid of cells, one per column, so that arrows,
 * labels and lifelines can be drawn over each other; a wide character
 * takes two cells (the second one empty), a combining mark goes with
 * the cell before it.  The grid then becomes UTF-8, and the spans its
 * cells had become byte ranges. */
#include <glib.h>
#include <string.h>

#include "tracenav/seq-render.h"
#include "tracenav/text.h"
#include "tracenav/time.h"

/* A lifeline's column: its box is one column narrower (a blank between
 * boxes), and holds the name between "| " and " |". */
#define MIN_COLUMN 12
#define MAX_COLUMN 28
#define BOX_EXTRA 5
#define HEADER_LINES 3
/* The fewest columns a signal cut short keeps (its '~' included). */
#define MIN_LABEL 3

#define CELL_BYTES 24

struct cell {
	char text[CELL_BYTES];	/* "" for the second half of a wide one */
	bool second_half;
	unsigned spans;		/* 1 << enum tn_seq_span_kind */
};

struct grid {
	int width;
	struct cell *cells;
};

/* The characters of one style of drawing. */
struct glyphs {
	const char *line, *sync_line, *return_line;
	const char *head_right, *head_left, *sync_right, *sync_left;
	const char *lifeline, *active;
	const char *top_left, *top_right, *bottom_left, *bottom_right;
	const char *horizontal, *vertical, *tee;
	const char *loop_top, *loop_bottom;
};

static const struct glyphs ascii_glyphs = {
	"-", "=", ".", ">", "<", ">", "<", "|", "#",
	"+", "+", "+", "+", "-", "|", "+", "+", "+",
};

static const struct glyphs unicode_glyphs = {
	"─", "─", "┄", ">", "<", "▶", "◀", "│", "┃",
	"┌", "┐", "└", "┘", "─", "│", "┬", "┐", "┘",
};

static void grid_init(struct grid *g, int width)
{
	g->width = width;
	g->cells = g_new0(struct cell, width);
	for (int x = 0; x < width; x++)
		strcpy(g->cells[x].text, " ");
}

/* Put the text of one character of width w (1 or 2) at x, breaking any
 * wide character it lands on. */
static void put(struct grid *g, int x, const char *text, int w)
{
	if (x < 0 || x + w > g->width)
		return;
	for (int i = x; i < x + w; i++) {
		struct cell *c = &g->cells[i];

		if (c->second_half && i > 0)
			strcpy(g->cells[i - 1].text, " ");
		if (!c->second_half && i + 1 < g->width &&
		    g->cells[i + 1].second_half) {
			strcpy(g->cells[i + 1].text, " ");
			g->cells[i + 1].second_half = false;
		}
		c->second_half = false;
	}
	g_strlcpy(g->cells[x].text, text, CELL_BYTES);
	if (w == 2) {
		g->cells[x + 1].text[0] = 0;
		g->cells[x + 1].second_half = true;
	}
}

/* Put decoded characters from x on, up to x + max_cols; returns the
 * columns taken. */
static int put_chars(struct grid *g, int x, const wchar_t *s, size_t n,
		int max_cols)
{
	int cols = 0;
	int last = -1;

	for (size_t i = 0; i < n; i++) {
		int w = tn_text_char_width(s[i]);
		char buf[8];
		int len = g_unichar_to_utf8((gunichar) s[i], buf);

		buf[len] = 0;
		if (w == 0) {
			/* A mark goes with the character before it. */
			if (last >= 0 && last < g->width &&
			    strlen(g->cells[last].text) + len < CELL_BYTES)
				strcat(g->cells[last].text, buf);
			continue;
		}
		if (cols + w > max_cols)
			break;
		put(g, x + cols, buf, w);
		last = x + cols;
		cols += w;
	}
	return cols;
}

/* Put text (safe, cut to max_cols with a '~' when longer) at x;
 * returns the columns taken. */
static int put_text(struct grid *g, int x, const char *text, int max_cols,
		bool utf8)
{
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int whole = tn_text_decode(chars, text, -1, -1, utf8);
	int cols;

	if (max_cols <= 0) {
		g_array_free(chars, TRUE);
		return 0;
	}
	if (whole <= max_cols) {
		cols = put_chars(g, x, (wchar_t *) chars->data, chars->len,
			max_cols);
	} else {
		cols = put_chars(g, x, (wchar_t *) chars->data, chars->len,
			max_cols - 1);
		put(g, x + cols, "~", 1);
		cols++;
	}
	g_array_free(chars, TRUE);
	return cols;
}

/* The columns text takes once safe. */
static int text_width(const char *text, bool utf8)
{
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int cols = tn_text_decode(chars, text, -1, -1, utf8);

	g_array_free(chars, TRUE);
	return cols;
}

static void mark(struct grid *g, int from, int to, enum tn_seq_span_kind kind)
{
	for (int x = MAX(from, 0); x < to && x < g->width; x++)
		g->cells[x].spans |= 1u << kind;
}

/* The line the grid makes, its spans in bytes, and the grid freed. */
static void grid_finish(struct grid *g, struct tn_seq_line *line)
{
	GString *text = g_string_new(NULL);
	size_t *offsets = g_new(size_t, g->width + 1);
	GArray *spans = g_array_new(FALSE, FALSE, sizeof(struct tn_seq_span));
	size_t kept;

	for (int x = 0; x < g->width; x++) {
		offsets[x] = text->len;
		g_string_append(text, g->cells[x].text);
	}
	offsets[g->width] = text->len;
	/* No trailing blank. */
	kept = text->len;
	while (kept > 0 && text->str[kept - 1] == ' ')
		kept--;
	g_string_truncate(text, kept);
	for (unsigned kind = TN_SEQ_SPAN_SELECTED;
	     kind <= TN_SEQ_SPAN_UNPAIRED; kind++) {
		for (int x = 0; x < g->width; x++) {
			struct tn_seq_span span = { .kind = kind };
			int end = x;

			if (!(g->cells[x].spans & (1u << kind)))
				continue;
			while (end < g->width &&
			       (g->cells[end].spans & (1u << kind)))
				end++;
			span.start = MIN(offsets[x], kept);
			span.end = MIN(offsets[end], kept);
			if (span.end > span.start)
				g_array_append_val(spans, span);
			x = end;
		}
	}
	line->text = g_string_free(text, FALSE);
	line->span_count = spans->len;
	line->spans = (struct tn_seq_span *) g_array_free(spans,
		spans->len == 0);
	g_free(offsets);
	g_free(g->cells);
	g->cells = NULL;
}

/* ---- the layout ---- */

enum row_kind { ROW_CREATE, ROW_MESSAGE, ROW_STOP };

struct row {
	enum row_kind kind;
	size_t index;		/* the lifeline, or the message */
	const struct tn_seq_point *at;
};

struct layout {
	const struct tn_seq_model *model;
	const struct tn_seq_render_options *opt;
	const struct glyphs *glyphs;
	int label_width;	/* the time labels' (0: none) */
	int left;		/* columns before the first lifeline */
	int column;		/* of each lifeline */
	size_t first, shown;	/* the lifelines shown */
	GArray *lines;		/* struct tn_seq_line */
};

static gint compare_rows(gconstpointer pa, gconstpointer pb)
{
	const struct row *a = pa, *b = pb;
	int order = tn_position_compare(&a->at->pos, &b->at->pos);

	if (order)
		return order;
	if (a->kind != b->kind)
		return (int) a->kind - (int) b->kind;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The rows of the body, in time order. */
static GArray *collect_rows(const struct tn_seq_model *model)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct row));
	size_t n = tn_seq_model_get_lifeline_count(model);
	size_t m = tn_seq_model_get_message_count(model);

	for (size_t i = 0; i < n; i++) {
		const struct tn_seq_lifeline *l =
			tn_seq_model_borrow_lifeline(model, i);
		struct row row = { ROW_CREATE, i, &l->created };

		if (l->has_created)
			g_array_append_val(rows, row);
		row.kind = ROW_STOP;
		row.at = &l->stopped;
		if (l->has_stopped)
			g_array_append_val(rows, row);
	}
	for (size_t i = 0; i < m; i++) {
		struct row row = { ROW_MESSAGE, i, tn_seq_message_first(
			tn_seq_model_borrow_message(model, i)) };

		g_array_append_val(rows, row);
	}
	/* g_array_sort() is not stable, but no two rows compare equal. */
	g_array_sort(rows, compare_rows);
	return rows;
}

static void time_label(GString *out, int64_t ns, bool gmt)
{
	g_string_truncate(out, 0);
	tn_time_format_wall(out, ns, gmt, false);
}

/* The screen column of lifeline i: its center, or just outside the
 * drawing when it is not shown (-1 on the left, width on the right). */
static int lifeline_x(const struct layout *lay, size_t i)
{
	if (i < lay->first)
		return lay->left - 1;
	if (i >= lay->first + lay->shown)
		return lay->opt->width;
	return lay->left + (int) (i - lay->first) * lay->column +
		(lay->column - 1) / 2;
}

static void plan_layout(struct layout *lay, GArray *rows)
{
	const struct tn_seq_model *model = lay->model;
	int width = lay->opt->width;
	size_t n = tn_seq_model_get_lifeline_count(model);
	GString *label = g_string_new(NULL);
	int widest = 0;

	lay->label_width = 0;
	for (guint i = 0; i < rows->len; i++) {
		time_label(label, g_array_index(rows, struct row, i).at->ns,
			lay->opt->gmt);
		lay->label_width = MAX(lay->label_width, (int) label->len);
	}
	g_string_free(label, TRUE);
	for (size_t i = 0; i < n; i++)
		widest = MAX(widest, text_width(
			tn_seq_model_borrow_lifeline(model, i)->name,
			lay->opt->utf8));
	lay->column = CLAMP(widest + BOX_EXTRA, MIN_COLUMN, MAX_COLUMN);
	/* The selection mark, the labels and a blank, if a column fits
	 * beside them. */
	lay->left = 1 + lay->label_width + 1;
	if (width - lay->left < MIN_COLUMN) {
		lay->label_width = 0;
		lay->left = 1;
	}
	lay->column = MAX(MIN(lay->column, width - lay->left), 1);
	lay->first = MIN(lay->opt->first_lifeline, n > 0 ? n - 1 : 0);
	lay->shown = MAX((size_t) ((width - lay->left) / lay->column), 1);
	lay->shown = MIN(lay->shown, n - lay->first);
}

static struct tn_seq_line *new_line(struct layout *lay)
{
	struct tn_seq_line line = { 0 };

	g_array_append_val(lay->lines, line);
	return &g_array_index(lay->lines, struct tn_seq_line,
		lay->lines->len - 1);
}

static void draw_header(struct layout *lay)
{
	const struct glyphs *gl = lay->glyphs;
	int box = lay->column - 1;
	struct grid g[HEADER_LINES];
	size_t n = tn_seq_model_get_lifeline_count(lay->model);

	for (int i = 0; i < HEADER_LINES; i++)
		grid_init(&g[i], lay->opt->width);
	if (lay->shown < n && lay->label_width > 0) {
		char *which = g_strdup_printf("%zu-%zu of %zu", lay->first + 1,
			lay->first + lay->shown, n);

		put_text(&g[0], 1, which, lay->label_width, false);
		g_free(which);
	}
	for (size_t i = lay->first; i < lay->first + lay->shown; i++) {
		const char *name = tn_seq_model_borrow_lifeline(lay->model,
			i)->name;
		int x0 = lifeline_x(lay, i) - (lay->column - 1) / 2;
		int inner = box - 2;
		int cols = MIN(text_width(name, lay->opt->utf8),
			MAX(inner - 2, 1));

		if (box < 3) {
			put_text(&g[1], x0, name, lay->column, lay->opt->utf8);
			put(&g[2], lifeline_x(lay, i), gl->lifeline, 1);
			continue;
		}
		put(&g[0], x0, gl->top_left, 1);
		put(&g[1], x0, gl->vertical, 1);
		put(&g[2], x0, gl->bottom_left, 1);
		for (int x = x0 + 1; x < x0 + box - 1; x++) {
			put(&g[0], x, gl->horizontal, 1);
			put(&g[2], x, gl->horizontal, 1);
		}
		put(&g[0], x0 + box - 1, gl->top_right, 1);
		put(&g[1], x0 + box - 1, gl->vertical, 1);
		put(&g[2], x0 + box - 1, gl->bottom_right, 1);
		put(&g[2], lifeline_x(lay, i), gl->tee, 1);
		/* The name centered in the box. */
		put_text(&g[1], x0 + 1 + (inner - cols) / 2, name,
			MAX(inner - 2, 1), lay->opt->utf8);
	}
	for (int i = 0; i < HEADER_LINES; i++)
		grid_finish(&g[i], new_line(lay));
}

static bool point_before(const struct tn_seq_point *a,
		const struct tn_seq_point *b)
{
	return tn_position_compare(&a->pos, &b->pos) < 0;
}

/* The lifelines at the time of `at`: blank before their creation and
 * after their stop, thick while active. */
static void draw_lifelines(struct layout *lay, struct grid *g,
		const struct tn_seq_point *at)
{
	size_t activations = tn_seq_model_get_activation_count(lay->model);

	for (size_t i = lay->first; i < lay->first + lay->shown; i++) {
		const struct tn_seq_lifeline *l =
			tn_seq_model_borrow_lifeline(lay->model, i);
		const char *glyph = lay->glyphs->lifeline;

		if ((l->has_created && point_before(at, &l->created)) ||
		    (l->has_stopped && point_before(&l->stopped, at)))
			continue;
		for (size_t a = 0; a < activations; a++) {
			const struct tn_seq_activation *act =
				tn_seq_model_borrow_activation(lay->model, a);

			if (act->lifeline == i &&
			    (!act->begin.present ||
			     !point_before(at, &act->begin.at)) &&
			    (!act->end.present ||
			     !point_before(&act->end.at, at)))
				glyph = lay->glyphs->active;
		}
		put(g, lifeline_x(lay, i), glyph, 1);
	}
}

static void put_label(struct layout *lay, struct grid *g, int64_t ns)
{
	GString *label;

	if (lay->label_width == 0)
		return;
	label = g_string_new(NULL);
	time_label(label, ns, lay->opt->gmt);
	put_text(g, 1, label->str, lay->label_width, false);
	g_string_free(label, TRUE);
}

/* The cells of an arrow from x = a to x = b (a != b, the lifelines'
 * columns, which it does not cover). */
static void draw_arrow(struct layout *lay, struct grid *g,
		const struct tn_seq_message *m, int a, int b, bool selected)
{
	const struct glyphs *gl = lay->glyphs;
	const char *line = m->kind == TN_SEQ_RETURN ? gl->return_line :
		m->kind == TN_SEQ_SYNC && lay->opt->ascii ? gl->sync_line :
		gl->line;
	bool right = a < b;
	const char *head = m->kind == TN_SEQ_SYNC ?
		(right ? gl->sync_right : gl->sync_left) :
		(right ? gl->head_right : gl->head_left);
	int lo = MIN(a, b) + 1, hi = MAX(a, b) - 1;	/* cells, inclusive */
	int span = hi - lo + 1;
	int head_x = right ? hi : lo;
	int label_room = span - 4;
	int label_cols = m->signal[0] ? text_width(m->signal,
		lay->opt->utf8) : 0;

	if (span < 1)
		return;
	for (int x = lo; x <= hi; x++)
		put(g, x, line, 1);
	put(g, head_x, head, 1);
	/* The signal, cut if need be; not a mere "~". */
	if (label_cols > 0 && (label_room >= MIN_LABEL ||
			label_cols <= label_room)) {
		int cols = MIN(label_cols, label_room);

		put_text(g, lo + (span - cols) / 2, m->signal, label_room,
			lay->opt->utf8);
	}
	if (selected)
		mark(g, lo, hi + 1, TN_SEQ_SPAN_SELECTED);
	/* The missing end: beside the sender, or before the head. */
	if (!m->send.present && span >= 2) {
		int x = right ? lo : hi;

		put(g, x, "?", 1);
		mark(g, x, x + 1, TN_SEQ_SPAN_UNPAIRED);
	}
	if (!m->receive.present && span >= 3) {
		int x = right ? hi - 1 : lo + 1;

		put(g, x, "?", 1);
		mark(g, x, x + 1, TN_SEQ_SPAN_UNPAIRED);
	}
}

/* A message to itself: a loop over two lines right of its lifeline. */
static void draw_loop(struct layout *lay, struct grid *g1, struct grid *g2,
		const struct tn_seq_message *m, int x, bool selected)
{
	const struct glyphs *gl = lay->glyphs;
	const char *line = m->kind == TN_SEQ_RETURN ? gl->return_line :
		m->kind == TN_SEQ_SYNC && lay->opt->ascii ? gl->sync_line :
		gl->line;
	int end = MIN(x + lay->column - 2, lay->opt->width - 1);
	int room = end - x - 1;

	if (room < 2)
		return;
	for (int c = x + 1; c < end; c++) {
		put(g1, c, line, 1);
		put(g2, c, line, 1);
	}
	put(g1, end, gl->loop_top, 1);
	put(g2, end, gl->loop_bottom, 1);
	put(g2, x + 1, m->kind == TN_SEQ_SYNC ? gl->sync_left : gl->head_left,
		1);
	if (m->signal[0] && (room - 2 >= MIN_LABEL ||
			text_width(m->signal, lay->opt->utf8) <= room - 2))
		put_text(g1, x + 2, m->signal, room - 2, lay->opt->utf8);
	if (selected) {
		mark(g1, x + 1, end + 1, TN_SEQ_SPAN_SELECTED);
		mark(g2, x + 1, end + 1, TN_SEQ_SPAN_SELECTED);
	}
	if (!m->send.present) {
		put(g1, x + 1, "?", 1);
		mark(g1, x + 1, x + 2, TN_SEQ_SPAN_UNPAIRED);
	}
	if (!m->receive.present && room >= 3) {
		put(g2, x + 2, "?", 1);
		mark(g2, x + 2, x + 3, TN_SEQ_SPAN_UNPAIRED);
	}
}

static void draw_message(struct layout *lay, struct tn_seq_drawing *drawing,
		size_t index)
{
	const struct tn_seq_message *m = tn_seq_model_borrow_message(
		lay->model, index);
	const struct tn_seq_point *first = tn_seq_message_first(m);
	bool selected = lay->opt->has_selected && lay->opt->selected == index;
	int a = lifeline_x(lay, m->from), b = lifeline_x(lay, m->to);
	struct grid g, g2;
	struct tn_seq_line *line;

	if (selected) {
		drawing->has_selected_line = true;
		drawing->selected_line = lay->lines->len;
	}
	grid_init(&g, lay->opt->width);
	draw_lifelines(lay, &g, first);
	put_label(lay, &g, first->ns);
	if (selected) {
		put(&g, 0, ">", 1);
		mark(&g, 0, 1, TN_SEQ_SPAN_SELECTED);
	}
	if (m->from != m->to) {
		draw_arrow(lay, &g, m, a, b, selected);
	} else {
		grid_init(&g2, lay->opt->width);
		draw_lifelines(lay, &g2, m->receive.present ? &m->receive.at :
			first);
		if (m->send.present && m->receive.present)
			put_label(lay, &g2, m->receive.at.ns);
		if (a >= lay->left && a < lay->opt->width)
			draw_loop(lay, &g, &g2, m, a, selected);
		line = new_line(lay);
		grid_finish(&g, line);
		line->has_message = true;
		line->message = index;
		line = new_line(lay);
		grid_finish(&g2, line);
		line->has_message = true;
		line->message = index;
		return;
	}
	line = new_line(lay);
	grid_finish(&g, line);
	line->has_message = true;
	line->message = index;
}

/* The line of a creation ('*') or a stop ('X'). */
static void draw_mark(struct layout *lay, const struct row *row)
{
	struct grid g;
	int x = lifeline_x(lay, row->index);

	grid_init(&g, lay->opt->width);
	draw_lifelines(lay, &g, row->at);
	put_label(lay, &g, row->at->ns);
	if (x >= lay->left && x < lay->opt->width)
		put(&g, x, row->kind == ROW_CREATE ? "*" : "X", 1);
	grid_finish(&g, new_line(lay));
}

struct tn_seq_drawing *tn_seq_render(const struct tn_seq_model *model,
		const struct tn_seq_render_options *options)
{
	struct tn_seq_drawing *drawing = g_new0(struct tn_seq_drawing, 1);
	struct tn_seq_render_options opt = *options;
	struct layout lay = {
		.model = model,
		.opt = &opt,
		.glyphs = options->ascii ? &ascii_glyphs : &unicode_glyphs,
	};
	GArray *rows;

	opt.width = MAX(opt.width, 1);
	drawing->lifeline_count = tn_seq_model_get_lifeline_count(model);
	if (drawing->lifeline_count == 0)
		return drawing;
	rows = collect_rows(model);
	plan_layout(&lay, rows);
	lay.lines = g_array_new(FALSE, FALSE, sizeof(struct tn_seq_line));
	draw_header(&lay);
	for (guint i = 0; i < rows->len; i++) {
		const struct row *row = &g_array_index(rows, struct row, i);

		if (row->kind == ROW_MESSAGE)
			draw_message(&lay, drawing, row->index);
		else
			draw_mark(&lay, row);
	}
	g_array_free(rows, TRUE);
	drawing->header_lines = HEADER_LINES;
	drawing->line_count = lay.lines->len;
	drawing->lines = (struct tn_seq_line *) g_array_free(lay.lines, FALSE);
	drawing->first_lifeline = lay.first;
	drawing->shown_lifelines = lay.shown;
	drawing->column_width = lay.column;
	return drawing;
}

void tn_seq_drawing_destroy(struct tn_seq_drawing *drawing)
{
	if (!drawing)
		return;
	for (size_t i = 0; i < drawing->line_count; i++) {
		g_free(drawing->lines[i].text);
		g_free(drawing->lines[i].spans);
	}
	g_free(drawing->lines);
	g_free(drawing);
}
