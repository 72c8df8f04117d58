/* repair-stand-in.c - the private stand-ins of a trace's directories,
 * written from the plans of repair.c: symlinks to the metadata and the
 * stream files read, their packet indexes as they are or as repaired
 * (see repair.h); the refresh of the repaired ones for files that grow;
 * and what a stand-in's path stands for. */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repair-private.h"

/* ---- the stand-ins alive, for tn_repair_original_path() ---- */

static pthread_mutex_t stand_ins_lock = PTHREAD_MUTEX_INITIALIZER;
static GPtrArray *stand_ins;	/* char *: stand-in, original, ... */

static void remember_stand_in(const char *stand_in, const char *original)
{
	pthread_mutex_lock(&stand_ins_lock);
	if (!stand_ins)
		stand_ins = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(stand_ins, g_strdup(stand_in));
	g_ptr_array_add(stand_ins, g_strdup(original));
	pthread_mutex_unlock(&stand_ins_lock);
}

static void forget_stand_in(const char *stand_in)
{
	pthread_mutex_lock(&stand_ins_lock);
	for (guint i = 0; stand_ins && i < stand_ins->len; i += 2)
		if (strcmp(stand_ins->pdata[i], stand_in) == 0) {
			g_ptr_array_remove_range(stand_ins, i, 2);
			break;
		}
	pthread_mutex_unlock(&stand_ins_lock);
}

char *tn_repair_original_path(const char *path)
{
	char *original = NULL;

	pthread_mutex_lock(&stand_ins_lock);
	for (guint i = 0; stand_ins && !original && i < stand_ins->len;
	     i += 2) {
		const char *stand_in = stand_ins->pdata[i];
		size_t len = strlen(stand_in);

		if (strncmp(path, stand_in, len) == 0 && path[len] == '/')
			original = g_strdup_printf("%s%s",
				(const char *) stand_ins->pdata[i + 1],
				path + len);
	}
	pthread_mutex_unlock(&stand_ins_lock);
	return original;
}

/* ---- the stand-ins ---- */

bool tn_repair_needed(const struct tn_repair *repair)
{
	for (guint i = 0; i < repair->dirs->len; i++)
		if (((const struct dir_plan *) repair->dirs->pdata[i])->files->len)
			return true;
	return false;
}

void tn_repair_remove_stand_ins(struct tn_repair *repair)
{
	for (guint i = 0; i < repair->dirs->len; i++) {
		struct dir_plan *dp = repair->dirs->pdata[i];

		if (dp->stand_in)
			forget_stand_in(dp->stand_in);
		g_clear_pointer(&dp->stand_in, g_free);
	}
	tn_runtime_remove(repair->tree);
	repair->tree = NULL;
	if (repair->root)
		rmdir(repair->root);
	g_clear_pointer(&repair->root, g_free);
}

/* The stand-in of dp: its name sorts among the others as dp->dir does
 * among the directories (src.ctf.fs sorts its inputs by name, and
 * orders ties between streams by their names). */
static char *stand_in_name(const struct tn_repair *repair,
		const struct dir_plan *dp)
{
	size_t rank = 0, count = repair->dirs->len;
	int width = snprintf(NULL, 0, "%zu", count);

	for (size_t i = 0; i < count; i++) {
		const struct dir_plan *other = repair->dirs->pdata[i];
		int order = strcmp(other->dir, dp->dir);

		if (order < 0 || (order == 0 && other < dp))
			rank++;
	}
	return g_strdup_printf("%s/%0*zu", repair->root, width, rank);
}

static int link_to(const char *target, const char *link,
		GPtrArray *files, struct tn_error *err)
{
	g_ptr_array_add(files, g_strdup(link));
	if (symlink(target, link) == 0)
		return 0;
	tn_error_set(err, "cannot make %s: %s", link, strerror(errno));
	return -1;
}

/* Write the stand-in's index of a repaired stream file for the file's
 * size now.  Under the refresh lock once the trace is open. */
static int write_index(const struct dir_plan *dp, struct file_plan *plan,
		struct tn_error *err)
{
	char *file = g_build_filename(dp->real, plan->name, NULL);
	char *path = g_strdup_printf("%s/index/%s.idx", dp->stand_in,
		plan->name);
	struct stat st;
	int status = 0;

	if (stat(file, &st) != 0) {
		tn_error_set(err, "cannot read %s: %s", file, strerror(errno));
		status = -1;
	} else if ((uint64_t) st.st_size != plan->written_size) {
		status = tn_ctf_index_write_first(&plan->idx, plan->count,
			(uint64_t) st.st_size, path, err);
		if (status == 0)
			plan->written_size = (uint64_t) st.st_size;
	}
	g_free(path);
	g_free(file);
	return status;
}

/* The stand-in of dp: links to the metadata and to the stream files
 * read, and their indexes.  files and dirs get what it made. */
