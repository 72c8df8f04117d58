/* help.c - the help text: every key of every key map and every command
 * of the command table, so it cannot drift from what the code does. */
#include <string.h>

#include "../commands.h"
#include "tui-private.h"

/* The key names column is cut at this many characters. */
#define KEYS_WIDTH 24

static void add_keymap(GPtrArray *lines, enum tn_tui_keymap map)
{
	size_t count;
	const struct tn_tui_binding *bindings = tn_tui_keymap(map, &count);

	g_ptr_array_add(lines, g_strdup(tn_tui_keymap_title(map)));
	for (size_t i = 0; i < count; i++) {
		const struct tn_tui_binding *b = &bindings[i];
		char keys[128];
		GString *line = g_string_new("  ");

		tn_tui_binding_keys(b, keys, sizeof(keys));
		g_string_append_printf(line, "%-*s ", KEYS_WIDTH, keys);
		g_string_append(line, b->help);
		if (b->command)
			g_string_append_printf(line, "  [%s]", b->command);
		g_ptr_array_add(lines, g_string_free(line, FALSE));
	}
	g_ptr_array_add(lines, g_strdup(""));
}

static void add_commands(GPtrArray *lines)
{
	size_t count;
	const struct tn_command *commands = tn_commands(&count);
	int width = 0;

	g_ptr_array_add(lines, g_strdup("Commands (type : then the command; "
		"--batch runs the same commands)"));
	for (size_t i = 0; i < count; i++) {
		const char *args = commands[i].args;
		int w = (int) strlen(commands[i].name) +
			(args && *args ? 1 + (int) strlen(args) : 0);

		width = MAX(width, w);
	}
	width = MIN(width, KEYS_WIDTH);
	for (size_t i = 0; i < count; i++) {
		const struct tn_command *c = &commands[i];
		bool has_args = c->args && *c->args;
		char *usage = g_strdup_printf("%s%s%s", c->name,
			has_args ? " " : "", has_args ? c->args : "");
		GString *line = g_string_new("  ");

		g_string_append_printf(line, "%-*s %s", width, usage,
			c->help ? c->help : "");
		if (c->alias)
			g_string_append_printf(line, "  (also %s)", c->alias);
		g_ptr_array_add(lines, g_string_free(line, FALSE));
		g_free(usage);
	}
}

GPtrArray *tn_tui_help_lines(void)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(lines, g_strdup("tracenav: keys and commands"));
	g_ptr_array_add(lines, g_strdup(""));
	for (int map = 0; map < TN_TUI_KEYMAP_COUNT_; map++)
		add_keymap(lines, (enum tn_tui_keymap) map);
	add_commands(lines);
	return lines;
}
