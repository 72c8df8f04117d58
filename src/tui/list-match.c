/* list-match.c - where the last search matches in a row of the event
 * list, for the highlight.
 *
 * A search matches the event's whole line as --dump prints it; the list
 * shows pieces of that line in columns (the time without its brackets,
 * the delta without its parentheses, the host, the name, the payload,
 * the contexts, the CPU taken out of the packet context).  So the regex
 * runs on the line, as the search did, and each match is cut into the
 * parts that fall in a piece the list shows: a match across the name
 * and the payload lights both, and a match in what no column shows (a
 * bracket, the packet context's "cpu_id =") lights nothing.  Runs where
 * the rows are computed (the command job's thread), never in drawing.
 */
#include <string.h>

#include "tracenav/format.h"
#include "list.h"

/* A match of a row is cut into at most this many parts. */
#define MAX_MATCHES 64

/* Where a cell's text is in the line: [start, start + len), or start
 * < 0 when the line does not hold it there. */
struct cell_place {
	const char *text;
	gssize start;
	size_t len;
};

/* Whether line holds text at offset at. */
static bool holds(const GString *line, size_t at, const char *text)
{
	size_t len = strlen(text);

	return at + len <= line->len && memcmp(line->str + at, text, len) == 0;
}

/* Find each cell of the row in its line: "[TIME] (DELTA) HOST... NAME:
 * FIELDS", the payload last in the fields, the contexts before it. */
static void place_cells(const GString *line, const struct list_row *text,
		struct cell_place places[LIST_CELL_COUNT])
{
	size_t at = 0;
	const char *name_at;

	for (int i = 0; i < LIST_CELL_COUNT; i++)
		places[i] = (struct cell_place) { NULL, -1, 0 };
	places[LIST_CELL_TIME].text = text->time;
	places[LIST_CELL_DELTA].text = text->delta;
	places[LIST_CELL_HOST].text = text->host;
	places[LIST_CELL_NAME].text = text->name;
	places[LIST_CELL_PAYLOAD].text = text->payload;
	places[LIST_CELL_CONTEXTS].text = text->contexts;
	for (int i = 0; i < LIST_CELL_COUNT; i++)
		places[i].len = strlen(places[i].text);
	if (holds(line, 0, "[") && holds(line, 1, text->time) &&
	    holds(line, 1 + places[LIST_CELL_TIME].len, "] (")) {
		places[LIST_CELL_TIME].start = 1;
		at = 1 + places[LIST_CELL_TIME].len + 3;
		if (holds(line, at, text->delta) &&
		    holds(line, at + places[LIST_CELL_DELTA].len, ") ")) {
			places[LIST_CELL_DELTA].start = (gssize) at;
			at += places[LIST_CELL_DELTA].len + 2;
		}
	}
	/* The host shows in the line only from the trace's environment. */
	if (text->host[0] && holds(line, at, text->host) &&
	    (holds(line, at + places[LIST_CELL_HOST].len, " ") ||
	     holds(line, at + places[LIST_CELL_HOST].len, ":"))) {
		places[LIST_CELL_HOST].start = (gssize) at;
		at += places[LIST_CELL_HOST].len;
	}
	/* The name, then ": " and the fields. */
	for (name_at = strstr(line->str + at, text->name); name_at;
	     name_at = strstr(name_at + 1, text->name)) {
		size_t offset = (size_t) (name_at - line->str);

		if (holds(line, offset + places[LIST_CELL_NAME].len, ": ")) {
			places[LIST_CELL_NAME].start = (gssize) offset;
			at = offset + places[LIST_CELL_NAME].len + 2;
			break;
		}
	}
	if (places[LIST_CELL_NAME].start < 0)
		return;
	if (places[LIST_CELL_PAYLOAD].len &&
	    places[LIST_CELL_PAYLOAD].len <= line->len - at &&
	    holds(line, line->len - places[LIST_CELL_PAYLOAD].len,
		text->payload))
		places[LIST_CELL_PAYLOAD].start = (gssize) (line->len -
			places[LIST_CELL_PAYLOAD].len);
	if (places[LIST_CELL_CONTEXTS].len) {
		const char *found = strstr(line->str + at, text->contexts);

		if (found)
			places[LIST_CELL_CONTEXTS].start =
				(gssize) (found - line->str);
	}
}

/* Keep the parts of the match [start, end) that fall in cells. */
static void add_parts(struct list_row *text,
		const struct cell_place places[LIST_CELL_COUNT], size_t start,
		size_t end)
{
	for (int i = 0; i < LIST_CELL_COUNT; i++) {
		size_t from, to;
		struct list_match part;

		if (places[i].start < 0 || text->matches->len >= MAX_MATCHES)
			continue;
		from = MAX(start, (size_t) places[i].start);
		to = MIN(end, (size_t) places[i].start + places[i].len);
		if (from >= to)
			continue;
		part.cell = (enum list_cell) i;
		part.start = from - (size_t) places[i].start;
		part.end = to - (size_t) places[i].start;
		g_array_append_val(text->matches, part);
	}
}

void tn_list_find_matches(struct list_row *text, const struct tn_row *row,
		struct tn_regex_matcher *matcher, bool gmt)
{
	struct cell_place places[LIST_CELL_COUNT];
	struct tn_format_state state;
	GString *line;
	size_t offset = 0, start, end;

	if (!matcher || row->ev.kind != TN_EVENT_KIND_EVENT)
		return;
	line = g_string_new(NULL);
	tn_format_state_init(&state, gmt);
	state.has_last = row->has_prev;
	state.last_ns = row->prev_ns;
	tn_format_event_line(line, &row->ev, &state);
	text->matches = g_array_new(FALSE, FALSE, sizeof(struct list_match));
	place_cells(line, text, places);
	while (text->matches->len < MAX_MATCHES &&
	       tn_regex_find(matcher, line->str, line->len, offset, &start,
			&end)) {
		if (end > start) {
			add_parts(text, places, start, end);
			offset = end;
		} else if (start < line->len) {
			/* An empty match: look again from the next
			 * character. */
			offset = start + (size_t) g_utf8_skip[
				(guchar) line->str[start]];
		} else {
			break;
		}
	}
	g_string_free(line, TRUE);
}
