/* test-tui-keys.c - the key map (src/tui/keys.c): no key does two things
 * in one key map, every binding has its help, and the man page lists
 * every key exactly as the help overlay names it. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "src/tui/keys.h"
#include "tap.h"

/* The man page's text with troff's "\-" as "-". */
static char *read_man_page(void)
{
	const char *top = getenv("top_srcdir");
	char *path = g_build_filename(top ? top : ".", "doc", "tracenav.1",
		NULL);
	char *text = NULL;
	GString *plain;

	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		g_free(path);
		return NULL;
	}
	g_free(path);
	plain = g_string_new(NULL);
	for (const char *p = text; *p; p++) {
		if (p[0] == '\\' && p[1] == '-')
			p++;
		g_string_append_c(plain, *p);
	}
	g_free(text);
	return g_string_free(plain, FALSE);
}

static void check_map(enum tn_tui_keymap map, const char *man)
{
	size_t count;
	const struct tn_tui_binding *bindings = tn_tui_keymap(map, &count);
	const char *title = tn_tui_keymap_title(map);
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	char *section = man ? g_strdup_printf("\n.SS %s\n", title) : NULL;
	const char *start = man ? strstr(man, section) : NULL;
	const char *end = start ? strstr(start + 1, "\n.S") : NULL;

	if (man)
		tap_ok(start != NULL, "man page: a section \"%s\"", title);
	for (size_t i = 0; i < count; i++) {
		const struct tn_tui_binding *b = &bindings[i];
		char keys[128];

		tn_tui_binding_keys(b, keys, sizeof(keys));
		tap_ok(b->help && *b->help, "%s: %s has a help line", title,
			keys);
		tap_ok(b->action != TN_TUI_RUN || b->command,
			"%s: %s runs a command line", title, keys);
		for (size_t k = 0; k < G_N_ELEMENTS(b->keys) && b->keys[k];
				k++) {
			gpointer key = GINT_TO_POINTER(b->keys[k]);

			tap_ok(!g_hash_table_contains(seen, key),
				"%s: %s: key %d is bound once", title, keys,
				b->keys[k]);
			g_hash_table_add(seen, key);
		}
		if (start) {
			char *line = g_strdup_printf("\n.B %s\n", keys);
			const char *at = strstr(start, line);

			tap_ok(at && (!end || at < end),
				"man page, %s: lists \"%s\"", title, keys);
			g_free(line);
		}
	}
	if (map == TN_TUI_KEYMAP_LIST)
		for (int d = '0'; d <= '9'; d++)
			tap_ok(!g_hash_table_contains(seen,
				GINT_TO_POINTER(d)), "%s: digit %c is left "
				"for counts", title, d);
	g_hash_table_destroy(seen);
	g_free(section);
}

int main(void)
{
	char *man = read_man_page();
	char name[32];

	tap_ok(man != NULL, "the man page doc/tracenav.1 is readable");
	for (int map = 0; map < TN_TUI_KEYMAP_COUNT_; map++)
		check_map((enum tn_tui_keymap) map, man);
	tn_tui_key_name(TN_TUI_KEY_CTRL('f'), name, sizeof(name));
	tap_str_eq(name, "Ctrl-F", "the name of Ctrl-F");
	tn_tui_key_name(' ', name, sizeof(name));
	tap_str_eq(name, "Space", "the name of the space bar");
	g_free(man);
	return tap_done();
}