static int write_stand_in(struct dir_plan *dp, GPtrArray *files,
		GPtrArray *dirs, struct tn_error *err)
{
	char *index_dir = g_strdup_printf("%s/index", dp->stand_in);
	GDir *listing;
	const char *name;
	int status = 0;

	g_ptr_array_add(dirs, g_strdup(index_dir));
	g_ptr_array_add(dirs, g_strdup(dp->stand_in));
	if (mkdir(dp->stand_in, 0700) != 0 || mkdir(index_dir, 0700) != 0) {
		tn_error_set(err, "cannot make %s: %s", index_dir,
			strerror(errno));
		g_free(index_dir);
		return -1;
	}
	g_free(index_dir);
	listing = g_dir_open(dp->dir, 0, NULL);
	while (status == 0 && listing && (name = g_dir_read_name(listing))) {
		char *target = g_build_filename(dp->real, name, NULL);
		char *link = g_build_filename(dp->stand_in, name, NULL);
		struct file_plan *plan = tn_repair_find_plan(dp, name);
		char *idx_target = g_strdup_printf("%s/index/%s.idx", dp->real,
			name);
		char *idx_link = g_strdup_printf("%s/index/%s.idx",
			dp->stand_in, name);
		struct stat st;

		if (strcmp(name, "metadata") == 0) {
			status = link_to(target, link, files, err);
		} else if (name[0] != '.' && stat(target, &st) == 0 &&
			   S_ISREG(st.st_mode) &&
			   (!plan || plan->action != ACTION_SKIP)) {
			status = link_to(target, link, files, err);
			if (status == 0 && plan &&
			    plan->action == ACTION_REINDEX) {
				g_ptr_array_add(files, g_strdup(idx_link));
				g_ptr_array_add(files, g_strdup_printf(
					"%s.tmp", idx_link));
				plan->written_size = UINT64_MAX;
				status = write_index(dp, plan, err);
			} else if (status == 0 && !plan &&
				   lstat(idx_target, &st) == 0) {
				status = link_to(idx_target, idx_link, files,
					err);
			}
		}
		g_free(idx_link);
		g_free(idx_target);
		g_free(link);
		g_free(target);
	}
	if (listing)
		g_dir_close(listing);
	return status;
}

int tn_repair_write(struct tn_repair *repair, struct tn_error *err)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	int status = 0;

	if (!tn_repair_needed(repair))
		goto out;
	tn_repair_remove_stand_ins(repair);
	/* A signal that ends the process meanwhile removes them all. */
	if (!tn_runtime_create_begin()) {
		tn_error_set(err, "tracenav is ending");
		status = -1;
		goto out;
	}
	if (tn_runtime_make_dir("trace", &repair->root, err)) {
		tn_runtime_create_end();
		status = -1;
		goto out;
	}
	for (guint i = 0; status == 0 && i < repair->dirs->len; i++) {
		struct dir_plan *dp = repair->dirs->pdata[i];

		dp->stand_in = stand_in_name(repair, dp);
		status = write_stand_in(dp, files, dirs, err);
		remember_stand_in(dp->stand_in, dp->dir);
	}
	g_ptr_array_add(dirs, g_strdup(repair->root));
	/* Registered even when a write failed: what was made goes. */
	if (tn_runtime_register((const char *const *) files->pdata,
			files->len, (const char *const *) dirs->pdata,
			dirs->len, &repair->tree, status ? NULL : err))
		status = -1;
	if (status)
		tn_repair_remove_stand_ins(repair);
	tn_runtime_create_end();
out:
	g_ptr_array_free(files, TRUE);
	g_ptr_array_free(dirs, TRUE);
	return status;
}

const char *tn_repair_read_dir(const struct tn_repair *repair,
		const char *dir)
{
	for (guint i = 0; repair && i < repair->dirs->len; i++) {
		const struct dir_plan *dp = repair->dirs->pdata[i];

		if (strcmp(dp->dir, dir) == 0)
			return dp->stand_in ? dp->stand_in : dir;
	}
	return dir;
}

void tn_repair_refresh(const struct tn_repair *repair)
{
	if (!repair || !repair->root)
		return;
	pthread_mutex_lock(&repair->refresh->lock);
	for (guint i = 0; i < repair->dirs->len; i++) {
		const struct dir_plan *dp = repair->dirs->pdata[i];

		for (guint f = 0; f < dp->files->len; f++) {
			struct file_plan *plan = dp->files->pdata[f];
			uint64_t written = plan->written_size;
			struct tn_error err;

			/* A failure leaves the index as it was: then
			 * libbabeltrace2 reads the file's packets itself. */
			if (plan->action == ACTION_REINDEX &&
			    write_index(dp, plan, &err) == 0 &&
			    plan->written_size != written)
				repair->refresh->generation++;
		}
	}
	pthread_mutex_unlock(&repair->refresh->lock);
}

uint64_t tn_repair_get_generation(const struct tn_repair *repair)
{
	uint64_t generation;

	if (!repair)
		return 0;
	pthread_mutex_lock(&repair->refresh->lock);
	generation = repair->refresh->generation;
	pthread_mutex_unlock(&repair->refresh->lock);
	return generation;
}
