/* runtime.c - the private runtime directory and the registry of the
 * private trees in it, removed on destroy, at exit and on signals.
 *
 * The registry is a fixed table of atomic pointers rather than a list
 * behind a mutex: tn_runtime_cleanup() runs in signal handlers, which
 * can neither lock nor allocate.  Whoever takes a tree out of its slot
 * (atomic exchange) owns it; the cleanup never frees a tree, it parks it
 * so that its owner can still free it later.
 */
#include <errno.h>
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracenav/runtime.h"

#define MAX_TREES 1024

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2,
	"the registry needs lock-free pointers to be usable in signal handlers");

struct tn_runtime_tree {
	size_t slot;
	size_t file_count;	/* paths[0..file_count) are unlinked */
	size_t path_count;	/* then paths[file_count..) are rmdir'ed */
	char *paths[];		/* the strings follow the array */
};

/* Trees alive, and trees already removed by tn_runtime_cleanup() that
 * their owner has not destroyed yet (same slot). */
static _Atomic(struct tn_runtime_tree *) live[MAX_TREES];
static _Atomic(struct tn_runtime_tree *) parked[MAX_TREES];

/* The cleanup has begun; threads making private or temporary files
 * (between tn_runtime_create_begin() and _end()). */
static atomic_bool ending;
static atomic_int creating;
/* Cleanups running (tn_runtime_cleanup()). */
static atomic_int cleaners;

/* The signals whose handler runs the cleanup, held back from a thread
 * while it makes files (see tn_runtime_create_begin()), and how deep
 * that thread is in makings (the mask it had before). */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static _Thread_local int making_depth;
static _Thread_local sigset_t mask_before;

/* $XDG_RUNTIME_DIR if it names a directory we can write in. */
static const char *usable_xdg_runtime_dir(void)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (!dir || dir[0] != '/' || stat(dir, &st) != 0 ||
	    !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
		return NULL;
	return dir;
}

/* Refuse path unless it is, itself (not through a symlink), a directory
 * owned by us that nobody else can enter. */
static int check_private_dir(const char *path, struct tn_error *err)
{
	struct stat st;

	if (lstat(path, &st) != 0) {
		tn_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		tn_error_set(err, "%s: not a directory: remove it, tracenav "
			"keeps its private files there", path);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		tn_error_set(err, "%s: owned by uid %u, not by us (uid %u): "
			"refusing to use it", path, (unsigned) st.st_uid,
			(unsigned) geteuid());
		return -1;
	}
	if ((st.st_mode & 07777) != 0700) {
		tn_error_set(err, "%s: mode %04o, not 0700: refusing to use "
			"it", path, (unsigned) (st.st_mode & 07777));
		return -1;
	}
	return 0;
}

/* The runtime directory, created if needed; g_free the result. */
static int runtime_dir(char **out, struct tn_error *err)
{
	const char *xdg = usable_xdg_runtime_dir();
	char *path = xdg ? g_strdup_printf("%s/tracenav", xdg) :
		g_strdup_printf("/tmp/tracenav-%u", (unsigned) geteuid());

	if (mkdir(path, 0700) == 0) {
		/* The umask may have taken bits away. */
		if (chmod(path, 0700) != 0) {
			tn_error_set(err, "%s: %s", path, strerror(errno));
			g_free(path);
			return -1;
		}
	} else if (errno != EEXIST) {
		tn_error_set(err, "cannot create %s: %s", path, strerror(errno));
		g_free(path);
		return -1;
	}
	if (check_private_dir(path, err)) {
		g_free(path);
		return -1;
	}
	*out = path;
	return 0;
}

int tn_runtime_make_dir(const char *prefix, char **out, struct tn_error *err)
{
	char *dir, *path;

	if (runtime_dir(&dir, err))
		return -1;
	path = g_strdup_printf("%s/%s-XXXXXX", dir, prefix);
	g_free(dir);
	if (!mkdtemp(path)) {
		tn_error_set(err, "cannot create %s: %s", path,
			strerror(errno));
		g_free(path);
		return -1;
	}
	*out = path;
	return 0;
}

/* One allocation holding the path array and the strings. */
static struct tn_runtime_tree *tree_new(const char *const *files,
		size_t file_count, const char *const *dirs, size_t dir_count)
{
	size_t count = file_count + dir_count;
	size_t size = sizeof(struct tn_runtime_tree) + count * sizeof(char *);
	struct tn_runtime_tree *tree;
	char *text;

	for (size_t i = 0; i < count; i++)
		size += strlen(i < file_count ? files[i] :
			dirs[i - file_count]) + 1;
	tree = g_malloc(size);
	tree->file_count = file_count;
	tree->path_count = count;
	text = (char *) &tree->paths[count];
	for (size_t i = 0; i < count; i++) {
		const char *path = i < file_count ? files[i] :
			dirs[i - file_count];
		size_t len = strlen(path) + 1;

		memcpy(text, path, len);
		tree->paths[i] = text;
		text += len;
	}
	return tree;
}

/* Async-signal-safe: unlink and rmdir only. */
static void remove_paths(const struct tn_runtime_tree *tree)
{
	for (size_t i = 0; i < tree->path_count; i++) {
		if (i < tree->file_count)
			unlink(tree->paths[i]);
		else
			rmdir(tree->paths[i]);
	}
}

