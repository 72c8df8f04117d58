/* seq-loader.h - loaders turn the events of a trace into the lifelines
 * and messages of a sequence diagram's model (seq.h).
 *
 * The same shape as the state providers (state-provider.h): each loader
 * is one file in src/core/seq-loaders/ and one entry of the list in
 * src/core/seq-loaders/loaders.c, and which ones run is chosen from the
 * trace's event names, several at once.  The reference loader follows
 * Trace Compass's reference convention (send and receive events with
 * sender, receiver and signal fields); the Linux kernel one turns
 * wake-ups into messages between threads, forks and exits into the
 * creation and stop of their lifelines; the one of user rules
 * (seq-rules.h) draws what a rule file says.
 *
 * A loader reads a window of the trace, in trace order, from wherever
 * the caller started it: what it keeps between events (pending sends)
 * is its own, and reset() forgets it before a new window.  It adds each
 * message at the event of its first end, so the model's messages stay
 * in trace order.
 */
#ifndef TRACENAV_SEQ_LOADER_H
#define TRACENAV_SEQ_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/seek.h"
#include "tracenav/seq.h"
#include "tracenav/trace.h"

struct tn_state;
struct tn_seq_rules;

/* What loaders are chosen and made for: a trace whose event classes are
 * named names, whose events have fields named fields (both
 * NULL-terminated, never NULL; the fields as tn_trace_get_field_names()
 * gives them), and the user's rules (NULL: none). */
struct tn_seq_loader_input {
	const char *const *names;
	const char *const *fields;
	const struct tn_seq_rules *rules;
};

struct tn_seq_loader_class {
	const char *name;		/* "reference", "kernel", "rules" */
	const char *description;	/* one line, for help and --info */
	/* The loader reads the state system (state-provider.h) in
	 * handle_event(): whoever feeds it events runs the state
	 * providers alongside when it can. */
	bool needs_state;
	/* Whether the loader has something to do with the trace: a loader
	 * that needs fields, as the reference one does, does not make a
	 * trace read for nothing when no event has them. */
	bool (*applies)(const struct tn_seq_loader_input *input);
	/* Optional: append to wants (a GArray of struct tn_field_want,
	 * event.h) every field handle_event() reads of the events of a
	 * trace of input; they must outlive input. */
	void (*add_wants)(const struct tn_seq_loader_input *input,
			struct _GArray *wants);
	/* Optional: make the loader's private data (pending ends);
	 * input and what it points to outlive the data. */
	void *(*create)(const struct tn_seq_loader_input *input);
	void (*destroy)(void *data);
	/* Optional: forget what is pending; the next event starts a new
	 * window (and maybe a new model). */
	void (*reset)(void *data);
	/* Add what event ev, at position pos, says to model.  state is the
	 * state system after the events before ev, or NULL when the caller
	 * keeps none (a loader that needs it then skips what it cannot
	 * tell).  Returns 0, or -1 with err for a failure that is not the
	 * trace's (an event that lacks a field is skipped). */
	int (*handle_event)(void *data, struct tn_seq_model *model,
			const struct tn_event *ev,
			const struct tn_position *pos,
			const struct tn_state *state, struct tn_error *err);
	/* Optional: the window ends here; close what is open (an
	 * activation with no end yet stays so: its end is outside). */
	void (*finish)(void *data, struct tn_seq_model *model);
};

/* Every loader class, NULL-terminated (for help and tests). */
const struct tn_seq_loader_class *const *tn_seq_loader_classes(void);

/* The loaders that apply to a trace, each with its data. */
struct tn_seq_loaders;

/* The loaders that apply to trace (maybe none: then no event makes a
 * message), with the user's rules (NULL: none; they must outlive the
 * loaders).  Never fails. */
struct tn_seq_loaders *tn_seq_loaders_create(const struct tn_trace *trace);
struct tn_seq_loaders *tn_seq_loaders_create_with_rules(
		const struct tn_trace *trace, const struct tn_seq_rules *rules);

/* The same for a trace whose event classes are named names, with
 * fields (both NULL-terminated; NULL is empty): for tests. */
struct tn_seq_loaders *tn_seq_loaders_create_for_names(
		const char *const *names, const char *const *fields);
/* And with rules (NULL: none). */
struct tn_seq_loaders *tn_seq_loaders_create_for_input(
		const struct tn_seq_loader_input *input);
void tn_seq_loaders_destroy(struct tn_seq_loaders *loaders);

/* How many apply, and their names ("reference, kernel"; "" for none). */
size_t tn_seq_loaders_get_count(const struct tn_seq_loaders *loaders);
const char *tn_seq_loaders_get_names(const struct tn_seq_loaders *loaders);

/* Whether one of them reads the state system (needs_state). */
bool tn_seq_loaders_need_state(const struct tn_seq_loaders *loaders);

/* Append to wants (a GArray of struct tn_field_want) the fields the
 * loaders read. */
void tn_seq_loaders_add_wants(const struct tn_seq_loaders *loaders,
		struct _GArray *wants);

/* Tell every loader that a new window starts. */
void tn_seq_loaders_reset(struct tn_seq_loaders *loaders);

/* Feed one event (a notice is ignored) to every loader, in order.
 * Returns 0 or -1 with err. */
int tn_seq_loaders_handle(struct tn_seq_loaders *loaders,
		struct tn_seq_model *model, const struct tn_event *ev,
		const struct tn_position *pos, const struct tn_state *state,
		struct tn_error *err);

/* The window ends: every loader's finish(). */
void tn_seq_loaders_finish(struct tn_seq_loaders *loaders,
		struct tn_seq_model *model);

/* ---- pairing (seq-pair.c): what loaders of send/receive pairs share ----
 *
 * The two ends of an asynchronous message are two events: a send and a
 * receive with the same sender, receiver and signal, and the same id
 * when the events carry one.  With an id, a receive pairs with the send
 * of its id whichever comes first (the clocks of two hosts may put a
 * receive before its send); without one, a receive pairs with the
 * oldest unpaired send of its sender, receiver and signal that came
 * before it (FIFO), and a send never pairs with an earlier receive (it
 * was the receive of a send before the window). */
struct tn_seq_pairer;

struct tn_seq_pairer *tn_seq_pairer_create(void);
void tn_seq_pairer_destroy(struct tn_seq_pairer *pairer);

/* Forget the pending ends (a new window, or a new model). */
void tn_seq_pairer_clear(struct tn_seq_pairer *pairer);

/* One end of a message of kind TN_SEQ_ASYNC from lifeline `from` to
 * lifeline `to` (names: the lifelines are added to model with category
 * as needed) carrying signal, with id (NULL: none), seen at at: the
 * send (receive false) or the receive.  Completes the pending message
 * it pairs with, or adds a message with this end alone, which a later
 * end may complete.  Returns true when it paired. */
bool tn_seq_pairer_add_end(struct tn_seq_pairer *pairer,
		struct tn_seq_model *model, bool receive, const char *from,
		const char *to, enum tn_seq_category category,
		const char *signal, const char *id,
		const struct tn_seq_point *at);

/* How many ends wait for their partner. */
size_t tn_seq_pairer_get_pending_count(const struct tn_seq_pairer *pairer);

#endif
