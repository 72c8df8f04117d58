/* trace-open.c - open the CTF traces under a path: their metadata
 * checked, their directories grouped (by trace UUID: directories with the
 * same one are chunks of one trace, read by one src.ctf.fs component),
 * what libbabeltrace2 cannot read repaired or left out, and what it
 * refuses explained in its words (see trace-object.h). */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bt-util.h"
#include "ctf-query.h"
#include "metadata-check.h"
#include "reader-private.h"
#include "repair.h"
#include "trace-object.h"
#include "tracenav/sync.h"
#include "trace-private.h"

/* A trace directory, as src.ctf.fs's support-info query sees it. */
struct dir_entry {
	char *dir;
	bool supported;		/* src.ctf.fs reads it */
	char *key;		/* its group (the trace UUID), or NULL */
	char *where;		/* when it cannot be read: what failed, or NULL */
	char *error;		/* and the message, or NULL when it can */
	bool timed_out;		/* its query never ended: not asked again */
	struct tn_metadata_facts facts;	/* its metadata's text says */
};

/* See tn_trace_hold_range_queries(): set before the event list opens
 * its trace, on the thread that opens traces. */
static bool hold_range_queries;

void tn_trace_hold_range_queries(bool hold)
{
	hold_range_queries = hold;
}

static void dir_entry_free(gpointer data)
{
	struct dir_entry *entry = data;

	g_free(entry->dir);
	g_free(entry->key);
	g_free(entry->where);
	g_free(entry->error);
	tn_metadata_facts_fini(&entry->facts);
	g_free(entry);
}

/* The entry of directory dir, its metadata checked: what libbabeltrace2
 * would loop on for ever, or read wrongly, never reaches it
 * (metadata-check.h).  *size: the metadata file's. */
static struct dir_entry *checked_entry(const char *dir, uint64_t *size)
{
	struct dir_entry *entry = g_new0(struct dir_entry, 1);
	char *metadata = g_build_filename(dir, "metadata", NULL);
	struct tn_error why;
	struct stat st;

	entry->dir = g_strdup(dir);
	if (tn_metadata_check_file(metadata, &entry->facts, &why))
		entry->error = g_strdup_printf("%s: cannot read the trace "
			"metadata: %s", dir, why.message);
	*size = stat(metadata, &st) == 0 ? (uint64_t) st.st_size : 0;
	g_free(metadata);
	return entry;
}

/* The entries of dirs as src.ctf.fs's support-info query would give
 * them, from tracenav's check of their metadata: readable when the check
 * passes (the probe, which parses the metadata anyway, finds out when
 * it is not), grouped by the UUID of their `trace` block as the query
 * groups them.  The query would parse every metadata once more. */
static GPtrArray *unqueried_dirs(const GPtrArray *dirs)
{
	GPtrArray *entries = g_ptr_array_new_with_free_func(dir_entry_free);

	for (guint i = 0; i < dirs->len; i++) {
		uint64_t size;
		struct dir_entry *entry = checked_entry(dirs->pdata[i], &size);

		entry->supported = !entry->error;
		if (entry->supported && entry->facts.has_uuid)
			entry->key = g_strdup(entry->facts.uuid);
		g_ptr_array_add(entries, entry);
	}
	return entries;
}

/* Ask src.ctf.fs whether it reads each directory and in which group (the
 * trace UUID: directories with the same one are chunks of one trace);
 * this validates the metadata.  One child process for all. */
