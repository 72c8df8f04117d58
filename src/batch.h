/* batch.h - --batch: run commands of the command table without a
 * terminal, results on stdout. */
#ifndef TRACENAV_BATCH_H
#define TRACENAV_BATCH_H

#include <stdbool.h>

#include "tracenav/trace.h"

/* Rows a page moves in batch mode (a 24-line terminal's list). */
#define TN_BATCH_PAGE_ROWS 20

/* Run script (commands separated by ';' or newlines; "-": the lines of
 * standard input, each as it comes) on trace (taken
 * over: reload replaces it, and it is destroyed before this returns),
 * keeping
 * the checkpoint index in cache_dir (NULL: no cache; taken over), with
 * the sequence diagram rules (NULL: none; taken over), without the
 * index of the diagram's pages when no_seq_index (--no-seq-index), and
 * the symbols of call stacks (NULL: none; borrowed).  Returns the exit
 * status: 0, or 1 with a message on stderr. */
struct tn_seq_rules;
struct tn_symbols;
int batch_run(struct tn_trace *trace, const char *script, bool gmt,
		char *cache_dir, struct tn_seq_rules *rules, bool no_seq_index,
		const struct tn_symbols *symbols);

#endif
