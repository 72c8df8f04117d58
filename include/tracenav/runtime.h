/* runtime.h - tracenav's private runtime files and their removal.
 *
 * Fast seeks work on small private directories (sliced views of a trace:
 * symlinks and rewritten packet indexes) made under the runtime
 * directory, $XDG_RUNTIME_DIR/tracenav or else /tmp/tracenav-<uid>
 * (mode 0700).  The objects owning them remove them when destroyed; a
 * program that may be interrupted also calls tn_runtime_cleanup() from
 * atexit() and from its SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers,
 * so that nothing is left behind.  The temporary files of writes under
 * way (the cache, the marks, the history, an export) are registered the
 * same way.
 */
#ifndef TRACENAV_RUNTIME_H
#define TRACENAV_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"

/* Remove every private directory the process still has.  Safe in a
 * signal handler: it only calls unlink() and rmdir() on paths computed
 * in advance, without allocating or locking.  Calling it twice is
 * harmless.  The objects owning the directories are still destroyed as
 * usual (their directories are then already gone). */
void tn_runtime_cleanup(void);

/* Whether the program frees what it holds before it exits: in builds
 * with a sanitizer (whose leak check needs it) or with the environment
 * variable TRACENAV_FREE_AT_EXIT=1.  Otherwise a program that is done
 * stops its jobs (tn_job_stop_all()), calls tn_runtime_cleanup() and
 * _exit()s: tearing down the readers' graphs and the trace's metadata
 * objects takes tens of milliseconds (and, after a fork, copies pages)
 * for memory the exit gives back anyway. */
bool tn_runtime_frees_at_exit(void);

/* What follows is for the core. */

/* A registered tree of private files, removed by tn_runtime_remove() or
 * tn_runtime_cleanup(). */
struct tn_runtime_tree;

/* Make a new, empty private directory PREFIX-XXXXXX (mkdtemp) in the
 * runtime directory, creating the latter (0700) if needed and refusing
 * it if it is not a directory of ours with mode 0700 (a symlink planted
 * there is not followed).  Returns 0 and sets *path (g_free it), or -1
 * with err. */
int tn_runtime_make_dir(const char *prefix, char **path,
		struct tn_error *err);

/* Register a tree for removal: the files (or symlinks) are unlinked
 * first, then the directories are removed in the order given (children
 * before their parents).  The paths are copied.  Returns 0 and sets
 * *tree, or -1 with err (too many trees alive at once). */
int tn_runtime_register(const char *const *files, size_t file_count,
		const char *const *dirs, size_t dir_count,
		struct tn_runtime_tree **tree, struct tn_error *err);

/* Remove the tree's files and directories now and forget it.
 * NULL-safe. */
void tn_runtime_remove(struct tn_runtime_tree *tree);

/* Forget the tree, leaving its files where they are (a temporary file
 * that was renamed into place).  NULL-safe. */
void tn_runtime_forget(struct tn_runtime_tree *tree);

/* A temporary file being written (tn_file_replace(), an export):
 * registered so that a signal that ends the process removes it instead
 * of leaving it beside the file it was to replace.  Returns the tree
 * (NULL if the registry is full: the file is then only not removed on
 * a signal); tn_runtime_forget() it once renamed, tn_runtime_remove()
 * it to delete the file. */
struct tn_runtime_tree *tn_runtime_register_temp(const char *path);

/* Around the making of private files or temporary files and their
 * registration (a slice's tree, the stand-ins of a damaged trace, a
 * file replaced through a temporary one): tn_runtime_create_begin()
 * returns false once the process is ending (tn_runtime_cleanup() has
 * begun: make nothing then); otherwise the cleanup waits (200 ms at
 * most) for tn_runtime_create_end(), so that it removes what was made
 * meanwhile instead of leaving files it did not know of yet.  In
 * between, the calling thread holds back the signals that run the
 * cleanup (SIGINT, SIGTERM, SIGHUP, SIGPIPE): a handler run there could
 * not wait for the making it interrupted.  Any thread but a signal
 * handler's; pairs may nest. */
bool tn_runtime_create_begin(void);
void tn_runtime_create_end(void);

#endif