static GPtrArray *query_dirs(const GPtrArray *dirs)
{
	GPtrArray *entries = g_ptr_array_new_with_free_func(dir_entry_free);
	struct tn_ctf_query *queries = g_new0(struct tn_ctf_query, dirs->len);
	size_t *entry_of = g_new0(size_t, dirs->len);
	size_t count = 0;

	for (guint i = 0; i < dirs->len; i++) {
		uint64_t size;
		struct dir_entry *entry = checked_entry(dirs->pdata[i], &size);
		bt_value *params;

		g_ptr_array_add(entries, entry);
		if (entry->error)
			continue;
		params = bt_value_map_create();
		bt_value_map_insert_string_entry(params, "input", entry->dir);
		bt_value_map_insert_string_entry(params, "type", "directory");
		queries[count].object = "babeltrace.support-info";
		queries[count].params = params;
		queries[count].where = g_strdup_printf("%s: cannot read the "
			"trace metadata", entry->dir);
		queries[count].timeout_ms = TN_CTF_SUPPORT_INFO_TIMEOUT_MS +
			size / TN_CTF_SUPPORT_INFO_BYTES_PER_MS;
		entry_of[count++] = i;
	}
	tn_ctf_queries_run(queries, count);
	for (size_t q = 0; q < count; q++) {
		struct dir_entry *entry = entries->pdata[entry_of[q]];
		const bt_value *result = queries[q].result, *value;

		if (!result) {
			/* A query that never ended is not tried again to
			 * explain it (see attempt_explained()). */
			entry->timed_out = queries[q].timed_out;
			entry->where = queries[q].timed_out ? NULL :
				queries[q].where;
			entry->error = queries[q].error;
			if (!queries[q].timed_out)
				queries[q].where = NULL;
			queries[q].error = NULL;
			tn_ctf_query_fini(&queries[q]);
			continue;
		}
		value = bt_value_map_borrow_entry_value_const(result, "weight");
		entry->supported = value && bt_value_is_real(value) &&
			bt_value_real_get(value) > 0;
		value = bt_value_map_borrow_entry_value_const(result, "group");
		if (value && bt_value_is_string(value))
			entry->key = g_strdup(bt_value_string_get(value));
		tn_ctf_query_fini(&queries[q]);
	}
	g_free(queries);
	g_free(entry_of);
	return entries;
}

/* The trace's directories and groups, from entries (readable ones). */
static void build_groups(struct tn_trace *trace, const GPtrArray *entries)
{
	GHashTable *by_key = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < entries->len; i++) {
		const struct dir_entry *entry = entries->pdata[i];
		struct trace_group *group = entry->key ?
			g_hash_table_lookup(by_key, entry->key) : NULL;
		size_t index = trace->dirs->len;

		g_ptr_array_add(trace->dirs, g_strdup(entry->dir));
		if (!group) {
			group = g_new0(struct trace_group, 1);
			group->key = g_strdup(entry->key ? entry->key :
				entry->dir);
			group->dirs = g_ptr_array_new_with_free_func(g_free);
			group->indexes = g_array_new(FALSE, FALSE,
				sizeof(size_t));
			g_ptr_array_add(trace->groups, group);
			if (entry->key)
				g_hash_table_insert(by_key, group->key, group);
		}
		g_ptr_array_add(group->dirs, g_strdup(entry->dir));
		g_array_append_val(group->indexes, index);
	}
	g_hash_table_destroy(by_key);
}

static int check_path(const char *path, struct tn_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		tn_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		tn_error_set(err, "%s: not a directory: give the directory "
			"of a CTF trace (the one holding its `metadata` file) "
			"or a directory of traces", path);
		return -1;
	}
	return 0;
}

/* Open the trace made of entries (directories src.ctf.fs reads) and
 * probe it.  When libbabeltrace2 fails, err says why and where (size
 * TN_ERROR_MAX) names what failed, for a better explanation from its
 * log. */
/* The probe failed on a stream file that libbabeltrace2 named (its
 * error causes do when it sets a stream file up, tracenav's merge when
 * it reads one): have the repair keep what it can of it, or leave it
 * out, and the stand-ins written again.  true when the trace is to be
 * probed again; err (the probe's failure) is kept otherwise. */
static bool repair_failed_file(struct tn_repair *repair,
		struct tn_error *err)
{
	char *file = g_strdup(tn_bt_get_failed_file());
	char *original = tn_repair_original_path(file);
	char *prefix = g_strdup_printf("cannot read stream file %s: ",
		original ? original : file);
	const char *why = err->message;
	struct tn_error write_err;
	bool again = false;

	/* The reason without the file: the note names it. */
	if (g_str_has_prefix(why, prefix))
		why += strlen(prefix);
	else if (g_str_has_prefix(why, "cannot read trace: "))
		why += strlen("cannot read trace: ");
	if (repair && *file && tn_repair_leave_out(repair, file, why) == 0) {
		again = tn_repair_write(repair, &write_err) == 0;
		if (!again)
			tn_error_set(err, "%s", write_err.message);
	}
	g_free(prefix);
	g_free(original);
	g_free(file);
	return again;
}

