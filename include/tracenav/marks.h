/* marks.h - events the user marked, kept by position (time and tie, so
 * that no preparse is needed) in trace order, and saved in a small text
 * file per trace next to the index cache, so that they come back when
 * the trace is opened again.
 *
 * The file, <id>.marks in the cache directory (id: 16 hex digits of a
 * SHA-256 of the real paths of the trace's directories, so that marks
 * outlive changes to the trace's files and to the index format):
 *
 *   tracenav-marks 1
 *   # PATH (the trace, for whoever reads the file)
 *   NS TIE
 *   ...
 *
 * one line per mark, NS the event's time in ns from origin and TIE how
 * many events of that time come before it.  It is written atomically
 * (a temporary file renamed over it, mode 0600).  A file that does not
 * read so is moved aside to <id>.marks.bad, never overwritten.
 */
#ifndef TRACENAV_MARKS_H
#define TRACENAV_MARKS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"
#include "tracenav/trace.h"

struct tn_marks;

/* An empty set of marks. */
struct tn_marks *tn_marks_create(void);
void tn_marks_destroy(struct tn_marks *marks);

/* How many marks there are; mark `index` (0 <= index < count), in trace
 * order. */
size_t tn_marks_count(const struct tn_marks *marks);
const struct tn_position *tn_marks_get(const struct tn_marks *marks,
		size_t index);

/* Whether the event at pos is marked (NULL marks: false). */
bool tn_marks_has(const struct tn_marks *marks,
		const struct tn_position *pos);

/* Mark pos if it is not, unmark it if it is; true when it is now
 * marked. */
bool tn_marks_toggle(struct tn_marks *marks, const struct tn_position *pos);

/* Unmark pos; false if it was not marked. */
bool tn_marks_remove(struct tn_marks *marks, const struct tn_position *pos);

/* Unmark everything. */
void tn_marks_clear(struct tn_marks *marks);

/* The index of the first mark after pos (forward) or the last one
 * before it (not forward), pos itself excluded; with wrap, past the
 * last (first) mark comes the first (last), *wrapped then true.
 * Returns the index, or -1 when there is none (no mark at all, or none
 * that way without wrap). */
long tn_marks_find(const struct tn_marks *marks, const struct tn_position *pos,
		bool forward, bool wrap, bool *wrapped);

/* The path of trace's marks file in dir (g_free it).  Returns 0, or -1
 * with err when the trace's directories cannot be resolved. */
int tn_marks_path(const struct tn_trace *trace, const char *dir, char **out,
		struct tn_error *err);

/* Replace marks by those of the file at path; a missing file gives no
 * marks.  Returns 0, or -1 with err: the file is damaged (it was moved
 * aside to PATH.bad, and err says where and why) or cannot be read;
 * marks is then empty. */
int tn_marks_load(struct tn_marks *marks, const char *path,
		struct tn_error *err);

/* Replace marks by those of text, size bytes holding a marks file
 * (what tn_marks_load() reads; text needs no NUL at its end).  Returns
 * 0, or -1 with err saying why it is not a marks file ("line 3: \"12
 * x\" is not \"NS TIE\""); marks is then empty. */
int tn_marks_parse(struct tn_marks *marks, const char *text, size_t size,
		struct tn_error *err);

/* Append to out the text of a marks file holding marks, with trace_path
 * (NULL: none) in its comment, a line break written \n: what
 * tn_marks_save() writes and tn_marks_parse() reads back. */
void tn_marks_format(const struct tn_marks *marks, const char *trace_path,
		GString *out);

/* Write marks to path atomically (its directory is made, 0700, if
 * needed), with trace_path in a comment; no mark removes the file.
 * Returns 0, or -1 with err naming the file and the cause. */
int tn_marks_save(const struct tn_marks *marks, const char *path,
		const char *trace_path, struct tn_error *err);

#endif