int tn_runtime_register(const char *const *files, size_t file_count,
		const char *const *dirs, size_t dir_count,
		struct tn_runtime_tree **out, struct tn_error *err)
{
	struct tn_runtime_tree *tree = tree_new(files, file_count, dirs,
		dir_count);

	for (size_t slot = 0; slot < MAX_TREES; slot++) {
		struct tn_runtime_tree *expected = NULL;

		if (atomic_load(&parked[slot]))
			continue;
		tree->slot = slot;
		if (atomic_compare_exchange_strong(&live[slot], &expected,
				tree)) {
			*out = tree;
			return 0;
		}
	}
	tn_error_set(err, "too many private directories at once (%d)",
		MAX_TREES);
	g_free(tree);
	return -1;
}

void tn_runtime_remove(struct tn_runtime_tree *tree)
{
	struct tn_runtime_tree *expected = tree;

	if (!tree)
		return;
	/* Removed while still registered: a signal that ends the process
	 * meanwhile (on any thread) has the cleanup remove what is left.
	 * Taken out of the registry first, the files would stay when the
	 * process ended between the two (a SIGTERM as a batch ends left
	 * its slice's directory). */
	remove_paths(tree);
	if (atomic_exchange(&live[tree->slot], NULL) == tree) {
		g_free(tree);
		return;
	}
	/* tn_runtime_cleanup() took it and removed its files.  Free it only
	 * once parked: until then a signal handler may still be reading it
	 * (and the process is about to end anyway). */
	if (atomic_compare_exchange_strong(&parked[tree->slot], &expected,
			NULL))
		g_free(tree);
}

void tn_runtime_forget(struct tn_runtime_tree *tree)
{
	struct tn_runtime_tree *expected = tree;

	if (!tree)
		return;
	if (atomic_exchange(&live[tree->slot], NULL) == tree) {
		g_free(tree);
		return;
	}
	/* Already removed by tn_runtime_cleanup(): see tn_runtime_remove(). */
	if (atomic_compare_exchange_strong(&parked[tree->slot], &expected,
			NULL))
		g_free(tree);
}

struct tn_runtime_tree *tn_runtime_register_temp(const char *path)
{
	struct tn_runtime_tree *tree = NULL;
	struct tn_error err;

	if (tn_runtime_register(&path, 1, NULL, 0, &tree, &err))
		return NULL;
	return tree;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BUILT_WITH_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define BUILT_WITH_SANITIZER 1
#endif
#endif

bool tn_runtime_frees_at_exit(void)
{
#ifdef BUILT_WITH_SANITIZER
	return true;
#else
	const char *value = getenv("TRACENAV_FREE_AT_EXIT");

	return value && strcmp(value, "1") == 0;
#endif
}

/* Hold the cleanup's signals back from this thread until the making
 * ends: a handler run on the thread that is making files would wait for
 * that very making to end (it cannot), then leave what it made.  Held
 * back, a signal goes to another thread or waits for
 * tn_runtime_create_end(), by when the files are registered. */
static void hold_signals(void)
{
	sigset_t hold;

	if (making_depth++ > 0)
		return;
	sigemptyset(&hold);
	for (size_t i = 0; i < G_N_ELEMENTS(cleanup_signals); i++)
		sigaddset(&hold, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &hold, &mask_before);
}

static void release_signals(void)
{
	if (--making_depth == 0)
		pthread_sigmask(SIG_SETMASK, &mask_before, NULL);
}

bool tn_runtime_create_begin(void)
{
	hold_signals();
	/* Counted before ending is read, as the cleanup sets ending before
	 * it reads the count: one of the two sees the other. */
	atomic_fetch_add(&creating, 1);
	if (atomic_load(&ending)) {
		atomic_fetch_sub(&creating, 1);
		release_signals();
		return false;
	}
	return true;
}

void tn_runtime_create_end(void)
{
	atomic_fetch_sub(&creating, 1);
	release_signals();
}

void tn_runtime_cleanup(void)
{
	int saved_errno = errno;	/* a signal handler must keep it */
	struct timespec pause = { 0, 1000 * 1000 };

	/* A signal during a cleanup (the one at exit, say) would run a
	 * second one, which finds the trees the first has taken but not
	 * removed yet, and then ends the process, leaving them.  So the
	 * signals wait while this thread cleans, and a cleanup on another
	 * thread waits for this one (1 s at most) before its own sweep. */
	hold_signals();
	if (atomic_fetch_add(&cleaners, 1) > 0)
		for (int i = 0; i < 1000 && atomic_load(&cleaners) > 1; i++)
			nanosleep(&pause, NULL);
	/* What another thread is making now is registered soon: wait for
	 * it (200 ms at most: a thread stopped there must not hold the
	 * process). */
	atomic_store(&ending, true);
	for (int i = 0; i < 200 && atomic_load(&creating) > 0; i++)
		nanosleep(&pause, NULL);
	for (size_t slot = 0; slot < MAX_TREES; slot++) {
		struct tn_runtime_tree *tree =
			atomic_exchange(&live[slot], NULL);

		if (tree) {
			remove_paths(tree);
			atomic_store(&parked[slot], tree);
		}
	}
	atomic_fetch_sub(&cleaners, 1);
	release_signals();
	errno = saved_errno;
}
