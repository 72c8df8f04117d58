/* trace.c - the trace object: made, freed and read (see trace.h,
 * trace-private.h; how it is filled in: trace-object.h). */
#include <babeltrace2/babeltrace.h>
#include <dirent.h>
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bytes.h"
#include "repair.h"
#include "trace-object.h"
#include "trace-private.h"

static void info_free(gpointer data)
{
	struct tn_trace_info *info = data;

	for (size_t i = 0; i < info->dir_count; i++)
		g_free(info->dirs[i]);
	g_free(info->dirs);
	for (size_t i = 0; i < info->env_count; i++) {
		g_free(info->env[i].name);
		g_free(info->env[i].value);
	}
	for (size_t i = 0; i < info->clock_count; i++)
		g_free(info->clocks[i].name);
	g_free(info->env);
	g_free(info->clocks);
	g_free(info->name);
	g_free(info->hostname);
	g_free(info->domain);
	g_free(info->uuid);
	g_free(info);
}

static void damage_free(gpointer data)
{
	struct damage *damage = data;

	g_free(damage->file);
	g_free(damage->text);
	g_free(damage);
}

void tn_trace_left_out_free(gpointer data)
{
	struct left_out *left = data;

	g_free(left->dir);
	g_free(left->reason);
	g_free(left);
}

void tn_trace_group_free(gpointer data)
{
	struct trace_group *group = data;

	g_free(group->key);
	g_ptr_array_free(group->dirs, TRUE);
	g_array_free(group->indexes, TRUE);
	g_free(group);
}

struct tn_trace *tn_trace_new(const char *path, struct tn_repair *repair)
{
	struct tn_trace *trace = g_new0(struct tn_trace, 1);

	trace->repair = repair;
	trace->damage = g_ptr_array_new_with_free_func(damage_free);
	trace->notices = g_ptr_array_new_with_free_func(g_free);
	trace->path = g_strdup(path);
	trace->dirs = g_ptr_array_new_with_free_func(g_free);
	trace->groups = g_ptr_array_new_with_free_func(tn_trace_group_free);
	trace->infos = g_ptr_array_new_with_free_func(info_free);
	trace->event_names = g_ptr_array_new_with_free_func(g_free);
	trace->field_set = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	trace->field_names = g_ptr_array_new_with_free_func(g_free);
	trace->left_out = g_ptr_array_new_with_free_func(tn_trace_left_out_free);
	trace->dir_clocks = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	trace->real_dirs = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	trace->shared = g_new0(struct trace_shared, 1);
	atomic_init(&trace->shared->start_reader, NULL);
	atomic_init(&trace->shared->packet_tables, NULL);
	atomic_init(&trace->shared->pending, NULL);
	pthread_mutex_init(&trace->shared->range_lock, NULL);
	trace->shared->group_ranges = g_array_new(FALSE, TRUE,
		sizeof(struct trace_range));
	pthread_mutex_init(&trace->shared->steps_lock, NULL);
	trace->shared->steps = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, tn_trace_stream_steps_free);
	return trace;
}

void tn_trace_set_packet_tables(const struct tn_trace *trace,
		const struct tn_packet_tables *tables)
{
	atomic_store(&trace->shared->packet_tables, tables);
}

const struct tn_packet_tables *tn_trace_borrow_packet_tables(
		const struct tn_trace *trace)
{
	return atomic_load(&trace->shared->packet_tables);
}

struct tn_reader *tn_trace_take_start_reader(const struct tn_trace *trace)
{
	return atomic_exchange(&trace->shared->start_reader, NULL);
}

/* The real path of dir (g_free() it): trace->real_dirs' for one of the
 * trace's directories, else realpath()'s, else dir itself. */
char *tn_trace_real_dir(const struct tn_trace *trace, const char *dir)
{
	const char *known = g_hash_table_lookup(trace->real_dirs, dir);
	char *real;
	char *copy;

	if (known)
		return g_strdup(known);
	real = realpath(dir, NULL);
	copy = g_strdup(real ? real : dir);
	free(real);
	return copy;
}

/* Fill trace->real_dirs in: each directory and its stand-in (whose
 * streams libbabeltrace2 names after it) stand for the directory's real
 * path. */
