/* state-private.h - what the files of the state system share: the
 * attribute table, the child index and the interned strings.
 *
 * Attributes live in one flat array indexed by quark.  Children are
 * found by name through one open-addressing hash table keyed by
 * (parent, name) whose slots hold quarks; each attribute also keeps its
 * children in order of creation for the tree walks.  Names and string
 * values are interned in one GStringChunk: a pointer stays valid until
 * the state is cleared, and two equal strings share it.
 *
 * Each attribute counts the non-null values of its subtree (its own
 * included), and those of its children whose count is not 0 are
 * linked in a list: a walk of what holds values (a query's result)
 * costs what it finds, not every attribute ever created (the threads
 * of a long kernel trace, most of them gone).  Every change of a value
 * goes through tn_state_put_value(), which keeps them.
 *
 * Attributes dropped from the end (tn_state_truncate(): a state taken
 * back to an earlier snapshot) stay in the tables, hidden: the quarks
 * from count up to kept - 1, null and never set, unknown to lookups
 * and to the counts of children.  The attributes of a state are made
 * in the same order by every replay, so the next attribute added is
 * most often the first hidden one, which then only shows again; one
 * that differs drops the hidden ones for good.  A querier that goes
 * back and forth in a long trace neither removes nor re-creates
 * hundreds of thousands of attributes each time.
 */
#ifndef TRACENAV_STATE_PRIVATE_H
#define TRACENAV_STATE_PRIVATE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tracenav/state.h"

struct tn_state_children {
	int *quarks;
	uint32_t count;
	uint32_t cap;
};

struct tn_state_attr {
	struct tn_state_value value;
	struct tn_state_stamp start;
	enum tn_state_type type;	/* the type it keeps */
	int parent;
	const char *name;		/* interned */
	struct tn_state_children children;
	/* Non-null values in its subtree, its own included; while not 0,
	 * it is in its parent's list of such children (live_prev,
	 * live_next: quarks, -1 at the ends), whose first is live_first
	 * (-1: none). */
	int live;
	int live_prev, live_next;
	int live_first;
};

struct tn_state_slot {
	uint32_t hash;
	int quark;			/* -1: empty */
};

/* Slots of the memo of tn_state_intern(). */
#define TN_STATE_INTERN_MEMO 256

struct tn_state {
	struct tn_state_attr *attrs;
	int count;			/* attributes: quarks 0 .. count - 1 */
	int kept;			/* and the hidden ones, up to kept - 1 */
	int cap;
	struct tn_state_children root;
	int root_live_first;		/* live_first of the root */
	struct tn_state_slot *slots;	/* the child index */
	uint32_t slot_mask;		/* slots - 1 (a power of 2 minus 1) */
	/* While deferring (tn_state_index_defer()), the attributes made
	 * from deferred_from on are not in the child index yet. */
	bool deferring;
	int deferred_from;
	GStringChunk *strings;
	struct {
		const char *given;	/* where the string came from */
		const char *interned;	/* its copy in strings */
	} interned[TN_STATE_INTERN_MEMO];
	int64_t current_time;
	struct tn_state_changes *change_log; /* tn_state_set_change_log() */
	tn_state_interval_fn interval_fn; /* tn_state_set_interval_sink() */
	void *interval_data;
	GArray *undo_log;		/* struct tn_state_undo, see
					 * state-history-private.h */
};

/* An attribute as it was before a change (the undo log's entries). */
struct tn_state_undo {
	int quark;
	enum tn_state_type type;
	struct tn_state_value value;
	struct tn_state_stamp start;
};

static inline bool tn_state_has_quark(const struct tn_state *state,
		int quark)
{
	return quark >= 0 && quark < state->count;
}

/* Whether have is the name given by the len bytes at name. */
static inline bool tn_state_name_is(const char *have, const char *name,
		size_t len)
{
	return memcmp(have, name, len) == 0 && have[len] == '\0';
}

/* ---- state-index.c: the child index ---- */

/* The child of parent named by the len bytes at name, or -1. */
int tn_state_find_child(const struct tn_state *state, int parent,
		const char *name, size_t len);

/* Room in the child index for count attributes (it stays at most half
 * full). */
void tn_state_index_reserve(struct tn_state *state, int count);

/* Index quark as the child of parent named by the len bytes at name
 * (room reserved). */
void tn_state_index_insert(struct tn_state *state, int parent,
		const char *name, size_t len, int quark);

/* Leave the attributes added from now on out of the child index until
 * tn_state_index_resume(), which adds them all at once in the order of
 * their slots: a restore adds hundreds of thousands, each a cache miss
 * in a table of megabytes when added one by one.  Nothing may look a
 * child up in between. */
void tn_state_index_defer(struct tn_state *state);

/* Index the attributes added since tn_state_index_defer() and index
 * each one added from now on again. */
void tn_state_index_resume(struct tn_state *state);

/* Whether a new attribute goes into the child index now (else
 * tn_state_index_resume() adds it). */
static inline bool tn_state_index_takes(struct tn_state *state, int quark)
{
	if (!state->deferring)
		return true;
	if (quark < state->deferred_from)
		state->deferred_from = quark;
	return false;
}

/* Drop the hidden attributes for good (their slots, their places among
 * their parents' children). */
void tn_state_drop_hidden(struct tn_state *state);

/* ---- state.c ---- */

/* Add the child name (len bytes, not there yet) to parent, with a null
 * value never set (the first hidden attribute shows again when it is
 * that one; else the hidden ones go); returns its quark. */
int tn_state_add_child(struct tn_state *state, int parent,
		const char *name, size_t len);

/* Set the value of quark as given (a string already interned by
 * tn_state_intern(): set_value() tells an equal string by its pointer):
 * no check, no log; keeps the counts of non-null values and their
 * lists. */
void tn_state_put_value(struct tn_state *state, int quark,
		const struct tn_state_value *value);

/* Make room for count attributes in the tables at once (a restore that
 * will add many), rather than growing them as they come; and in the
 * attribute array for up to most (a later restore of the same state
 * that adds more: its pages are touched only when used, where a copy
 * into a larger array would touch them all). */
void tn_state_reserve(struct tn_state *state, int count, int most);

/* s interned in state (NUL-terminated). */
const char *tn_state_intern(struct tn_state *state, const char *s);

/* The start of an attribute that was never set. */
extern const struct tn_state_stamp tn_state_stamp_never;

#endif
