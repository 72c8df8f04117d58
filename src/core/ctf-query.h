/* ctf-query.h - src.ctf.fs's queries, in a child process (internal: not
 * part of the public API).
 *
 * libbabeltrace2 2.0.4's src.ctf.fs runs a query without a component,
 * yet on some failures deep in its stream file reading (a stream file
 * that uses a stream class its metadata never declared, a packet it
 * cannot decode while it fixes the packet indexes up) it appends an
 * error cause "from the component": the library's precondition check
 * then aborts the whole process.  So the queries of a trace run in a
 * child process (fork, no exec), which writes each result to a pipe as
 * a record; a child killed by a signal costs the query it was running,
 * and the queries after it run in a new child.  The child takes no lock
 * (it is alone: the parent holds the classes lock while it forks, so
 * that no other thread is changing the classes' reference counts), and
 * it leaves with _exit(): neither the parent's atexit cleanup nor its
 * buffered stdout run twice.  Its log goes to the parent's stderr, hence
 * into a capture (bt-util.h) while a trace opens.  Graphs (the probe,
 * the readers) are not isolated: there the error causes have their
 * component.
 *
 * A run of queries may be started, left to go on while the caller does
 * something else (the probe of a trace, on the other core), and
 * finished later: tn_ctf_queries_start(), tn_ctf_queries_finish().
 */
#ifndef TRACENAV_CORE_CTF_QUERY_H
#define TRACENAV_CORE_CTF_QUERY_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tn_ctf_query {
	const char *object;
	const bt_value *params;	/* a reference, put by tn_ctf_query_fini() */
	char *where;		/* what fails when it does (owned) */
	/* How long it may run, from the end of the one before: its child
	 * is killed after that (a watchdog: libbabeltrace2 loops for ever
	 * on some inputs that tracenav's checks do not know). */
	uint64_t timeout_ms;
	const bt_value *result;	/* out: NULL if it failed */
	char *error;		/* out: then "WHERE: CAUSE" (owned) */
	int crash_signal;	/* out: the signal that ended its child, or 0 */
	bool timed_out;		/* out: it ran out of time (and was killed) */
};

/* The support-info query parses the metadata (a few ms for the 350 KB of
 * a kernel trace); trace-infos also reads the packet headers of stream
 * files without index.  Generous, for loaded machines and sanitizers:
 * the limits only stop a query that would never end. */
#define TN_CTF_SUPPORT_INFO_TIMEOUT_MS 5000
#define TN_CTF_SUPPORT_INFO_BYTES_PER_MS 128	/* + 1 s per 128 KB of metadata */
#define TN_CTF_TRACE_INFOS_TIMEOUT_MS 30000
#define TN_CTF_TRACE_INFOS_BYTES_PER_MS 32768	/* + 1 s per 32 MB of streams */

/* Run the queries (object, params, where and timeout_ms set), each in a
 * child process (one child for all of them unless one crashes); each
 * gets a result or an error. */
void tn_ctf_queries_run(struct tn_ctf_query *queries, size_t count);

/* The same in two steps: start the first child, which goes on alone
 * (its results wait in a pipe); finish() collects them (and runs what a
 * crash left) and frees run; abandon() kills the child, leaves the
 * queries without result or error, and frees run.  queries must live
 * until then.  The caller's thread, as tn_ctf_queries_run(). */
struct tn_ctf_query_run;
struct tn_ctf_query_run *tn_ctf_queries_start(struct tn_ctf_query *queries,
		size_t count);
void tn_ctf_queries_finish(struct tn_ctf_query_run *run);
void tn_ctf_queries_abandon(struct tn_ctf_query_run *run);

/* The same start, but the child waits to be released before it runs
 * the first query: forked now (while no other thread of the caller
 * runs), it takes no processor from what the caller does first, and
 * none at all when its answer is never wanted (the process ends
 * without releasing it).  finish() releases it; so does release(),
 * which returns at once (nothing when released already). */
struct tn_ctf_query_run *tn_ctf_queries_start_held(
		struct tn_ctf_query *queries, size_t count);
void tn_ctf_queries_release(struct tn_ctf_query_run *run);

/* Whether finish() would not wait: the child has written its last
 * result and closed its pipe (or none runs).  Never blocks; false also
 * while a result larger than the pipe waits to be read (finish() then
 * reads it), and while a held child waits to be released.  A crashed child's later queries still run in finish(). */
bool tn_ctf_queries_ended(const struct tn_ctf_query_run *run);

/* Put the params' and result's references, free where and error. */
void tn_ctf_query_fini(struct tn_ctf_query *query);

#endif