/* Whether the repair skipped every stream file of one of the trace's
 * directories (err then says why): a trace of which nothing can be read
 * is an error, not an empty trace. */
static bool all_skipped(const struct tn_trace *trace, struct tn_error *err)
{
	const char *file, *text;

	for (guint i = 0; i < trace->dirs->len; i++)
		if (tn_repair_dir_unreadable(trace->repair,
				trace->dirs->pdata[i], &file, &text)) {
			tn_error_set(err, "%s: cannot read trace: %s: %s",
				(const char *) trace->dirs->pdata[i], file,
				text);
			return true;
		}
	return false;
}

static int open_entries(const char *path, const GPtrArray *entries,
		struct tn_repair *repair, bool info_only, struct tn_trace **out,
		char *where, struct tn_error *err)
{
	struct tn_trace *trace;

	/* Each stream file refused costs one more try, twice at most (its
	 * whole packets kept, then left out): a bounded loop. */
	for (;;) {
		trace = tn_trace_new(path, repair);
		build_groups(trace, entries);
		tn_trace_find_real_dirs(trace);
		for (guint i = 0; i < entries->len; i++) {
			const struct dir_entry *entry = entries->pdata[i];

			if (entry->facts.has_tracer && tn_trace_tracer_needs_fixups(
					entry->facts.tracer_name,
					entry->facts.tracer_major,
					entry->facts.tracer_minor,
					entry->facts.tracer_patchlevel))
				trace->fixups_likely = true;
		}
		if (trace->groups->len == 0) {
			tn_error_set(err, "%s: no CTF trace found: "
				"libbabeltrace2 reads none of the `metadata` "
				"files under it", path);
			goto fail;
		}
		/* --info: without a reader, when the metadata allows. */
		if (info_only && entries->len == 1 && tn_trace_probe_info(trace,
				&((const struct dir_entry *) entries->pdata[0])->facts) == 0)
			break;
		trace->hold_range_query = hold_range_queries && !info_only;
		if (tn_trace_probe(trace, err) == 0) {
			if (all_skipped(trace, err))
				goto fail;
			break;
		}
		if (!repair_failed_file(repair, err)) {
			char cause[TN_ERROR_MAX];

			snprintf(cause, sizeof(cause), "%s", err->message);
			snprintf(where, TN_ERROR_MAX, "%s: cannot read trace",
				path);
			tn_error_set(err, "%s: %s", path, cause);
			goto fail;
		}
		tn_trace_destroy(trace);
	}
	tn_trace_sort_names(trace);
	*out = trace;
	return 0;
fail:
	tn_trace_destroy(trace);
	return -1;
}

/* One try at opening directories of the path. */
struct attempt {
	const char *path;
	const GPtrArray *dirs;		/* char *: the directories */
	const GPtrArray *given;		/* their entries, or NULL: query */
	bool tolerant;			/* open those src.ctf.fs reads */
	bool info_only;			/* for --info (tn_trace_open_info()) */
	struct tn_repair *repair;	/* the path's stand-ins */
	GPtrArray *queried;		/* struct dir_entry *, if queried */
	struct tn_trace *trace;		/* the result */
	char where[TN_ERROR_MAX];	/* see open_entries() */
};

static const GPtrArray *attempt_entries(const struct attempt *a)
{
	return a->given ? a->given : a->queried;
}

/* The first entry src.ctf.fs cannot read, or NULL. */
static const struct dir_entry *first_failed(const GPtrArray *entries)
{
	for (guint i = 0; entries && i < entries->len; i++)
		if (((const struct dir_entry *) entries->pdata[i])->error)
			return entries->pdata[i];
	return NULL;
}

/* Query the directories (unless given) and open those that src.ctf.fs
 * reads.  Not tolerant, a directory it cannot read fails the whole;
 * tolerant, only when no other one is left. */
