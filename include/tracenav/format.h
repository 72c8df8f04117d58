/* format.h - events as text, in babeltrace2's default output format.
 *
 * `tracenav --dump` prints exactly what `babeltrace2 PATH` prints, so the
 * line format here follows the babeltrace2 CLI (sink.text.pretty with its
 * default options) to the byte: time, delta, hostname, name, then the
 * packet context, event common context, specific context and payload.
 * The TUI shows the same pieces in columns.
 */
#ifndef TRACENAV_FORMAT_H
#define TRACENAV_FORMAT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"

/* What the line of an event depends on besides the event: the time of
 * the previous event (for the delta) and the time zone choice. */
struct tn_format_state {
	bool has_last;
	int64_t last_ns;
	bool gmt;		/* print times in UTC instead of local time */
	/* Optional (NULL after init): a memo of what the lines show of
	 * each trace before the event's name (host, procname, vpid), keyed
	 * by libbabeltrace2's trace object; see tn_format_host_memo_new(). */
	GHashTable *host_memo;
	/* Lines without the delta and its blank (false after init):
	 * "[time] host name: ...", the line the regex filters match. */
	bool no_delta;
};

/* Start a sequence of lines: the first event's delta is unknown. */
void tn_format_state_init(struct tn_format_state *state, bool gmt);

/* A memo for state->host_memo, for a caller that formats many events
 * (a search): the environment lookups then happen once per trace.  Only
 * while every event formatted with it comes from readers that live
 * longer than the memo (the trace objects are its keys).  Free it with
 * g_hash_table_destroy(). */
GHashTable *tn_format_host_memo_new(void);

/* Append the whole line of event ev as babeltrace2 prints it, without the
 * newline, and remember ev's time for the next delta.  ev must be an
 * event (kind TN_EVENT_KIND_EVENT). */
void tn_format_event_line(GString *out, const struct tn_event *ev,
		struct tn_format_state *state);

/* Append the fields of ev as they appear after "name: " in its line
 * (contexts and payload, e.g. "{ cpu_id = 0 }, { fd = 3 }"). */
void tn_format_event_fields(GString *out, const struct tn_event *ev);

/* The payload of ev alone, as in its line ("{ fd = 3 }"); nothing when
 * the event has no payload. */
void tn_format_event_payload(GString *out, const struct tn_event *ev);

/* The contexts of ev as in its line, separated by ", ": the packet
 * context (left out when skip_cpu and its only field is cpu_id, which
 * the event list shows in a column), the common and the specific
 * context.  Nothing when it has none. */
void tn_format_event_contexts(GString *out, const struct tn_event *ev,
		bool skip_cpu);

/* Call line(depth, text, data) for every field of ev, one per line, as
 * a tree: "name = value" for a scalar, "name:" then its members one
 * level deeper for a structure, array or variant.  The scopes come first
 * at depth 0 ("packet context:", "common context:", "specific context:",
 * "payload:"), only those the event has with at least one field. */
void tn_format_event_tree(const struct tn_event *ev,
		void (*line)(int depth, const char *text, void *data),
		void *data);

/* Append the warning babeltrace2 writes on stderr for a discarded
 * events or packets notice, without colours and without the newline:
 * "WARNING: Tracer discarded 3 events between [...] and [...] in trace
 * ...". ev must be a notice. */
void tn_format_notice(GString *out, const struct tn_event *ev, bool gmt);

/* Append text as babeltrace2 prints a string field: in double quotes,
 * with \\, \', \", \? and control characters escaped. */
void tn_format_escaped_string(GString *out, const char *text);

/* Append value in decimal, as "%" PRIu64 and "%" PRId64 would (without
 * printf's cost: loops that turn every event's fields into text). */
void tn_format_append_u64(GString *out, uint64_t value);
void tn_format_append_s64(GString *out, int64_t value);

#endif
