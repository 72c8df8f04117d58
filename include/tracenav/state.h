/* state.h - the generic state system: a tree of attributes, each with a
 * value that changes as the events of a trace are replayed in order.
 *
 * Seeded by Trace Compass's Generic State System.  Attributes are
 * addressed by paths ("CPUs/3/Current_thread", components separated by
 * '/') and, once found, by an integer quark; the root is
 * TN_STATE_ROOT.  Quarks are given in order of creation (0, 1, ...), so
 * a state restored from a snapshot has the same quarks as the one that
 * was saved.
 *
 * A struct tn_state holds the "current" state of a replay: for every
 * attribute its value, and the time and position of the event that set
 * it (its interval's start).  Providers (state-provider.h) turn events
 * into changes; the history (state-history.h) saves snapshots of a
 * tn_state and answers queries at any time by restoring one and
 * replaying the events in between.
 *
 * Values: null, int (32 bits), long (64 bits), double, string.  An
 * attribute keeps the type of the first non-null value it gets; null is
 * always allowed.  Strings are copied (interned) into the state.
 *
 * Stack attributes (push/pop), as in Trace Compass: the attribute holds
 * the depth (an int, null when empty) and its children "1", "2", ...
 * hold the values from the bottom up.
 *
 * Not thread-safe: one thread uses a tn_state at a time.
 */
#ifndef TRACENAV_STATE_H
#define TRACENAV_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"

#define TN_STATE_ROOT (-1)

enum tn_state_type {
	TN_STATE_NULL,
	TN_STATE_INT,
	TN_STATE_LONG,
	TN_STATE_DOUBLE,
	TN_STATE_STRING,
};

struct tn_state_value {
	enum tn_state_type type;
	union {
		int32_t i;
		int64_t l;
		double d;
		const char *s;	/* owned by the state (or by a result) */
	} u;
};

/* Constructors, for readability at the call sites. */
struct tn_state_value tn_state_value_null(void);
struct tn_state_value tn_state_value_int(int32_t v);
struct tn_state_value tn_state_value_long(int64_t v);
struct tn_state_value tn_state_value_double(double v);
struct tn_state_value tn_state_value_string(const char *s);	/* NULL: null */

/* "null", "int", "long", "double", "string". */
const char *tn_state_type_name(enum tn_state_type type);

/* Whether a and b hold the same type and value (strings by content). */
bool tn_state_value_equal(const struct tn_state_value *a,
		const struct tn_state_value *b);

/* Append value as text to buf (a GString): null as "null", numbers in
 * decimal ("%.17g" style for doubles, shortest exact, '.' whatever the
 * locale; "nan", "inf", "-inf"), strings in double quotes with '"',
 * '\\' and control characters escaped (as babeltrace2 prints string
 * fields, tn_format_escaped_string(): '\'' and '?' too). */
struct _GString;
void tn_state_value_append(struct _GString *buf,
		const struct tn_state_value *value);

/* Where an interval of an attribute starts or ends: the event that set
 * (or changed) its value.  has_pos is false for the state before the
 * first event (the attribute was never set) and for a change that no
 * event made (a snapshot restored without it). */
struct tn_state_stamp {
	int64_t ns;
	bool has_pos;
	struct tn_position pos;
};

struct tn_state;

/* A new, empty state (no attribute).  Never fails. */
struct tn_state *tn_state_create(void);
void tn_state_destroy(struct tn_state *state);

/* Forget every attribute (the state becomes as created). */
void tn_state_clear(struct tn_state *state);

/* The number of attributes (quarks 0 .. count - 1). */
int tn_state_get_attribute_count(const struct tn_state *state);

/* ---- attributes ---- */

/* The quark of path (relative to the attribute `parent`, or absolute
 * with TN_STATE_ROOT): 0 with *quark set, -1 with err ("no attribute
 * CPUs/9 in the state") when it does not exist.  An empty path is
 * parent itself. */
int tn_state_quark_find(const struct tn_state *state, int parent,
		const char *path, int *quark, struct tn_error *err);

/* The same, or -1 without an error message: for a lookup whose failure
 * is expected. */
int tn_state_quark_lookup(const struct tn_state *state, int parent,
		const char *path);

/* The quark of path under parent, adding the missing attributes (with
 * null values).  Never fails for a valid parent. */
int tn_state_quark_add(struct tn_state *state, int parent, const char *path);

/* The quark of the single child `name` of parent (no '/' parsing:
 * name may hold any character), found or added.  The fast path for
 * providers: "Threads" then "4242". */
int tn_state_quark_child(struct tn_state *state, int parent,
		const char *name);
int tn_state_quark_child_lookup(const struct tn_state *state, int parent,
		const char *name);

/* The attribute's own name ("Current_thread"), its parent (TN_STATE_ROOT
 * for a top-level attribute), its children in order of creation, and
 * its full path (g_free it).  quark must exist; the child functions
 * also take TN_STATE_ROOT (the top-level attributes). */