void tn_trace_find_real_dirs(struct tn_trace *trace)
{
	for (guint i = 0; i < trace->dirs->len; i++) {
		const char *dir = trace->dirs->pdata[i];
		const char *read = tn_repair_read_dir(trace->repair, dir);
		char *real;

		if (g_hash_table_contains(trace->real_dirs, dir))
			continue;
		real = tn_trace_real_dir(trace, dir);
		g_hash_table_insert(trace->real_dirs, g_strdup(dir),
			g_strdup(real));
		if (read != dir) {
			char *real_read = realpath(read, NULL);

			g_hash_table_insert(trace->real_dirs, g_strdup(read),
				g_strdup(real));
			if (real_read)
				g_hash_table_insert(trace->real_dirs,
					g_strdup(real_read), g_strdup(real));
			free(real_read);
		}
		g_hash_table_insert(trace->real_dirs, real, g_strdup(real));
	}
}

/* The key of a trace directory in the tables of clocks: its real path,
 * so that a trace reached through a symlink or "..", which src.ctf.fs
 * may spell another way in its stream names, is found again. */
char *tn_trace_dir_key(const struct tn_trace *trace, const char *dir)
{
	return tn_trace_real_dir(trace, dir);
}

/* The value of directory dir in table, keyed by tn_trace_dir_key(). */
static gpointer lookup_dir(const struct tn_trace *trace, GHashTable *table,
		const char *dir)
{
	char *key = tn_trace_dir_key(trace, dir);
	gpointer found = g_hash_table_lookup(table, key);

	g_free(key);
	return found;
}

/* The same, or that of another chunk of dir's group: the chunks of a
 * rotated trace share its metadata, hence its clock, but libbabeltrace2
 * names each stream after its first chunk. */
gpointer tn_trace_lookup_dir_or_group(const struct tn_trace *trace,
		GHashTable *table, const char *dir)
{
	gpointer found = lookup_dir(trace, table, dir);

	for (guint g = 0; !found && g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];

		if (!g_ptr_array_find_with_equal_func(group->dirs, dir,
				g_str_equal, NULL))
			continue;
		for (guint i = 0; !found && i < group->dirs->len; i++)
			found = lookup_dir(trace, table, group->dirs->pdata[i]);
	}
	return found;
}

const char *tn_trace_get_path(const struct tn_trace *trace)
{
	return trace->path;
}

size_t tn_trace_get_dir_count(const struct tn_trace *trace)
{
	return trace->dirs->len;
}

/* Bytes of the regular files in path (the metadata's too unless
 * skip_metadata). */
static uint64_t dir_bytes(const char *path, bool skip_metadata)
{
	DIR *dir = opendir(path);
	struct dirent *entry;
	uint64_t total = 0;

	while (dir && (entry = readdir(dir))) {
		struct stat st;

		if ((skip_metadata && strcmp(entry->d_name, "metadata") == 0) ||
		    fstatat(dirfd(dir), entry->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
			continue;
		total += (uint64_t) st.st_size;
	}
	if (dir)
		closedir(dir);
	return total;
}

uint64_t tn_trace_get_stream_bytes(const struct tn_trace *trace)
{
	uint64_t total = 0;

	for (size_t i = 0; i < trace->dirs->len; i++)
		total += dir_bytes(trace->dirs->pdata[i], true);
	return total;
}

/* The modification times of dir and of the directories above it up to
 * top: they change when an entry is added (a stream file, a trace
 * directory, a rotation chunk). */
static void add_dir_times(GByteArray *bytes, const char *dir, const char *top)
{
	char *path = g_strdup(dir);

	for (int depth = 0; depth < 32; depth++) {
		struct stat st;
		char *parent;

		if (stat(path, &st) == 0) {
			tn_bytes_put_u64(bytes, (uint64_t) st.st_mtim.tv_sec);
			tn_bytes_put_u64(bytes, (uint64_t) st.st_mtim.tv_nsec);
		}
		parent = g_path_get_dirname(path);
		if (strlen(path) <= strlen(top) || !strcmp(parent, path)) {
			g_free(parent);
			break;
		}
		g_free(path);
		path = parent;
	}
	g_free(path);
}

uint64_t tn_trace_get_written_stamp(const struct tn_trace *trace)
{
	GByteArray *bytes = g_byte_array_new();
	uint64_t stamp;

	for (size_t i = 0; i < trace->dirs->len; i++) {
		const char *dir = trace->dirs->pdata[i];
		char *index = g_build_filename(dir, "index", NULL);

		tn_bytes_put_u64(bytes, dir_bytes(dir, false));
		tn_bytes_put_u64(bytes, dir_bytes(index, false));
		add_dir_times(bytes, dir, trace->path);
		g_free(index);
	}
	stamp = tn_bytes_hash64(bytes->data, bytes->len);
	g_byte_array_free(bytes, TRUE);
	return stamp;
}

const char *tn_trace_get_dir(const struct tn_trace *trace, size_t index)
{
	return trace->dirs->pdata[index];
}

size_t tn_trace_get_info_count(const struct tn_trace *trace)
{
	return trace->infos->len;
}

const struct tn_trace_info *tn_trace_borrow_info(const struct tn_trace *trace,
		size_t index)
{
	return trace->infos->pdata[index];
}

size_t tn_trace_get_left_out_count(const struct tn_trace *trace)
{
	return trace->left_out->len;
}

const char *tn_trace_get_left_out_dir(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct left_out *) trace->left_out->pdata[index])->dir;
}

