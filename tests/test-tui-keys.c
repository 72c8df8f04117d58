/* test-tui-keys.c - the key maps (src/tui/keys.c and the panes'): no key
 * does two things in one key map, no pane key is shadowed by a global
 * one, every binding has its help and runs a command of the table or an
 * action, and the man page lists every key exactly as the help names
 * it, in the section of its key map. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "src/commands.h"
#include "src/tui/tui-private.h"
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

/* The man page's section titled title, or NULL. */
static const char *man_section(const char *man, const char *title,
		const char **end)
{
	char *heading = g_strdup_printf("\n.SS %s\n", title);
	const char *start = man ? strstr(man, heading) : NULL;

	g_free(heading);
	*end = start ? strstr(start + 1, "\n.S") : NULL;
	return start;
}

static void check_man_lists(const char *man, const char *title,
		const char *keys)
{
	const char *end;
	const char *start = man_section(man, title, &end);
	char *line = g_strdup_printf("\n.B %s\n", keys);
	const char *at = start ? strstr(start, line) : NULL;

	tap_ok(at && (!end || at < end), "man page, %s: lists \"%s\"", title,
		keys);
	g_free(line);
}

static void check_map(const struct tn_tui_keymap *map, const char *man)
{
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	const char *end;

	tap_ok(man_section(man, map->title, &end) != NULL,
		"man page: a section \"%s\"", map->title);
	for (size_t i = 0; i < map->count; i++) {
		const struct tn_tui_binding *b = &map->bindings[i];
		char keys[128];

		tn_tui_binding_keys(b, keys, sizeof(keys));
		tap_ok(b->help && *b->help, "%s: %s has a help line",
			map->title, keys);
		tap_ok(b->command || b->action || b->label,
			"%s: %s does something", map->title, keys);
		tap_ok(!b->command || tn_command_find(b->command),
			"%s: %s runs a command of the table", map->title, keys);
		for (size_t k = 0; k < G_N_ELEMENTS(b->keys) && b->keys[k];
				k++) {
			gpointer key = GINT_TO_POINTER(b->keys[k]);

			tap_ok(!g_hash_table_contains(seen, key),
				"%s: %s: key %d is bound once", map->title,
				keys, b->keys[k]);
			g_hash_table_add(seen, key);
		}
		check_man_lists(man, map->title, keys);
	}
	for (int d = '0'; d <= '9'; d++)
		tap_ok(!g_hash_table_contains(seen, GINT_TO_POINTER(d)),
			"%s: digit %c is left for counts", map->title, d);
	g_hash_table_destroy(seen);
}

/* Keys reach the focused pane, then the global map, then the list: a
 * key of the global map (or a pane's toggle) must not also be a key of
 * a pane, or one of them could never be typed. */
static void check_no_shadowing(void)
{
	size_t count, pane_count;
	const struct tn_pane_class *const *classes =
		tn_pane_classes(&pane_count);
	GHashTable *global = g_hash_table_new(g_direct_hash, g_direct_equal);

	for (size_t i = 0; i < tn_tui_global_keys.count; i++)
		for (size_t k = 0; k < 6 && tn_tui_global_keys.bindings[i].keys[k];
				k++)
			g_hash_table_add(global, GINT_TO_POINTER(
				tn_tui_global_keys.bindings[i].keys[k]));
	for (size_t p = 0; p < pane_count; p++) {
		int key = classes[p]->toggle_key;

		if (!key)
			continue;
		tap_ok(!g_hash_table_contains(global, GINT_TO_POINTER(key)),
			"pane %s: its toggle is no global key",
			classes[p]->name);
		g_hash_table_add(global, GINT_TO_POINTER(key));
	}
	for (size_t p = 0; p < pane_count; p++) {
		const struct tn_tui_keymap *map = classes[p]->keymap;

		for (size_t i = 0; map && i < map->count; i++)
			for (size_t k = 0; k < 6 && map->bindings[i].keys[k];
					k++)
				tap_ok(!g_hash_table_contains(global,
					GINT_TO_POINTER(map->bindings[i].keys[k])),
					"%s: key %d is not also global",
					map->title, map->bindings[i].keys[k]);
	}
	tn_tui_help_keymaps(&count);
	tap_ok(count >= 4, "the help lists %zu key maps", count);
	g_hash_table_destroy(global);
}

/* The Panes section lists every toggle. */
static void check_toggles(const char *man)
{
	size_t count;
	const struct tn_pane_class *const *classes = tn_pane_classes(&count);

	for (size_t i = 0; i < count; i++) {
		char name[32];

		if (!classes[i]->toggle_key)
			continue;
		tap_ok(classes[i]->toggle_help != NULL, "pane %s: its toggle "
			"has a help line", classes[i]->name);
		tn_tui_key_name(classes[i]->toggle_key, name, sizeof(name));
		check_man_lists(man, "Panes", name);
	}
}

int main(void)
{
	char *man = read_man_page();
	size_t count;
	const struct tn_tui_keymap *const *maps = tn_tui_help_keymaps(&count);
	char name[32];

	tap_ok(man != NULL, "the man page doc/tracenav.1 is readable");
	for (size_t i = 0; i < count; i++)
		check_map(maps[i], man);
	check_no_shadowing();
	check_toggles(man);
	tn_tui_key_name(TN_TUI_KEY_CTRL('f'), name, sizeof(name));
	tap_str_eq(name, "Ctrl-F", "the name of Ctrl-F");
	tn_tui_key_name(' ', name, sizeof(name));
	tap_str_eq(name, "Space", "the name of the space bar");
	g_free(man);
	return tap_done();
}
