/* state-tree.h - the state tree pane's model: the attributes of a state
 * query's result (state-history.h) as the rows of a collapsible tree.
 *
 * It gives the labels the pane shows (a thread as "TID NAME", a CPU as
 * "CPU 3  4242 bash" with the thread it runs), the folds the user opened
 * and closed, kept by path so that they survive the cursor's moves and
 * the results that come with them, the visible rows, and the search in
 * the tree.  No ncurses: tests/test-state-tree.c tests it alone.
 */
#ifndef TRACENAV_TUI_STATE_TREE_H
#define TRACENAV_TUI_STATE_TREE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/regex.h"
#include "tracenav/state-history.h"

/* ---- the labels of one result ---- */

struct tn_state_tree;

/* The labels and links of result's entries (result is borrowed: it
 * must outlive the tree).  Never fails. */
struct tn_state_tree *tn_state_tree_create(
		const struct tn_state_result *result);
void tn_state_tree_destroy(struct tn_state_tree *tree);

/* The result's entries, in its order (parents before children). */
size_t tn_state_tree_get_count(const struct tn_state_tree *tree);
const struct tn_state_entry *tn_state_tree_borrow_entry(
		const struct tn_state_tree *tree, size_t i);

/* What the tree shows of entry i: its label (its name; "TID NAME" for a
 * thread or a process whose name is known; "CPU N" for a CPU, followed
 * by "  TID NAME" of the thread it runs), and its value as text
 * (strings as they are, numbers in decimal, null as ""). */
const char *tn_state_tree_get_label(const struct tn_state_tree *tree,
		size_t i);
const char *tn_state_tree_get_value(const struct tn_state_tree *tree,
		size_t i);

/* What a folded node shows beside its label: its value, or when it has
 * none its Status child's ("" when neither). */
const char *tn_state_tree_get_summary(const struct tn_state_tree *tree,
		size_t i);

/* Whether entry i has children; its parent's index (-1 at the top). */
bool tn_state_tree_has_children(const struct tn_state_tree *tree, size_t i);
long tn_state_tree_get_parent(const struct tn_state_tree *tree, size_t i);

/* The index of the entry at path, or -1. */
long tn_state_tree_find_path(const struct tn_state_tree *tree,
		const char *path);

/* For a thread (Threads/TID): the CPU it runs on at the queried event
 * (the first CPU whose Current_thread is TID), or -1. */
long tn_state_tree_get_running_on(const struct tn_state_tree *tree,
		size_t i);

/* ---- folds: which nodes are open ---- */

/* By default the top level (CPUs, Threads, ...) is open and the rest
 * is folded; the user's choices are kept by path. */
struct tn_state_folds;

struct tn_state_folds *tn_state_folds_create(void);
void tn_state_folds_destroy(struct tn_state_folds *folds);

bool tn_state_folds_is_open(const struct tn_state_folds *folds,
		const struct tn_state_entry *entry);
void tn_state_folds_set(struct tn_state_folds *folds,
		const struct tn_state_entry *entry, bool open);

/* Open every node (the user's closing ones forgotten), or back to the
 * default; whether all are open now. */
void tn_state_folds_set_all_open(struct tn_state_folds *folds, bool all);
bool tn_state_folds_get_all_open(const struct tn_state_folds *folds);

/* Open every ancestor of entry i, so that it shows. */
void tn_state_folds_reveal(struct tn_state_folds *folds,
		const struct tn_state_tree *tree, size_t i);

/* ---- the rows shown ---- */

struct tn_state_tree_row {
	size_t entry;		/* index in the result */
	int depth;
	bool has_children;
	bool open;
};

/* Replace rows (a GArray of struct tn_state_tree_row) by the entries
 * that show: those whose ancestors are all open, in the result's
 * order. */
void tn_state_tree_flatten(const struct tn_state_tree *tree,
		const struct tn_state_folds *folds, GArray *rows);

/* The row that shows entry i, or -1. */
long tn_state_tree_row_of(const GArray *rows, size_t i);

/* ---- search ---- */

/* The next entry after `from` (forward) or the previous one before it
 * whose label or value matches, shown or not, going on from the other
 * end (*wrapped then true; may be NULL); from < 0 starts at the first
 * (forward) or the last entry, included.  Returns its index, or -1 when
 * no entry matches. */
long tn_state_tree_search(const struct tn_state_tree *tree,
		struct tn_regex_matcher *matcher, long from, bool forward,
		bool *wrapped);

/* ---- text ---- */

/* Append a duration as the pane shows it, three significant digits and
 * a unit: "850 ns", "12.3 us", "1.50 ms", "2.00 s", "1234 s". */
void tn_state_tree_append_duration(GString *out, int64_t ns);

#endif