const char *tn_trace_get_left_out_reason(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct left_out *)
		trace->left_out->pdata[index])->reason;
}

const char *const *tn_trace_get_event_names(const struct tn_trace *trace)
{
	return (const char *const *) trace->event_names->pdata;
}

const char *const *tn_trace_get_field_names(const struct tn_trace *trace)
{
	return (const char *const *) trace->field_names->pdata;
}

size_t tn_trace_get_stream_count(const struct tn_trace *trace)
{
	return trace->stream_count;
}

const char *tn_trace_get_group_name_suffix(const struct tn_trace *trace,
		size_t group)
{
	const char *path = tn_trace_get_path(trace);
	const char *dir;
	size_t len = strlen(path);

	if (tn_trace_get_group_dir_count(trace, group) != 1)
		return NULL;
	dir = tn_trace_get_group_dir(trace, group, 0);
	while (len > 1 && path[len - 1] == '/')
		len--;
	if (strncmp(dir, path, len) != 0 || dir[len] != '/' || !dir[len + 1])
		return NULL;
	return dir + len + 1;
}

bool tn_trace_get_first_event_time(const struct tn_trace *trace,
		int64_t *ns)
{
	if (trace->sync) {
		*ns = trace->sync_first_event_ns;
		return trace->has_sync_first_event;
	}
	if (!trace->has_first_event)
		return false;
	*ns = trace->first_event_ns;
	return true;
}

bool tn_trace_has_clock(const struct tn_trace *trace)
{
	return trace->has_clock;
}

bool tn_trace_can_trim(const struct tn_trace *trace)
{
	return trace->can_trim;
}

size_t tn_trace_get_group_count(const struct tn_trace *trace)
{
	return trace->groups->len;
}

size_t tn_trace_get_group_dir_count(const struct tn_trace *trace, size_t group)
{
	return ((struct trace_group *) trace->groups->pdata[group])->dirs->len;
}

const char *tn_trace_get_group_dir(const struct tn_trace *trace, size_t group,
		size_t index)
{
	return ((struct trace_group *) trace->groups->pdata[group])->dirs->pdata[index];
}

size_t tn_trace_get_group_dir_index(const struct tn_trace *trace,
		size_t group, size_t index)
{
	return g_array_index(((struct trace_group *)
		trace->groups->pdata[group])->indexes, size_t, index);
}

const struct tn_sync *tn_trace_get_sync(const struct tn_trace *trace)
{
	return trace->sync;
}

const struct tn_sync_transform *tn_trace_get_group_transform(
		const struct tn_trace *trace, size_t group)
{
	if (!trace->group_transforms || group >= trace->groups->len)
		return NULL;
	return trace->group_transforms[group];
}

size_t tn_trace_group_of_dir(const struct tn_trace *trace, size_t index)
{
	for (guint g = 0; g < trace->groups->len; g++) {
		const GArray *indexes = ((struct trace_group *)
			trace->groups->pdata[g])->indexes;

		for (guint i = 0; i < indexes->len; i++)
			if (g_array_index(indexes, size_t, i) == index)
				return g;
	}
	return 0;
}

bool tn_trace_get_dir_clock(const struct tn_trace *trace, size_t index,
		struct tn_clock_info *clock)
{
	const struct tn_clock_info *found = tn_trace_lookup_dir_or_group(trace,
		trace->dir_clocks, tn_trace_get_dir(trace, index));

	if (!found)
		return false;
	*clock = *found;
	clock->name = NULL;
	return true;
}

