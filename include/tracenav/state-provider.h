/* state-provider.h - providers turn the events of a trace into changes
 * of a state system (state.h).
 *
 * Each provider is one file in src/core/providers/ and one entry of the
 * list in src/core/providers/providers.c: the Linux kernel provider
 * (CPUs, Threads, IRQs, SoftIRQs) and the userspace one (Processes,
 * call stacks).  Which ones run is chosen from the trace's event names
 * (tn_trace_get_event_names()), several at once for a kernel + UST
 * collection.
 *
 * The rule that makes snapshots work: a provider keeps everything it
 * needs to know about the past in the state system itself, never in
 * its own memory (it may cache quarks, which a restore keeps).  Then a
 * state restored from a snapshot and replayed on gives the same answers
 * as a replay from the trace's start.
 */
#ifndef TRACENAV_STATE_PROVIDER_H
#define TRACENAV_STATE_PROVIDER_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/seek.h"
#include "tracenav/state.h"
#include "tracenav/trace.h"

struct tn_state_provider_class {
	const char *name;		/* "kernel", "ust" */
	const char *description;	/* one line, for `state --providers` */
	/* Whether the provider has something to do with a trace whose
	 * event classes are named names (NULL-terminated). */
	bool (*applies)(const char *const *names);
	/* Every field handle_event() reads (event.h), the table ending
	 * with a NULL path. */
	const struct tn_field_want *wants;
	/* Optional: make the provider's private data (quark caches). */
	void *(*create)(void);
	void (*destroy)(void *data);
	/* Forget the cached quarks: the state was cleared or restored. */
	void (*reset)(void *data);
	/* Apply event ev, at position pos, to state.  Returns 0, or -1
	 * with err for a failure of the state system (a provider bug,
	 * not the trace's: a field an event lacks is skipped). */
	int (*handle_event)(void *data, struct tn_state *state,
			const struct tn_event *ev,
			const struct tn_position *pos, struct tn_error *err);
};

/* The providers that apply to a trace, each with its data: what a
 * replay feeds every event to. */
struct tn_state_providers;

/* The providers that apply to trace (maybe none: then every query
 * answers an empty state).  Never fails. */
struct tn_state_providers *tn_state_providers_create(
		const struct tn_trace *trace);
void tn_state_providers_destroy(struct tn_state_providers *providers);

/* How many apply, and their names ("kernel, ust"; "" for none). */
size_t tn_state_providers_get_count(const struct tn_state_providers *providers);
const char *tn_state_providers_get_names(
		const struct tn_state_providers *providers);

/* Append to wants (a GArray of struct tn_field_want) the fields that
 * the providers read. */
void tn_state_providers_add_wants(const struct tn_state_providers *providers,
		GArray *wants);

/* Tell every provider that state was cleared or restored. */
void tn_state_providers_reset(struct tn_state_providers *providers);

/* Feed one event (a notice is ignored) to every provider, in order.
 * Returns 0 or -1 with err. */
int tn_state_providers_handle(struct tn_state_providers *providers,
		struct tn_state *state, const struct tn_event *ev,
		const struct tn_position *pos, struct tn_error *err);

/* Every provider class, NULL-terminated (for help and tests). */
const struct tn_state_provider_class *const *tn_state_provider_classes(void);

#endif