static int attempt_run(struct attempt *a, struct tn_error *err)
{
	const struct dir_entry *failed;
	const GPtrArray *entries;
	GPtrArray *readable = g_ptr_array_new();
	int status;

	a->where[0] = '\0';
	if (!a->given)
		a->queried = query_dirs(a->dirs);
	entries = attempt_entries(a);
	failed = first_failed(entries);
	for (guint i = 0; i < entries->len; i++) {
		const struct dir_entry *entry = entries->pdata[i];

		if (!entry->error && entry->supported)
			g_ptr_array_add(readable, entries->pdata[i]);
	}
	if (failed && (!a->tolerant || readable->len == 0)) {
		snprintf(a->where, sizeof(a->where), "%s",
			failed->where ? failed->where : "");
		tn_error_set(err, "%s", failed->error);
		status = -1;
	} else {
		status = open_entries(a->path, readable, a->repair,
			a->info_only, &a->trace, a->where, err);
	}
	g_ptr_array_free(readable, TRUE);
	return status;
}

/* The same with libbabeltrace2's log captured; on failure, the first
 * error it logged goes into detail. */
static int attempt_captured(struct attempt *a, bool explain, char *detail,
		struct tn_error *err)
{
	struct tn_bt_log_capture capture;
	int status;

	tn_bt_capture_begin(&capture, explain);
	status = attempt_run(a, err);
	tn_bt_capture_end(&capture, detail, TN_ERROR_MAX);
	bt_current_thread_clear_error();
	return status;
}

static void attempt_fini(struct attempt *a)
{
	if (a->queried)
		g_ptr_array_free(a->queried, TRUE);
	a->queried = NULL;
}

/* Run a (not tolerant); when libbabeltrace2 fails, err gives its own
 * words: what it logged, or what it logs with the components logging
 * too, in a second try. */
static int attempt_explained(struct attempt *a, struct tn_error *err)
{
	char detail[TN_ERROR_MAX];

	/* The components made here live on (the first reader is kept), so
	 * they must not log; only the metadata parser's errors show. */
	if (attempt_captured(a, false, detail, err) == 0)
		return 0;
	if (!a->where[0])
		return -1;	/* not libbabeltrace2's failure */
	/* Fail again with the components logging, to find out why. */
	if (!*detail) {
		struct attempt retry = { a->path, a->dirs, a->given, false,
			false, a->repair, NULL, NULL, "" };
		struct tn_error retry_err;

		if (attempt_captured(&retry, true, detail, &retry_err) == 0)
			tn_trace_destroy(retry.trace);
		attempt_fini(&retry);
	}
	/* What libbabeltrace2 logged says more than its error causes. */
	if (*detail)
		tn_error_set(err, "%s: %s", a->where, detail);
	return -1;
}

/* The message of err without the directory or path it starts with: the
 * reason a directory is left out. */
static char *reason_of(const struct tn_error *err, const GPtrArray *dirs,
		const char *path)
{
	const char *message = err->message;

	for (guint i = 0; i <= dirs->len; i++) {
		const char *name = i < dirs->len ? dirs->pdata[i] : path;
		size_t len = strlen(name);

		if (strncmp(message, name, len) == 0 &&
		    strncmp(message + len, ": ", 2) == 0)
			return g_strdup(message + len + 2);
	}
	return g_strdup(message);
}

/* Why the directories of one trace cannot be read (NULL: they can),
 * as tn_trace_open() says it of them alone.  entries: theirs, or NULL
 * to ask src.ctf.fs about them again. */
static char *reason_alone(const char *path, const GPtrArray *dirs,
		const GPtrArray *entries, struct tn_repair *repair)
{
	struct attempt a = { path, dirs, entries, false, false, repair, NULL,
		NULL, "" };
	struct tn_error err;
	char *reason = NULL;

	if (attempt_explained(&a, &err) == 0)
		tn_trace_destroy(a.trace);
	else
		reason = reason_of(&err, dirs, path);
	attempt_fini(&a);
	return reason;
}

static void leave_out(GPtrArray *left, const char *dir, const char *reason)
{
	struct left_out *entry = g_new0(struct left_out, 1);

	entry->dir = g_strdup(dir);
	entry->reason = g_strdup(reason);
	g_ptr_array_add(left, entry);
}

