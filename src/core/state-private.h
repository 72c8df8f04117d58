/* state-private.h - what the files of the state system share: the
 * attribute table, the child index and the interned strings.
 *
 * Attributes live in one flat array indexed by quark.  Children are
 * found by name through one open-addressing hash table keyed by
 * (parent, name) whose slots hold quarks; each attribute also keeps its
 * children in order of creation for the tree walks.  Names and string
 * values are interned in one GStringChunk: a pointer stays valid until
 * the state is cleared, and two equal strings share it.
 */
#ifndef TRACENAV_STATE_PRIVATE_H
#define TRACENAV_STATE_PRIVATE_H

#include <glib.h>
#include <stdint.h>

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
};

struct tn_state_slot {
	uint32_t hash;
	int quark;			/* -1: empty */
};

struct tn_state {
	struct tn_state_attr *attrs;
	int count;
	int cap;
	struct tn_state_children root;
	struct tn_state_slot *slots;	/* the child index */
	uint32_t slot_mask;		/* slots - 1 (a power of 2 minus 1) */
	GStringChunk *strings;
	int64_t current_time;
	GArray *change_log;		/* tn_state_set_change_log() */
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

/* The hash of the child index's slot of (parent, name). */
uint32_t tn_state_child_hash(int parent, const char *name, size_t len);

/* The child of parent named by the len bytes at name, or -1. */
int tn_state_find_child(const struct tn_state *state, int parent,
		const char *name, size_t len);

/* Add the child name (len bytes, not there yet) to parent, with a null
 * value never set; returns its quark. */
int tn_state_add_child(struct tn_state *state, int parent,
		const char *name, size_t len);

/* s interned in state (NUL-terminated). */
const char *tn_state_intern(struct tn_state *state, const char *s);

/* The start of an attribute that was never set. */
extern const struct tn_state_stamp tn_state_stamp_never;

#endif
