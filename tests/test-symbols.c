/* test-symbols.c - symbol tables from nm output: what parses (undefined
 * symbols skipped, data symbols kept as ends, nm -S sizes), lookups
 * (exact, inside, before the first symbol, in gaps and data, duplicate
 * addresses), the text a user sees, and each error with its line.  On
 * the shared traces: tests/test-symbols.sh. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tap.h"
#include "tracenav/symbols.h"

static const char nm_text[] =
	"                 U XOpenDisplay\n"
	"                 w __gmon_start__\n"
	"0000000000401000 T _init\n"
	"0000000000401c36 t draw_gears\n"
	"0000000000401e10 T main\n"
	"0000000000401e10 T main_alias\n"
	"0000000000402000 r _fini_data\n"
	"0000000000402100 W weak_fn\n"
	"\n"
	"0000000000603000 d data_sym\r\n"
	"0000000000603000 T text_at_data\n";

static void check_lookup(const struct tn_symbols *symbols, uint64_t addr,
		const char *want)
{
	GString *text = g_string_new(NULL);

	tn_symbols_append(text, symbols, addr);
	tap_str_eq(text->str, want, "0x%" G_GINT64_MODIFIER "x: %s",
		(guint64) addr, want);
	g_string_free(text, TRUE);
}

static void test_lookups(void)
{
	struct tn_symbols *symbols = NULL;
	struct tn_error err = { 0 };
	const char *name = NULL;
	uint64_t offset = 99;
	char *text;

	if (tn_symbols_parse("nm.txt", nm_text, &symbols, &err)) {
		tap_ok(false, "parse: %s", err.message);
		return;
	}
	tap_int_eq(tn_symbols_get_count(symbols), 5,
		"5 function addresses (U and w without an address skipped, "
		"data kept as ends only)");
	tap_ok(tn_symbols_lookup(symbols, 0x401c36, &name, &offset) &&
		strcmp(name, "draw_gears") == 0 && offset == 0,
		"lookup: exact address");
	tap_ok(tn_symbols_lookup(symbols, 0x401c52, &name, &offset) &&
		strcmp(name, "draw_gears") == 0 && offset == 0x1c,
		"lookup: inside, offset 0x1c");
	tap_ok(!tn_symbols_lookup(symbols, 0x400fff, &name, &offset),
		"lookup: before the first symbol");
	tap_ok(!tn_symbols_lookup(symbols, 0, &name, &offset),
		"lookup: address 0");
	check_lookup(symbols, 0x401c36, "draw_gears");
	check_lookup(symbols, 0x401c52, "draw_gears+0x1c");
	check_lookup(symbols, 0x401000, "_init");
	check_lookup(symbols, 0x401c35, "_init+0xc35");
	check_lookup(symbols, 0x40047b, "0x40047B");
	/* duplicate addresses: the first of the file */
	check_lookup(symbols, 0x401e10, "main");
	check_lookup(symbols, 0x401fff, "main+0x1ef");
	/* a data symbol ends the function before it: a gap */
	check_lookup(symbols, 0x402000, "0x402000");
	check_lookup(symbols, 0x4020ff, "0x4020FF");
	check_lookup(symbols, 0x402100, "weak_fn");
	/* a text and a data symbol at one address: the text one */
	check_lookup(symbols, 0x603000, "text_at_data");
	check_lookup(symbols, UINT64_MAX, "text_at_data+0xffffffffff9fcfff");
	check_lookup(NULL, 0x401c36, "0x401C36");

	text = tn_symbols_resolve_text(symbols, "0x401C52");
	tap_str_eq(text ? text : "(null)", "draw_gears+0x1c",
		"resolve_text: a stored address");
	g_free(text);
	tap_ok(tn_symbols_resolve_text(symbols, "401C52") == NULL &&
		tn_symbols_resolve_text(symbols, "0x") == NULL &&
		tn_symbols_resolve_text(symbols, "0x40zz") == NULL &&
		tn_symbols_resolve_text(symbols, "main") == NULL,
		"resolve_text: not an address");
	tn_symbols_destroy(symbols);
}

static void test_sizes(void)
{
	struct tn_symbols *symbols = NULL;
	struct tn_error err = { 0 };

	if (tn_symbols_parse("nm-S.txt",
			"0000000000001000 0000000000000010 T f\n"
			"0x1100 0x20 t g\n"
			"0000000000001200 T h\n", &symbols, &err)) {
		tap_ok(false, "parse nm -S: %s", err.message);
		return;
	}
	check_lookup(symbols, 0x100f, "f+0xf");
	check_lookup(symbols, 0x1010, "0x1010");
	check_lookup(symbols, 0x111f, "g+0x1f");
	check_lookup(symbols, 0x1120, "0x1120");
	check_lookup(symbols, 0x1300, "h+0x100");
	tn_symbols_destroy(symbols);
}

static void check_error(const char *text, const char *want)
{
	struct tn_symbols *symbols = NULL;
	struct tn_error err = { 0 };

	tap_ok(tn_symbols_parse("map.txt", text, &symbols, &err) < 0 &&
		symbols == NULL, "fails: %s", want);
	tap_str_eq(err.message, want, "its message");
	tn_symbols_destroy(symbols);
}

static void test_errors(void)
{
	check_error("0000000000401000 T f\n\nzz12 T g\n",
		"map.txt:3: expected a hexadecimal address, got 'zz12'");
	check_error("0000000000401000 T f\n0000000000401004 TT g\n",
		"map.txt:2: expected a symbol type (one letter) or a "
		"hexadecimal size, got 'TT'");
	check_error("0000000000401000 T\n",
		"map.txt:1: no symbol name after the type");
	check_error("0000000000401000\n",
		"map.txt:1: expected a symbol type (one letter), got ''");
	check_error("00000000004010000000 T f\n",
		"map.txt:1: expected a hexadecimal address, got "
		"'00000000004010000000'");
	check_error("", "map.txt: no function symbol (expected the output "
		"of nm: lines \"ADDRESS T NAME\")");
	check_error("0000000000603000 d data\n                 U puts\n",
		"map.txt: no function symbol (expected the output of nm: "
		"lines \"ADDRESS T NAME\")");
}

static void test_load(void)
{
	struct tn_symbols *symbols = NULL;
	struct tn_error err = { 0 };
	char *dir = g_dir_make_tmp("test-symbols-XXXXXX", NULL);
	char *path = g_build_filename(dir, "map.txt", NULL);
	char *want;

	g_file_set_contents(path, "0000000000001000 T f\nxyz\n", -1, NULL);
	want = g_strdup_printf("%s:2: expected a hexadecimal address, "
		"got 'xyz'", path);
	tap_ok(tn_symbols_load(path, &symbols, &err) < 0 &&
		strcmp(err.message, want) == 0,
		"a file's errors are named after its path");
	g_free(want);
	g_unlink(path);
	tap_ok(tn_symbols_load(path, &symbols, &err) < 0 &&
		strstr(err.message, "cannot read the symbols"),
		"a missing file: %s", err.message);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

int main(void)
{
	test_lookups();
	test_sizes();
	test_errors();
	test_load();
	return tap_done();
}