const char *tn_state_get_name(const struct tn_state *state, int quark);
int tn_state_get_parent(const struct tn_state *state, int quark);
size_t tn_state_get_child_count(const struct tn_state *state, int quark);
int tn_state_get_child(const struct tn_state *state, int quark,
		size_t index);
char *tn_state_get_path(const struct tn_state *state, int quark);

/* ---- the current state ---- */

/* Whether quark's value or the value of an attribute under it is not
 * null: it "lives" (a thread that is gone, all null, does not). */
bool tn_state_is_live(const struct tn_state *state, int quark);

/* The children of quark (or of TN_STATE_ROOT) that live, in no
 * particular order: the first (-1: none), and the one after child (-1:
 * the last).  A walk of them costs what they are, however many
 * attributes the state ever had.  The order stays until a change. */
int tn_state_get_first_live_child(const struct tn_state *state, int quark);
int tn_state_get_next_live_sibling(const struct tn_state *state, int quark);

/* The current value of quark (borrowed; a string lives until the state
 * is cleared or destroyed), and the start of its interval (ns INT64_MIN
 * and no position for an attribute never set). */
const struct tn_state_value *tn_state_get_value(const struct tn_state *state,
		int quark);
const struct tn_state_stamp *tn_state_get_start(const struct tn_state *state,
		int quark);

/* The type the attribute keeps (TN_STATE_NULL until its first non-null
 * value). */
enum tn_state_type tn_state_get_type(const struct tn_state *state, int quark);

/* ---- changes, made by the event at `at` ----
 *
 * Each returns 0, or -1 with err: a quark that does not exist, a value
 * of another type than the attribute keeps ("attribute
 * Threads/42/Prio holds int values, not string"), a time before the
 * last change's ("time 12 is before the state's current time 15").  A
 * change that sets the value the attribute already has keeps its
 * interval (its start does not move). */

int tn_state_modify(struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *at, struct tn_error *err);

/* Add delta to an int or long attribute (null counts as 0; a null
 * attribute becomes an int, or a long for a delta outside 32 bits). */
int tn_state_increment(struct tn_state *state, int quark, int64_t delta,
		const struct tn_state_stamp *at, struct tn_error *err);

/* Push value on the stack attribute quark (depth + 1). */
int tn_state_push(struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *at, struct tn_error *err);

/* Pop the top of the stack attribute quark into *popped (may be NULL;
 * borrowed until the next change), which is null when the stack was
 * empty (not an error: traces start in the middle of calls). */
int tn_state_pop(struct tn_state *state, int quark,
		struct tn_state_value *popped,
		const struct tn_state_stamp *at, struct tn_error *err);

/* The top of the stack attribute quark (null when empty) and its depth. */
const struct tn_state_value *tn_state_peek_stack(const struct tn_state *state,
		int quark, int *depth);

/* Set quark and every attribute under it to null (the attributes stay,
 * as quarks never go away). */
int tn_state_remove(struct tn_state *state, int quark,
		const struct tn_state_stamp *at, struct tn_error *err);

/* The time of the last change (INT64_MIN before any). */
int64_t tn_state_get_current_time(const struct tn_state *state);

/* A change log: quarks in the order of the changes.  Zeroed is empty;
 * its reader empties it by setting len to 0. */
struct tn_state_changes {
	int *quarks;
	size_t len;
	size_t cap;
};

/* Free what log holds; it is empty again. */
void tn_state_changes_fini(struct tn_state_changes *log);

/* Append to log (NULL stops) the quark of every attribute whose value a
 * change makes different (its interval starts anew), as the changes
 * happen: for a reader that needs to know which attributes an event
 * changed (where the intervals of a query end) without comparing them
 * all.  The caller owns log; a clear or a restore keeps it. */
void tn_state_set_change_log(struct tn_state *state,
		struct tn_state_changes *log);

/* Call fn(data, state, quark, value, start, end) whenever a change ends
 * the interval of an attribute: value is what it held since start (the
 * attribute's value and start before the change, borrowed for the
 * call), end is the change's stamp.  For analyses that consume the
 * intervals of a replay as Trace Compass's state history stores them.
 * fn NULL stops; a clear or a restore keeps the sink. */
typedef void (*tn_state_interval_fn)(void *data,
		const struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end);
void tn_state_set_interval_sink(struct tn_state *state,
		tn_state_interval_fn fn, void *data);

/* ---- snapshots ---- */

/* Append to buf (a GByteArray) a snapshot of the whole state: the
 * attribute tree, every value and interval start, and the current
 * time; a self-contained, portable (little-endian) blob. */
struct _GByteArray;
void tn_state_save(const struct tn_state *state, struct _GByteArray *buf);

/* Make state (cleared first) what the snapshot `data` (size bytes, as
 * tn_state_save() wrote it) holds.  Returns 0, or -1 with err when the
 * blob is damaged ("state snapshot damaged: ..."): the state is empty
 * then. */
int tn_state_restore(struct tn_state *state, const void *data, size_t size,
		struct tn_error *err);

#endif