/* Every trace of the collection is unreadable. */
static int fail_all(const char *path, const GPtrArray *left,
		struct tn_error *err)
{
	const struct left_out *first = left->pdata[0];

	tn_error_set(err, "%s: none of the %u traces under it can be read; "
		"%s: %s", path, left->len, first->dir, first->reason);
	return -1;
}

/* The readable entries, grouped as src.ctf.fs groups them (by trace
 * UUID): GPtrArray of GPtrArray of struct dir_entry *. */
static GPtrArray *entry_groups(const GPtrArray *entries)
{
	GPtrArray *groups = g_ptr_array_new_with_free_func(
		(GDestroyNotify) g_ptr_array_unref);
	GHashTable *by_key = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		GPtrArray *group;

		if (entry->error || !entry->supported)
			continue;
		group = entry->key ? g_hash_table_lookup(by_key, entry->key) :
			NULL;
		if (!group) {
			group = g_ptr_array_new();
			g_ptr_array_add(groups, group);
			if (entry->key)
				g_hash_table_insert(by_key, entry->key, group);
		}
		g_ptr_array_add(group, entry);
	}
	g_hash_table_destroy(by_key);
	return groups;
}

static GPtrArray *dirs_of(const GPtrArray *entries)
{
	GPtrArray *dirs = g_ptr_array_new();

	for (guint i = 0; i < entries->len; i++)
		g_ptr_array_add(dirs,
			((struct dir_entry *) entries->pdata[i])->dir);
	return dirs;
}

/* Open entries (not tolerant), explained. */
static int open_explained(const char *path, const GPtrArray *entries,
		struct tn_repair *repair, struct tn_trace **out,
		struct tn_error *err)
{
	GPtrArray *dirs = dirs_of(entries);
	struct attempt a = { path, dirs, entries, false, false, repair, NULL,
		NULL, "" };
	int status = attempt_explained(&a, err);

	if (status == 0)
		*out = a.trace;
	attempt_fini(&a);
	g_ptr_array_free(dirs, TRUE);
	return status;
}

/* A collection whose first try failed, or left directories out: find
 * the traces that cannot be read alone, leave them out, and open the
 * rest.  Each trace is tried alone, which takes a graph each, but only
 * when something is broken.  first: that try (tolerant). */
static int open_rest(const char *path, struct attempt *first,
		struct tn_trace **out, struct tn_error *err)
{
	const GPtrArray *entries = attempt_entries(first);
	GHashTable *reasons = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GPtrArray *left = g_ptr_array_new_with_free_func(tn_trace_left_out_free);
	GPtrArray *groups = NULL, *keep = g_ptr_array_new();
	struct tn_trace *trace = first->trace;
	int status = 0;

	first->trace = NULL;
	/* Directories whose metadata src.ctf.fs cannot read: why, in the
	 * words it would give of each alone. */
	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		GPtrArray *one;
		char *reason;

		if (!entry->error)
			continue;
		one = g_ptr_array_new();
		g_ptr_array_add(one, entry->dir);
		reason = entry->timed_out ? NULL :
			reason_alone(path, one, NULL, first->repair);
		if (!reason) {	/* readable after all: said as it was */
			struct tn_error said;

			tn_error_set(&said, "%s", entry->error);
			reason = reason_of(&said, one, path);
		}
		g_hash_table_insert(reasons, entry, reason);
		g_ptr_array_free(one, TRUE);
	}
	/* The others did not open together: try each trace alone. */
	if (!trace) {
		groups = entry_groups(entries);
		if (groups->len == 1 && g_hash_table_size(reasons) == 0) {
			/* The collection is one trace: its own failure. */
			status = open_explained(path, groups->pdata[0],
				first->repair, &trace, err);
			goto out;
		}
		for (guint g = 0; g < groups->len; g++) {
			GPtrArray *group = groups->pdata[g];
			GPtrArray *dirs = dirs_of(group);
			char *reason = reason_alone(path, dirs, group,
				first->repair);

			for (guint i = 0; reason && i < group->len; i++)
				g_hash_table_insert(reasons, group->pdata[i],
					g_strdup(reason));
			g_free(reason);
			g_ptr_array_free(dirs, TRUE);
		}
	}
	/* What is left out, in the directories' order, and what is kept. */
	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		const char *reason = g_hash_table_lookup(reasons, entry);

		if (reason)
			leave_out(left, entry->dir, reason);
		else if (entry->supported)
			g_ptr_array_add(keep, entry);
	}
	if (!trace && keep->len == 0 && left->len > 0) {
		status = fail_all(path, left, err);
		goto out;
	}
	/* The rest together (again, if no group failed alone: then the
	 * failure is the collection's, said as it is). */
	if (!trace)
		status = open_explained(path, keep, first->repair, &trace,
			err);
