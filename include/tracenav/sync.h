/* sync.h - several hosts on one time line: a linear clock correction per
 * host, computed from the network packets one host sends and another
 * receives.
 *
 * The matcher (a consumer of the one read of the trace: preparse.h)
 * pairs each TCP packet sent on one host (net_dev_queue, or the older
 * addon event inet_sock_local_out) with its receipt on another
 * (netif_receive_skb, inet_sock_local_in), by the TCP header's seq,
 * ack_seq and flags.  A packet sent at time s on host A and received at
 * r on host B says that B's clock read less than r when A's read s: a
 * point (s, r) above the line T_B = f(T_A); one from B to A, a point
 * below it.  The convex hulls of both sets (sync-hull.h) bound the
 * lines that keep every receipt after its send; the correction is the
 * mean of the two extreme ones (the slopes' mean, the intercepts'
 * mean), as in the fully incremental convex-hull algorithm of
 * Jabbarifar, Dagenais and Shameli-Sendi.  With more than two hosts,
 * the corrections are composed along a spanning tree of the hosts that
 * matched, rooted at the reference host.
 *
 * Times are ns from the clock's origin (the Unix epoch for LTTng):
 * about 1.7e18, where a double resolves 256 ns.  A correction is kept
 * as slope and offset in long double and applied as T + round((slope -
 * 1) T + offset), where the rounded term is small: nanoseconds stay
 * exact (see tn_sync_transform_apply()).
 */
#ifndef TRACENAV_SYNC_H
#define TRACENAV_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/trace.h"

/* T_reference = slope * T_host + offset, T in ns from the clock's
 * origin. */
struct tn_sync_transform {
	long double slope;
	long double offset;
};

/* The identity (slope 1, offset 0). */
void tn_sync_transform_init(struct tn_sync_transform *tr);

/* tr applied to ns, to the nearest nanosecond. */
int64_t tn_sync_transform_apply(const struct tn_sync_transform *tr,
		int64_t ns);

/* The host time that tr turns into ns: the one whose
 * tn_sync_transform_apply() is ns when there is one (then
 * apply(invert(ns)) == ns, and invert(apply(t)) == t for a slope >= 1),
 * else the nearest. */
int64_t tn_sync_transform_invert(const struct tn_sync_transform *tr,
		int64_t ns);

/* outer after inner: T = outer(inner(T_host)). */
void tn_sync_transform_compose(const struct tn_sync_transform *outer,
		const struct tn_sync_transform *inner,
		struct tn_sync_transform *out);

/* The inverse transform of tr (slope > 0). */
void tn_sync_transform_inverse(const struct tn_sync_transform *tr,
		struct tn_sync_transform *out);

/* How good a host's correction is. */
enum tn_sync_quality {
	TN_SYNC_REFERENCE,	/* the reference host: its clock is kept */
	TN_SYNC_ABSENT,		/* no packet matched with another host */
	TN_SYNC_INCOMPLETE,	/* packets went one way only: no bound */
	TN_SYNC_APPROXIMATE,	/* both ways, but only one bound */
	TN_SYNC_ACCURATE,	/* both bounds */
	TN_SYNC_FAILED,		/* no line keeps every receipt after its
				 * send (the clocks are not linear) */
};

/* "reference", "absent", "incomplete", "approximate", "accurate",
 * "failed". */
const char *tn_sync_quality_name(enum tn_sync_quality quality);

/* One host of a correction. */
struct tn_sync_host {
	char *name;		/* its hostname (or trace name) */
	struct tn_sync_transform transform;	/* to the reference */
	enum tn_sync_quality quality;
	/* The largest distance in ns between the two bounding lines over
	 * the times of the packets matched with its parent (0 for the
	 * reference; -1 when there is no pair of bounds). */
	long double accuracy;
	/* Packets matched with its parent in the tree; for the
	 * reference, all the packets it sent or received that matched. */
	uint64_t matches;
	/* Its parent in the tree (an index in the hosts), or -1: the
	 * reference, or a host whose clock is kept. */
	int parent;
};

/* A correction: one entry per host, in the order of the trace
 * directories' paths (the reference is the first that matched). */
struct tn_sync {
	size_t host_count;
	struct tn_sync_host *hosts;
	/* What the matching counted (0 for a correction loaded from a
	 * file). */
	uint64_t matched;	/* packets sent on one host, received on another */
	uint64_t unmatched;	/* sends and receipts left without a pair */
	uint64_t duplicates;	/* a key seen again before its pair came */
};

void tn_sync_destroy(struct tn_sync *sync);

/* A copy of sync (the caller's). */
struct tn_sync *tn_sync_copy(const struct tn_sync *sync);

/* The host named name, or NULL. */
const struct tn_sync_host *tn_sync_find_host(const struct tn_sync *sync,
		const char *name);

/* The host of ev's trace (its hostname, else its trace's name), or
 * NULL (sync NULL, or no such host). */
const struct tn_sync_host *tn_sync_host_of_event(const struct tn_sync *sync,
		const struct tn_event *ev);

/* Append the correction's lines to out: one per host, tab-separated:
 * HOST SLOPE OFFSET_NS QUALITY ACCURACY MATCHES (SLOPE with 20
 * decimals, OFFSET_NS and ACCURACY with 3; ACCURACY "-" when there is
 * none). */
void tn_sync_format(const struct tn_sync *sync, GString *out);

/* Round each transform to what tn_sync_format() prints of it, so that
 * a correction read back from its text is the same, nanosecond for
 * nanosecond. */
void tn_sync_round(struct tn_sync *sync);

/* Read a correction written by tn_sync_format() (lines starting with
 * '#' and empty lines skipped).  Returns 0 and *out (the caller's), or
 * -1 with err naming the line. */
int tn_sync_parse(const char *text, struct tn_sync **out,
		struct tn_error *err);

/* tn_sync_parse() of the file at path.  Returns 0 and *out, or -1 with
 * err naming the file. */
int tn_sync_load_file(const char *path, struct tn_sync **out,
		struct tn_error *err);

/* ---- the matcher: a consumer of the preparse (preparse.h) ---- */

struct tn_sync_matcher;

/* Whether trace has something to match: events that send and events
 * that receive packets, of more than one host. */
bool tn_sync_matcher_applies(const struct tn_trace *trace);

/* A matcher for the hosts of trace (its traces' hostnames; traces of
 * one hostname are one host: one clock). */
struct tn_sync_matcher *tn_sync_matcher_create(const struct tn_trace *trace);
void tn_sync_matcher_destroy(struct tn_sync_matcher *matcher);

/* Append to wants (a GArray of struct tn_field_want) the fields it
 * reads. */
void tn_sync_matcher_add_wants(const struct tn_sync_matcher *matcher,
		GArray *wants);

/* Take one event, in the order of a full read. */
void tn_sync_matcher_event(struct tn_sync_matcher *matcher,
		const struct tn_event *ev);

/* The correction of what it took (the caller's). */
struct tn_sync *tn_sync_matcher_finish(struct tn_sync_matcher *matcher);

/* Match the packets of the whole trace in one read (a preparse with
 * the matcher alone, decoding on parts threads: 0 for the default),
 * waiting for it; on a job's thread, its progress ("matching packets")
 * and cancel are that job's.  Returns 0 and *out (the caller's), or -1
 * with err. */
int tn_sync_compute(const struct tn_trace *trace, unsigned parts,
		struct tn_sync **out, struct tn_error *err);

#endif
