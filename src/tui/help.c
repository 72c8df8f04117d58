/* help.c - the keys' help: every key map of the TUI and of the panes,
 * and the panes' toggles, so it cannot drift from what the code does.
 * The help command shows it before the commands (cmd/help.c). */
#include <string.h>

#include "tui-private.h"

/* The key names column is cut at this many characters. */
#define KEYS_WIDTH 24

static void add_line(GPtrArray *lines, const char *keys, const char *help,
		const char *command)
{
	GString *line = g_string_new("  ");

	g_string_append_printf(line, "%-*s ", KEYS_WIDTH, keys);
	g_string_append(line, help);
	if (command)
		g_string_append_printf(line, "  [%s]", command);
	g_ptr_array_add(lines, g_string_free(line, FALSE));
}

static void add_keymap(GPtrArray *lines, const struct tn_tui_keymap *map)
{
	g_ptr_array_add(lines, g_strdup(map->title));
	for (size_t i = 0; i < map->count; i++) {
		const struct tn_tui_binding *b = &map->bindings[i];
		char keys[128];

		tn_tui_binding_keys(b, keys, sizeof(keys));
		add_line(lines, keys, b->help, b->command);
	}
	g_ptr_array_add(lines, g_strdup(""));
}

/* The "Panes" section: the key that shows and hides each pane. */
static void add_toggles(GPtrArray *lines)
{
	size_t count;
	const struct tn_pane_class *const *classes = tn_pane_classes(&count);

	g_ptr_array_add(lines, g_strdup("Panes"));
	for (size_t i = 0; i < count; i++) {
		char keys[32];

		if (!classes[i]->toggle_key)
			continue;
		tn_tui_key_name(classes[i]->toggle_key, keys, sizeof(keys));
		add_line(lines, keys, classes[i]->toggle_help, NULL);
	}
	g_ptr_array_add(lines, g_strdup(""));
}

const struct tn_tui_keymap *const *tn_tui_help_keymaps(size_t *count)
{
	/* Made once, kept for the process's life. */
	static const struct tn_tui_keymap **maps;
	static size_t n;
	size_t pane_count;
	const struct tn_pane_class *const *classes =
		tn_pane_classes(&pane_count);

	if (!n) {
		maps = g_new(const struct tn_tui_keymap *, pane_count + 3);
		maps[n++] = &tn_tui_global_keys;
		for (size_t i = 0; i < pane_count; i++)
			if (classes[i]->keymap)
				maps[n++] = classes[i]->keymap;
		maps[n++] = &tn_tui_pager_keys;
		maps[n++] = &tn_tui_prompt_keys;
	}
	*count = n;
	return maps;
}

GPtrArray *tn_tui_help_key_lines(void)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	size_t count;
	const struct tn_tui_keymap *const *maps = tn_tui_help_keymaps(&count);

	g_ptr_array_add(lines, g_strdup("tracenav: keys and commands"));
	g_ptr_array_add(lines, g_strdup(""));
	for (size_t i = 0; i < count; i++) {
		add_keymap(lines, maps[i]);
		if (maps[i] == &tn_tui_global_keys)
			add_toggles(lines);
	}
	return lines;
}