const char *tn_trace_get_read_dir(const struct tn_trace *trace, size_t index)
{
	return tn_repair_read_dir(trace->repair, trace->dirs->pdata[index]);
}

const char *tn_trace_get_group_read_dir(const struct tn_trace *trace,
		size_t group, size_t index)
{
	return tn_repair_read_dir(trace->repair,
		tn_trace_get_group_dir(trace, group, index));
}

void tn_trace_refresh_read_dirs(const struct tn_trace *trace)
{
	tn_repair_refresh(trace->repair);
}

uint64_t tn_trace_get_read_generation(const struct tn_trace *trace)
{
	return tn_repair_get_generation(trace->repair);
}

size_t tn_trace_get_notice_count(const struct tn_trace *trace)
{
	return trace->notices->len;
}

const char *tn_trace_get_notice(const struct tn_trace *trace, size_t index)
{
	return trace->notices->pdata[index];
}

size_t tn_trace_get_damage_count(const struct tn_trace *trace)
{
	return trace->damage->len;
}

bool tn_trace_get_damage_is_incomplete(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct damage *)
		trace->damage->pdata[index])->incomplete;
}

const char *tn_trace_get_damage_file(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct damage *) trace->damage->pdata[index])->file;
}

const char *tn_trace_get_damage_text(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct damage *) trace->damage->pdata[index])->text;
}

/* What the reads saw of a stream file whose times go back. */
struct stream_steps {
	int64_t by;		/* by how much, at most */
	/* The events that went back: "TIME LATEST" (ns) -> itself. */
	GHashTable *events;
};

void tn_trace_stream_steps_free(gpointer data)
{
	struct stream_steps *steps = data;

	g_hash_table_destroy(steps->events);
	g_free(steps);
}

void tn_trace_note_step(const struct tn_trace *trace, const char *name,
		int64_t by_ns, const GArray *event_times)
{
	struct trace_shared *shared = trace->shared;
	char *real = realpath(name, NULL);
	const char *key = real ? real : name;
	struct stream_steps *known;

	pthread_mutex_lock(&shared->steps_lock);
	known = g_hash_table_lookup(shared->steps, key);
	if (!known) {
		known = g_new0(struct stream_steps, 1);
		known->events = g_hash_table_new_full(g_str_hash,
			g_str_equal, g_free, NULL);
		g_hash_table_insert(shared->steps, g_strdup(key), known);
	}
	known->by = MAX(known->by, by_ns);
	for (guint i = 0; event_times && i + 1 < event_times->len; i += 2)
		g_hash_table_add(known->events, g_strdup_printf("%" PRId64
			" %" PRId64, g_array_index(event_times, int64_t, i),
			g_array_index(event_times, int64_t, i + 1)));
	pthread_mutex_unlock(&shared->steps_lock);
	free(real);
}

static gint compare_lines(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

char **tn_trace_describe_steps(const struct tn_trace *trace)
{
	struct trace_shared *shared = trace->shared;
	GPtrArray *lines = g_ptr_array_new();
	GHashTableIter iter;
	gpointer name, value;

	pthread_mutex_lock(&shared->steps_lock);
	g_hash_table_iter_init(&iter, shared->steps);
	while (g_hash_table_iter_next(&iter, &name, &value)) {
		const struct stream_steps *steps = value;
		guint events = g_hash_table_size(steps->events);

		g_ptr_array_add(lines, events ? g_strdup_printf("stream "
			"file `%s`: %u event%s seen going back in time, by up "
			"to %" PRId64 " ns; its events are read in its own "
			"order", (const char *) name, events, events == 1 ?
			"" : "s", steps->by) : g_strdup_printf("stream file "
			"`%s`: its packet bounds go back in time (by up to %"
			PRId64 " ns); its events are read in its own order",
			(const char *) name, steps->by));
	}
	pthread_mutex_unlock(&shared->steps_lock);
	g_ptr_array_sort(lines, compare_lines);
	g_ptr_array_add(lines, NULL);
	return (char **) g_ptr_array_free(lines, FALSE);
}

size_t tn_trace_get_step_count(const struct tn_trace *trace)
{
	size_t count;

	pthread_mutex_lock(&trace->shared->steps_lock);
	count = g_hash_table_size(trace->shared->steps);
	pthread_mutex_unlock(&trace->shared->steps_lock);
	return count;
}
