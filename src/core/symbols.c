/* symbols.c - a symbol table read from nm output (see symbols.h). */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/symbols.h"

struct symbol {
	uint64_t addr;
	uint64_t size;			/* 0: not given */
	bool text;
	unsigned line;			/* in the file: the first one wins */
	const char *name;
};

struct tn_symbols {
	GStringChunk *names;
	struct symbol *symbols;		/* by address, one an address */
	size_t count;
	size_t text_count;
};

/* ---- parsing ---- */

struct parser {
	const char *name;
	unsigned line;
	struct tn_error *err;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next blank-separated token of *p: its start and length (0 at the
 * end of the line). */
static size_t next_token(const char **p, const char **start)
{
	const char *s = *p;

	while (is_blank(*s))
		s++;
	*start = s;
	while (*s && !is_blank(*s))
		s++;
	*p = s;
	return (size_t) (s - *start);
}

/* A hexadecimal number of up to 16 digits (an optional 0x). */
static bool parse_hex(const char *s, size_t len, uint64_t *out)
{
	uint64_t value = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (len == 0 || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		int digit = g_ascii_xdigit_value(s[i]);

		if (digit < 0)
			return false;
		value = value << 4 | (uint64_t) digit;
	}
	*out = value;
	return true;
}

static bool is_text_type(char type)
{
	return strchr("tTwWiI", type) != NULL;
}

static int fail(const struct parser *ps, const char *what, const char *tok,
		size_t len)
{
	tn_error_set(ps->err, "%s:%u: %s, got '%.*s'", ps->name, ps->line,
		what, (int) (len > 40 ? 40 : len), tok);
	return -1;
}

/* One line (NUL-terminated, without its newline): 0 with *sym filled,
 * its name (in line) *name_len bytes long (sym->name NULL for a line
 * without a symbol: blank, or no address), or -1 with err. */
static int parse_line(const struct parser *ps, const char *line,
		struct symbol *sym, size_t *name_len)
{
	const char *p = line, *tok, *rest;
	size_t len;
	uint64_t number;

	sym->name = NULL;
	len = next_token(&p, &tok);
	if (len == 0)
		return 0;
	/* nm leaves the address of undefined symbols blank: "   U puts" */
	if (len == 1 && (tok != line || !g_ascii_isxdigit(*tok)))
		return 0;
	if (!parse_hex(tok, len, &sym->addr))
		return fail(ps, "expected a hexadecimal address", tok, len);
	len = next_token(&p, &tok);
	if (len > 1) {
		/* nm -S: ADDR SIZE TYPE NAME */
		if (!parse_hex(tok, len, &number))
			return fail(ps, "expected a symbol type (one letter) "
				"or a hexadecimal size", tok, len);
		sym->size = number;
		len = next_token(&p, &tok);
	}
	if (len != 1)
		return fail(ps, "expected a symbol type (one letter)", tok,
			len);
	sym->text = is_text_type(*tok);
	while (is_blank(*p))
		p++;
	rest = p;
	len = strlen(rest);
	while (len > 0 && is_blank(rest[len - 1]))
		len--;
	if (len == 0) {
		tn_error_set(ps->err, "%s:%u: no symbol name after the type",
			ps->name, ps->line);
		return -1;
	}
	sym->name = rest;
	sym->line = ps->line;
	*name_len = len;
	return 0;
}

static int compare_symbols(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->text != y->text)
		return x->text ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int tn_symbols_parse(const char *name, const char *text,
		struct tn_symbols **out, struct tn_error *err)
{
	struct parser ps = { name, 0, err };
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct symbol));
	struct tn_symbols *symbols = g_new0(struct tn_symbols, 1);
	const char *p = text;
	GString *line = g_string_new(NULL);
	size_t kept = 0;

	symbols->names = g_string_chunk_new(4096);
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t) (end - p) : strlen(p);
		struct symbol sym = { 0 };
		size_t name_len = 0;

		ps.line++;
		g_string_truncate(line, 0);
		g_string_append_len(line, p, (gssize) len);
		p += len + (end ? 1 : 0);
		if (parse_line(&ps, line->str, &sym, &name_len))
			goto fail;
		if (!sym.name)
			continue;
		sym.name = g_string_chunk_insert_len(symbols->names,
			sym.name, (gssize) name_len);
		g_array_append_val(all, sym);
	}
	g_string_free(line, TRUE);
	if (all->len)	/* an empty GArray's data may be NULL */
		qsort(all->data, all->len, sizeof(struct symbol),
			compare_symbols);
	/* One symbol an address: the first, a text one if any. */
	for (guint i = 0; i < all->len; i++) {
		struct symbol *sym = &g_array_index(all, struct symbol, i);

		if (kept > 0 && g_array_index(all, struct symbol,
				kept - 1).addr == sym->addr)
			continue;
		g_array_index(all, struct symbol, kept++) = *sym;
		symbols->text_count += sym->text;
	}
	if (symbols->text_count == 0) {
		tn_error_set(err, "%s: no function symbol (expected the "
			"output of nm: lines \"ADDRESS T NAME\")", name);
		g_array_free(all, TRUE);
		tn_symbols_destroy(symbols);
		return -1;
	}
	symbols->count = kept;
	g_array_set_size(all, (guint) kept);
	symbols->symbols = (struct symbol *) g_array_free(all, FALSE);
	*out = symbols;
	return 0;

fail:
	g_string_free(line, TRUE);
	g_array_free(all, TRUE);
	tn_symbols_destroy(symbols);
	return -1;
}

int tn_symbols_load(const char *path, struct tn_symbols **out,
		struct tn_error *err)
{
	GError *error = NULL;
	char *text;
	int status;

	if (!g_file_get_contents(path, &text, NULL, &error)) {
		tn_error_set(err, "cannot read the symbols: %s",
			error->message);
		g_error_free(error);
		return -1;
	}
	status = tn_symbols_parse(path, text, out, err);
	g_free(text);
	return status;
}

void tn_symbols_destroy(struct tn_symbols *symbols)
{
	if (!symbols)
		return;
	g_free(symbols->symbols);
	g_string_chunk_free(symbols->names);
	g_free(symbols);
}

size_t tn_symbols_get_count(const struct tn_symbols *symbols)
{
	return symbols->text_count;
}

/* ---- lookups ---- */

bool tn_symbols_lookup(const struct tn_symbols *symbols, uint64_t addr,
		const char **name, uint64_t *offset)
{
	size_t lo = 0, hi = symbols->count;
	const struct symbol *sym;

	/* The first symbol past addr is at lo. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (symbols->symbols[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	sym = &symbols->symbols[lo - 1];
	if (!sym->text || (sym->size && addr - sym->addr >= sym->size))
		return false;
	*name = sym->name;
	*offset = addr - sym->addr;
	return true;
}

void tn_symbols_append(GString *out, const struct tn_symbols *symbols,
		uint64_t addr)
{
	const char *name;
	uint64_t offset;

	if (!symbols || !tn_symbols_lookup(symbols, addr, &name, &offset))
		g_string_append_printf(out, "0x%" PRIX64, addr);
	else if (offset == 0)
		g_string_append(out, name);
	else
		g_string_append_printf(out, "%s+0x%" PRIx64, name, offset);
}

char *tn_symbols_resolve_text(const struct tn_symbols *symbols,
		const char *text)
{
	GString *out;
	uint64_t addr;

	if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X') ||
	    !parse_hex(text, strlen(text), &addr))
		return NULL;
	out = g_string_new(NULL);
	tn_symbols_append(out, symbols, addr);
	return g_string_free(out, FALSE);
}
