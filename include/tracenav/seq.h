/* seq.h - the sequence diagram's model: lifelines, the messages between
 * them, and their activations, built from the events of a window of a
 * trace by the loaders (seq-loader.h) and drawn as text (seq-render.h).
 *
 * Seeded by Trace Compass's UML2 sequence diagram framework.  A lifeline
 * is a named participant (a process, a thread, a node, a host), which
 * may be created and stopped inside the window.  A message goes from one
 * lifeline to another (or to itself): synchronous (a call), asynchronous
 * (a signal) or a return.  Each end of a message (its send and its
 * receive) keeps the time and the position of the event it came from,
 * so a front end can move the event list to it; either end may be
 * missing (unpaired): a message whose receive was never seen, or whose
 * send was not (it happened before the window, or was not traced).
 *
 * The messages are kept in the order of their first end (the send, or
 * the receive of a message without one), which is trace order when
 * every message is added at the event of its first end, as the loaders
 * do.  Not thread-safe: one thread builds and reads a model at a time.
 */
#ifndef TRACENAV_SEQ_H
#define TRACENAV_SEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/seek.h"

enum tn_seq_category {
	TN_SEQ_PROCESS,
	TN_SEQ_THREAD,
	TN_SEQ_NODE,
	TN_SEQ_HOST,
};

/* "process", "thread", "node", "host". */
const char *tn_seq_category_name(enum tn_seq_category category);

/* Where something happened: the time and the position of its event. */
struct tn_seq_point {
	int64_t ns;
	struct tn_position pos;
};

struct tn_seq_lifeline {
	const char *name;		/* owned by the model */
	enum tn_seq_category category;
	struct tn_seq_point first;	/* its first appearance in the model */
	bool has_created;		/* created inside the window */
	struct tn_seq_point created;
	bool has_stopped;		/* stopped inside the window */
	struct tn_seq_point stopped;
};

enum tn_seq_message_kind {
	TN_SEQ_SYNC,		/* a call: the sender waits */
	TN_SEQ_ASYNC,		/* a signal: the sender goes on */
	TN_SEQ_RETURN,		/* the answer to a call */
};

/* "sync", "async", "return". */
const char *tn_seq_message_kind_name(enum tn_seq_message_kind kind);

/* One end of a message: present, or missing (the message is unpaired). */
struct tn_seq_end {
	bool present;
	struct tn_seq_point at;
};

struct tn_seq_message {
	enum tn_seq_message_kind kind;
	size_t from, to;		/* lifeline indexes (equal: to itself) */
	const char *signal;		/* owned by the model */
	const char *id;			/* the id the ends were paired by, or
					 * NULL; owned by the model */
	struct tn_seq_end send, receive;
};

/* The first end of message: its send, or its receive when it has no
 * send.  A message has at least one end. */
const struct tn_seq_point *tn_seq_message_first(
		const struct tn_seq_message *message);

/* Whether one end of message is missing. */
bool tn_seq_message_is_unpaired(const struct tn_seq_message *message);

/* An activation: a lifeline busy (running, handling a call) from begin
 * to end; a missing begin or end lies outside the window. */
struct tn_seq_activation {
	size_t lifeline;
	struct tn_seq_end begin, end;
};

struct tn_seq_model;

/* An empty model.  Never fails. */
struct tn_seq_model *tn_seq_model_create(void);
void tn_seq_model_destroy(struct tn_seq_model *model);

/* ---- lifelines ---- */

/* The index of the lifeline called name, added with category if the
 * model has none of that name (names are unique: the category of an
 * existing one stays).  at (may be NULL) is where it appears: the
 * lifeline's first appearance is the earliest one given. */
size_t tn_seq_model_lifeline(struct tn_seq_model *model, const char *name,
		enum tn_seq_category category, const struct tn_seq_point *at);

