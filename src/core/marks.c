/* marks.c - marked events and their file (see marks.h). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracenav/file.h"
#include "tracenav/marks.h"

#define MAGIC "tracenav-marks"
#define VERSION 1
#define ID_HEX_LEN 16
/* A marks file is a few lines a mark: anything bigger is not ours. */
#define MAX_FILE_SIZE (64 << 20)

struct tn_marks {
	GArray *positions;	/* struct tn_position, sorted, unique */
};

struct tn_marks *tn_marks_create(void)
{
	struct tn_marks *marks = g_new0(struct tn_marks, 1);

	marks->positions = g_array_new(FALSE, FALSE,
		sizeof(struct tn_position));
	return marks;
}

void tn_marks_destroy(struct tn_marks *marks)
{
	if (!marks)
		return;
	g_array_free(marks->positions, TRUE);
	g_free(marks);
}

size_t tn_marks_count(const struct tn_marks *marks)
{
	return marks ? marks->positions->len : 0;
}

const struct tn_position *tn_marks_get(const struct tn_marks *marks,
		size_t index)
{
	return &g_array_index(marks->positions, struct tn_position, index);
}

/* The index of the first mark at or after pos (count if none). */
static size_t lower_bound(const struct tn_marks *marks,
		const struct tn_position *pos)
{
	size_t lo = 0, hi = marks->positions->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tn_position_compare(tn_marks_get(marks, mid), pos) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool tn_marks_has(const struct tn_marks *marks,
		const struct tn_position *pos)
{
	size_t at;

	if (!marks)
		return false;
	at = lower_bound(marks, pos);
	return at < marks->positions->len &&
		tn_position_compare(tn_marks_get(marks, at), pos) == 0;
}

bool tn_marks_toggle(struct tn_marks *marks, const struct tn_position *pos)
{
	size_t at = lower_bound(marks, pos);

	if (at < marks->positions->len &&
	    tn_position_compare(tn_marks_get(marks, at), pos) == 0) {
		g_array_remove_index(marks->positions, (guint) at);
		return false;
	}
	g_array_insert_val(marks->positions, (guint) at, *pos);
	return true;
}

bool tn_marks_remove(struct tn_marks *marks, const struct tn_position *pos)
{
	size_t at = lower_bound(marks, pos);

	if (at >= marks->positions->len ||
	    tn_position_compare(tn_marks_get(marks, at), pos) != 0)
		return false;
	g_array_remove_index(marks->positions, (guint) at);
	return true;
}

void tn_marks_clear(struct tn_marks *marks)
{
	g_array_set_size(marks->positions, 0);
}

long tn_marks_find(const struct tn_marks *marks, const struct tn_position *pos,
		bool forward, bool wrap, bool *wrapped)
{
	size_t count = tn_marks_count(marks), at;

	*wrapped = false;
	if (count == 0)
		return -1;
	at = lower_bound(marks, pos);
	if (forward) {
		/* Past pos itself. */
		if (at < count &&
		    tn_position_compare(tn_marks_get(marks, at), pos) == 0)
			at++;
		if (at < count)
			return (long) at;
		*wrapped = wrap;
		return wrap ? 0 : -1;
	}
	if (at > 0)
		return (long) at - 1;
	*wrapped = wrap;
	return wrap ? (long) count - 1 : -1;
}

/* ---- The file ---- */

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

int tn_marks_path(const struct tn_trace *trace, const char *dir, char **out,
		struct tn_error *err)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(free);
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char *name;

	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		char *real = realpath(tn_trace_get_dir(trace, i), NULL);

		if (!real) {
			tn_error_set(err, "cannot read trace directory %s: %s",
				tn_trace_get_dir(trace, i), strerror(errno));
			g_ptr_array_free(dirs, TRUE);
			g_checksum_free(sum);
			return -1;
		}
		g_ptr_array_add(dirs, real);
	}
	g_ptr_array_sort(dirs, compare_strings);
	g_checksum_update(sum, (const guchar *) MAGIC, sizeof(MAGIC));
	for (guint i = 0; i < dirs->len; i++)
		g_checksum_update(sum, dirs->pdata[i],
			(gssize) strlen(dirs->pdata[i]) + 1);
	name = g_strdup_printf("%.*s.marks", ID_HEX_LEN,
		g_checksum_get_string(sum));
	*out = g_build_filename(dir, name, NULL);
	g_free(name);
	g_checksum_free(sum);
	g_ptr_array_free(dirs, TRUE);
	return 0;
}

/* Parse "NS TIE" into pos. */
static bool parse_line(const char *line, struct tn_position *pos)
{
	char *end;
	long long ns;
	unsigned long long tie;

	errno = 0;
	ns = strtoll(line, &end, 10);
	if (errno || end == line || *end != ' ')
		return false;
	line = end + 1;
	if (*line < '0' || *line > '9')
		return false;
	tie = strtoull(line, &end, 10);
	if (errno || *end)
		return false;
	pos->ns = ns;
	pos->tie = tie;
	return true;
}

static gint compare_positions(gconstpointer a, gconstpointer b)
{
	return tn_position_compare(a, b);
}

/* Sort positions and drop repeats.  Sorting once keeps a large file
 * fast whatever its order: inserting each mark in place took minutes
 * for a million marks in reverse order. */