out:
	if (status == 0) {
		g_ptr_array_free(trace->left_out, TRUE);
		trace->left_out = left;
		left = NULL;
		*out = trace;
	}
	if (left)
		g_ptr_array_free(left, TRUE);
	if (groups)
		g_ptr_array_free(groups, TRUE);
	g_ptr_array_free(keep, TRUE);
	g_hash_table_destroy(reasons);
	return status;
}

/* The packet indexes a directory does not use: how many, how many of
 * them in another tool's format, the first one's note. */
struct ignored_indexes {
	char *dir;
	size_t count, foreign;
	const char *file, *text;
};

/* One line for a directory's ignored indexes: the note itself when
 * there is one, else how many (a collection whose every stream has an
 * index of another format would otherwise say it once a stream). */
static char *ignored_indexes_line(const struct ignored_indexes *ig)
{
	if (ig->count == 1)
		return g_strdup_printf("%s: %s", ig->file, ig->text);
	if (ig->foreign == ig->count)
		return g_strdup_printf("%s: %zu index files not in LTTng's "
			"format: indexing from the stream files", ig->dir,
			ig->count);
	return g_strdup_printf("%s: %zu packet index files ignored (the "
		"first, %s: %s)", ig->dir, ig->count, ig->file, ig->text);
}

/* What the repair noted in the directories read, for the trace to
 * keep: the damage, a note a file; the indexes not used, a line a
 * directory. */
static void keep_damage(struct tn_trace *trace)
{
	GArray *ignored = g_array_new(FALSE, TRUE,
		sizeof(struct ignored_indexes));

	for (size_t i = 0; i < tn_repair_get_note_count(trace->repair); i++) {
		const char *file = tn_repair_get_note_file(trace->repair, i);
		const char *text = tn_repair_get_note_text(trace->repair, i);
		enum tn_repair_note_kind kind =
			tn_repair_get_note_kind(trace->repair, i);
		char *dir = g_path_get_dirname(file);
		struct ignored_indexes *ig = NULL;
		struct damage *damage;

		if (!g_ptr_array_find_with_equal_func(trace->dirs, dir,
				g_str_equal, NULL)) {
			g_free(dir);
			continue;
		}
		if (kind == TN_REPAIR_NOTE_DAMAGE ||
		    kind == TN_REPAIR_NOTE_INCOMPLETE) {
			g_free(dir);
			damage = g_new0(struct damage, 1);
			damage->file = g_strdup(file);
			damage->text = g_strdup(text);
			damage->incomplete = kind == TN_REPAIR_NOTE_INCOMPLETE;
			g_ptr_array_add(trace->damage, damage);
			continue;
		}
		for (guint k = 0; k < ignored->len && !ig; k++)
			if (!strcmp(g_array_index(ignored,
					struct ignored_indexes, k).dir, dir))
				ig = &g_array_index(ignored,
					struct ignored_indexes, k);
		if (!ig) {
			struct ignored_indexes first = { dir, 0, 0, file,
				text };

			g_array_append_val(ignored, first);
			ig = &g_array_index(ignored, struct ignored_indexes,
				ignored->len - 1);
		} else {
			g_free(dir);
		}
		ig->count++;
		if (kind == TN_REPAIR_NOTE_INDEX_FOREIGN)
			ig->foreign++;
	}
	for (guint k = 0; k < ignored->len; k++) {
		struct ignored_indexes *ig = &g_array_index(ignored,
			struct ignored_indexes, k);

		g_ptr_array_add(trace->notices, ignored_indexes_line(ig));
		g_free(ig->dir);
	}
	g_array_free(ignored, TRUE);
}