/* Whether the model has a lifeline called name: true with *index. */
bool tn_seq_model_find_lifeline(const struct tn_seq_model *model,
		const char *name, size_t *index);

/* The lifeline was created (forked, spawned), or stopped (exited), at
 * at: its creation and stop marks. */
void tn_seq_model_set_created(struct tn_seq_model *model, size_t lifeline,
		const struct tn_seq_point *at);
void tn_seq_model_set_stopped(struct tn_seq_model *model, size_t lifeline,
		const struct tn_seq_point *at);

size_t tn_seq_model_get_lifeline_count(const struct tn_seq_model *model);
/* index < the count; valid until the next lifeline is added. */
const struct tn_seq_lifeline *tn_seq_model_borrow_lifeline(
		const struct tn_seq_model *model, size_t index);

/* ---- messages ---- */

/* Add a copy of message (its strings are copied; from and to must be
 * lifelines of the model; at least one end present) after the others.
 * Returns its serial: a number that names it until
 * tn_seq_model_forget_messages() or tn_seq_model_sort(), to add its
 * other end later. */
uint64_t tn_seq_model_add_message(struct tn_seq_model *model,
		const struct tn_seq_message *message);

/* Set the send (receive false) or receive end of the message of serial
 * serial to at.  false if no message has that serial any more. */
bool tn_seq_model_set_end(struct tn_seq_model *model, uint64_t serial,
		bool receive, const struct tn_seq_point *at);

/* Make lifelines `from` and `to` the sender and receiver of the message
 * of serial serial, and signal (copied; NULL: kept) its signal: for a
 * loader that learns who is at one end of a message from the other
 * end.  false if no message has that serial any more. */
bool tn_seq_model_set_route(struct tn_seq_model *model, uint64_t serial,
		size_t from, size_t to, const char *signal);

size_t tn_seq_model_get_message_count(const struct tn_seq_model *model);
/* index < the count; valid until the next message is added. */
const struct tn_seq_message *tn_seq_model_borrow_message(
		const struct tn_seq_model *model, size_t index);

/* The message a position selects: the first one with an end (its send
 * or its receive) at pos, else the first one whose first end is after
 * pos, else the last one.  false when the model has no message. */
bool tn_seq_model_select(const struct tn_seq_model *model,
		const struct tn_position *pos, size_t *index);

/* Drop every message (the lifelines stay; the serials given so far name
 * nothing any more): for a scan that only looks at each message as it
 * is added (seqdiag-find), so that its memory stays bounded. */
void tn_seq_model_forget_messages(struct tn_seq_model *model);

/* Put the messages in the order of their first end (stable), if a
 * loader added one out of order; the serials given so far name nothing
 * any more.  For the end of a load. */
void tn_seq_model_sort(struct tn_seq_model *model);

/* ---- activations ---- */

/* Add a copy of activation (lifeline must be one of the model's);
 * returns its index. */
size_t tn_seq_model_add_activation(struct tn_seq_model *model,
		const struct tn_seq_activation *activation);

/* End the activation of index index at at. */
void tn_seq_model_end_activation(struct tn_seq_model *model, size_t index,
		const struct tn_seq_point *at);

size_t tn_seq_model_get_activation_count(const struct tn_seq_model *model);
const struct tn_seq_activation *tn_seq_model_borrow_activation(
		const struct tn_seq_model *model, size_t index);

/* ---- pages ---- */

/* A new model with the messages of model whose index is in [first,
 * first + count), the lifelines they join and those created or stopped
 * between the first end of the first of them and the first end of the
 * last (in the order of model), and the activations of those lifelines
 * that overlap that time.  What happened before the first of them is
 * left out (the creation and stop marks, an activation's begin), so
 * that the copy does not depend on how much of the trace before it the
 * model holds.  count may be 0 (an empty model).  Never fails. */
struct tn_seq_model *tn_seq_model_copy_range(const struct tn_seq_model *model,
		size_t first, size_t count);

#endif