static void sort_unique(GArray *positions)
{
	guint kept = 0;

	g_array_sort(positions, compare_positions);
	for (guint i = 0; i < positions->len; i++) {
		const struct tn_position *pos = &g_array_index(positions,
			struct tn_position, i);

		if (kept > 0 && tn_position_compare(&g_array_index(positions,
				struct tn_position, kept - 1), pos) == 0)
			continue;
		g_array_index(positions, struct tn_position, kept++) = *pos;
	}
	g_array_set_size(positions, kept);
}

/* End the line that starts at line: the next one, NULL after the last.
 * One line at a time: g_strsplit() scans the rest of the text again for
 * each line under AddressSanitizer (its strstr() checks), minutes for a
 * large file in the tests. */
static char *cut_line(char *line)
{
	char *end = strchr(line, '\n');

	if (!end)
		return NULL;
	*end = '\0';
	return end + 1;
}

/* Append the positions of text (NUL-terminated; its line breaks are
 * cut) to positions.  Returns 0, or -1 with err (and the line) if it
 * is not a marks file of this version. */
static int parse_lines(char *text, GArray *positions, struct tn_error *err)
{
	char *line = text, *next = cut_line(text);
	size_t number = 1;
	int version;

	if (sscanf(line, MAGIC " %d", &version) != 1 ||
	    strncmp(line, MAGIC " ", sizeof(MAGIC))) {
		tn_error_set(err, "line 1: not a marks file");
		return -1;
	}
	if (version != VERSION) {
		tn_error_set(err, "line 1: version %d, not %d", version,
			VERSION);
		return -1;
	}
	for (line = next; line; line = next) {
		struct tn_position pos;

		next = cut_line(line);
		number++;
		if (!line[0] || line[0] == '#')
			continue;
		if (!parse_line(line, &pos)) {
			tn_error_set(err, "line %zu: \"%.40s\" is not "
				"\"NS TIE\"", number, line);
			return -1;
		}
		g_array_append_val(positions, pos);
	}
	return 0;
}

int tn_marks_parse(struct tn_marks *marks, const char *text, size_t size,
		struct tn_error *err)
{
	GArray *positions;
	char *copy;
	int status;

	tn_marks_clear(marks);
	if (size > MAX_FILE_SIZE || memchr(text, '\0', size)) {
		tn_error_set(err, "not a text file of marks");
		return -1;
	}
	copy = g_strndup(text, size);
	positions = g_array_new(FALSE, FALSE, sizeof(struct tn_position));
	status = parse_lines(copy, positions, err);
	g_free(copy);
	if (status) {
		g_array_free(positions, TRUE);
		return -1;
	}
	sort_unique(positions);
	g_array_free(marks->positions, TRUE);
	marks->positions = positions;
	return 0;
}

int tn_marks_load(struct tn_marks *marks, const char *path,
		struct tn_error *err)
{
	GError *error = NULL;
	struct tn_error why;
	char *text, *bad;
	gsize size;

	tn_marks_clear(marks);
	if (!g_file_get_contents(path, &text, &size, &error)) {
		bool missing = g_error_matches(error, G_FILE_ERROR,
			G_FILE_ERROR_NOENT);

		if (!missing)
			tn_error_set(err, "cannot read the marks file %s: %s",
				path, error->message);
		g_error_free(error);
		return missing ? 0 : -1;
	}
	if (tn_marks_parse(marks, text, size, &why) == 0) {
		g_free(text);
		return 0;
	}
	g_free(text);
	/* Never lost: moved aside for whoever wants to look at it. */
	bad = g_strconcat(path, ".bad", NULL);
	if (rename(path, bad) == 0)
		tn_error_set(err, "the marks file %s is damaged (%s): kept as "
			"%s; starting without marks", path, why.message, bad);
	else
		tn_error_set(err, "the marks file %s is damaged (%s) and "
			"cannot be moved aside (%s): marks are not saved",
			path, why.message, strerror(errno));
	g_free(bad);
	return -1;
}

void tn_marks_format(const struct tn_marks *marks, const char *trace_path,
		GString *out)
{
	g_string_append_printf(out, MAGIC " %d\n# ", VERSION);
	/* The path is a comment: a line break in it (a directory may have
	 * one) would start a line that is no comment, and the file would
	 * not load again. */
	for (const char *c = trace_path ? trace_path : ""; *c; c++) {
		if (*c == '\n')
			g_string_append(out, "\\n");
		else if (*c == '\r')
			g_string_append(out, "\\r");
		else
			g_string_append_c(out, *c);
	}
	g_string_append_c(out, '\n');
	for (size_t i = 0; i < tn_marks_count(marks); i++)
		g_string_append_printf(out, "%" PRId64 " %" PRIu64 "\n",
			tn_marks_get(marks, i)->ns, tn_marks_get(marks, i)->tie);
}

int tn_marks_save(const struct tn_marks *marks, const char *path,
		const char *trace_path, struct tn_error *err)
{
	char *dir = g_path_get_dirname(path);
	GString *text = g_string_new(NULL);
	int saved_errno = 0;

	if (tn_marks_count(marks) == 0) {
		if (unlink(path) != 0 && errno != ENOENT)
			saved_errno = errno;
		goto out;
	}
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		saved_errno = errno;
		goto out;
	}
	tn_marks_format(marks, trace_path, text);
	saved_errno = tn_file_replace(path, text->str, text->len);
out:
	if (saved_errno)
		tn_error_set(err, "cannot save the marks in %s: %s", path,
			strerror(saved_errno));
	g_string_free(text, TRUE);
	g_free(dir);
	return saved_errno ? -1 : 0;
}