static int open_path(const char *path, bool info_only,
		struct tn_trace **out, struct tn_error *err)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	struct tn_repair *repair = tn_repair_create();
	struct attempt first = { path, dirs, NULL, false, info_only, repair,
		NULL, NULL, "" };
	char detail[TN_ERROR_MAX];
	int status;

	if (check_path(path, err)) {
		g_ptr_array_free(dirs, TRUE);
		tn_repair_destroy(repair);
		return -1;
	}
	tn_trace_find_dirs(path, dirs);
	/* What libbabeltrace2 would refuse the whole trace for, left out
	 * of the stand-ins it reads instead (repair.h). */
	for (guint i = 0; i < dirs->len; i++)
		tn_repair_check_dir(repair, dirs->pdata[i]);
	if (dirs->len == 0) {
		tn_error_set(err, "%s: no CTF trace found: no directory under "
			"it holds a `metadata` file", path);
		status = -1;
	} else if (tn_repair_write(repair, err)) {
		status = -1;
	} else if (dirs->len == 1) {
		/* One trace: opened without asking src.ctf.fs about it first;
		 * only when that fails, asked (its answer says why in its
		 * words), and explained. */
		GPtrArray *unqueried = unqueried_dirs(dirs);

		first.given = unqueried;
		status = attempt_captured(&first, false, detail, err);
		if (status && !first_failed(unqueried)) {
			first.given = NULL;
			status = attempt_explained(&first, err);
		}
		if (status == 0)
			*out = first.trace;
		g_ptr_array_free(unqueried, TRUE);
	} else {
		/* A collection: as it is first (its directories checked and
		 * grouped without a query, and one probe); only when that
		 * fails or leaves directories out, find out which and open
		 * the rest. */
		GPtrArray *unqueried = unqueried_dirs(dirs);

		first.tolerant = true;
		first.given = unqueried;
		status = attempt_captured(&first, false, detail, err);
		if (status == 0 && !first_failed(unqueried))
			*out = first.trace;
		else if (status == 0 || first.where[0] ||
			 first_failed(unqueried))
			status = open_rest(path, &first, out, err);
		g_ptr_array_free(unqueried, TRUE);
	}
	attempt_fini(&first);
	g_ptr_array_free(dirs, TRUE);
	if (status == 0) {
		(*out)->owns_repair = true;
		keep_damage(*out);
	} else {
		tn_repair_destroy(repair);
	}
	return status;
}

int tn_trace_open(const char *path, struct tn_trace **out,
		struct tn_error *err)
{
	return open_path(path, false, out, err);
}

int tn_trace_open_info(const char *path, struct tn_trace **out,
		struct tn_error *err)
{
	return open_path(path, true, out, err);
}

void tn_trace_destroy(struct tn_trace *trace)
{
	if (!trace)
		return;
	tn_reader_destroy(atomic_load(&trace->shared->start_reader));
	tn_trace_infos_abandon(atomic_load(&trace->shared->pending));
	pthread_mutex_destroy(&trace->shared->range_lock);
	g_array_free(trace->shared->group_ranges, TRUE);
	tn_sync_destroy(trace->sync);
	g_free(trace->group_transforms);
	pthread_mutex_destroy(&trace->shared->steps_lock);
	g_hash_table_destroy(trace->shared->steps);
	g_free(trace->shared);
	g_ptr_array_free(trace->infos, TRUE);
	g_ptr_array_free(trace->left_out, TRUE);
	g_ptr_array_free(trace->event_names, TRUE);
	if (trace->field_set)
		g_hash_table_destroy(trace->field_set);
	g_ptr_array_free(trace->field_names, TRUE);
	g_hash_table_destroy(trace->dir_clocks);
	g_hash_table_destroy(trace->real_dirs);
	g_ptr_array_free(trace->groups, TRUE);
	g_ptr_array_free(trace->dirs, TRUE);
	g_ptr_array_free(trace->damage, TRUE);
	g_ptr_array_free(trace->notices, TRUE);
	if (trace->owns_repair)
		tn_repair_destroy(trace->repair);
	g_free(trace->path);
	g_free(trace);
}
