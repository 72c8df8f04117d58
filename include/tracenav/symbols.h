/* symbols.h - a symbol table read from a file in the output format of
 * `nm` (what Trace Compass calls a symbol mapping file), to show code
 * addresses as function names: the call stacks of the userspace state
 * provider (tracenav --symbols FILE).
 *
 * The format, one symbol a line:
 *
 *   ADDR TYPE NAME          0000000000401c36 T draw_gears
 *   ADDR SIZE TYPE NAME     (nm -S) 0000000000401c36 00000000000001d2 T draw_gears
 *                    U NAME (no address: skipped; so is a line of blanks)
 *
 * ADDR and SIZE are hexadecimal (an optional 0x), TYPE one letter, NAME
 * the rest of the line (it may hold blanks: nm -C).  Text symbols
 * (t T w W i I) name functions; the other symbols (data, bss, ...) are
 * kept only as the end of the text symbol before them.
 *
 * A lookup finds the symbol with the greatest address at or below the
 * address: the address is inside it unless another symbol (of any type)
 * starts between them, or, when the file gives sizes, it lies past the
 * symbol's end.  At equal addresses the first text symbol of the file
 * wins.
 *
 * No state: a table never changes once loaded, so that any thread may
 * look up in it.
 */
#ifndef TRACENAV_SYMBOLS_H
#define TRACENAV_SYMBOLS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"

struct tn_symbols;

/* Parse text, the contents of an nm-format file called name (for the
 * messages; a path as the user gave it).  Returns 0 with *out
 * (tn_symbols_destroy() it), or -1 with err ("NAME:LINE: what is
 * wrong"; for a file with no text symbol, "NAME: no function symbol").
 */
int tn_symbols_parse(const char *name, const char *text,
		struct tn_symbols **out, struct tn_error *err);

/* Read the file at path and parse it.  Returns 0 with *out, or -1 with
 * err (the file cannot be read, or an error as above). */
int tn_symbols_load(const char *path, struct tn_symbols **out,
		struct tn_error *err);

void tn_symbols_destroy(struct tn_symbols *symbols);

/* The number of text symbols kept (their distinct addresses). */
size_t tn_symbols_get_count(const struct tn_symbols *symbols);

/* The function that addr is in: true with *name (borrowed from the
 * table) and *offset (addr minus the function's address), false when
 * no text symbol covers addr (before the first symbol, in data, past a
 * sized symbol's end). */
bool tn_symbols_lookup(const struct tn_symbols *symbols, uint64_t addr,
		const char **name, uint64_t *offset);

/* Append addr as a user reads it: "NAME" at a function's address,
 * "NAME+0x1c" inside it, else "0x40472B" (upper-case hex, as the event
 * list prints addresses).  symbols may be NULL (always hex). */
void tn_symbols_append(GString *out, const struct tn_symbols *symbols,
		uint64_t addr);

/* If text is an address as the state provider stores it ("0x" and hex
 * digits only), its text as tn_symbols_append() gives it, as a new
 * string (g_free() it); NULL when text is not such an address. */
char *tn_symbols_resolve_text(const struct tn_symbols *symbols,
		const char *text);

#endif
