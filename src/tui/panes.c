/* panes.c - the registry of panes, their focus and what they share (see
 * pane.h).  Adding a pane: one file defining its class, one line here. */
#include <inttypes.h>
#include <stdio.h>

#include "draw.h"
#include "pane.h"
#include "tui-private.h"

/* The registry, in the order of Tab and of the help: one line a pane
 * (each defined in its own pane-*.c).  The event list, the main pane
 * and always open, comes first. */
#define PANES(PANE) \
	PANE(tn_pane_list) \
	PANE(tn_pane_state) \
	PANE(tn_pane_seq) \
	PANE(tn_pane_histogram) \
	PANE(tn_pane_stats) \
	PANE(tn_pane_analysis)

#define DECLARE(name) extern const struct tn_pane_class name;
PANES(DECLARE)
#define ENTRY(name) &name,
static const struct tn_pane_class *const registry[] = { PANES(ENTRY) };

const struct tn_pane_class *const *tn_pane_classes(size_t *count)
{
	*count = G_N_ELEMENTS(registry);
	return registry;
}

void tn_panes_init(struct tn_panes *panes, struct tn_tui *tui)
{
	*panes = (struct tn_panes) { 0 };
	for (size_t i = 0; i < G_N_ELEMENTS(registry) &&
			i < TN_LAYOUT_MAX_PANES; i++) {
		struct tn_pane *pane = &panes->panes[panes->count++];

		pane->cls = registry[i];
		pane->tui = tui;
		pane->open = registry[i]->toggle_key == 0;
		if (pane->cls->init)
			pane->cls->init(pane);
	}
}

void tn_panes_fini(struct tn_panes *panes)
{
	for (size_t i = 0; i < panes->count; i++) {
		struct tn_pane *pane = &panes->panes[i];

		tn_pane_set_cache(pane, NULL);
		if (pane->cls->destroy)
			pane->cls->destroy(pane);
		if (pane->win)
			delwin(pane->win);
	}
	panes->count = 0;
}

struct tn_pane *tn_panes_main(struct tn_panes *panes)
{
	return &panes->panes[0];
}

struct tn_pane *tn_panes_find_toggle(struct tn_panes *panes, int key)
{
	for (size_t i = 0; i < panes->count; i++)
		if (key && panes->panes[i].cls->toggle_key == key)
			return &panes->panes[i];
	return NULL;
}

static bool can_focus(const struct tn_pane *pane)
{
	return pane->open && pane->win;
}

void tn_panes_toggle(struct tn_panes *panes, struct tn_pane *pane)
{
	if (pane == tn_panes_main(panes))
		return;
	pane->open = !pane->open;
	pane->dirty = true;
	if (!pane->open && tn_panes_focused(panes) == pane)
		panes->focus = 0;
}

struct tn_pane *tn_panes_focused(struct tn_panes *panes)
{
	struct tn_pane *pane = &panes->panes[panes->focus];

	/* A pane that closed or no longer fits gives the focus back. */
	if (!can_focus(pane))
		panes->focus = 0;
	return &panes->panes[panes->focus];
}

void tn_panes_move_focus(struct tn_panes *panes, int step)
{
	size_t at = panes->focus;

	for (size_t n = 0; n < panes->count; n++) {
		at = (at + panes->count + (size_t) (step > 0 ? 1 : -1)) %
			panes->count;
		if (can_focus(&panes->panes[at]))
			break;
	}
	if (can_focus(&panes->panes[at]))
		panes->focus = at;
	for (size_t i = 0; i < panes->count; i++)
		panes->panes[i].dirty = true;
}

bool tn_panes_poll(struct tn_panes *panes)
{
	bool busy = false;

	for (size_t i = 0; i < panes->count; i++)
		if (panes->panes[i].cls->poll &&
		    panes->panes[i].cls->poll(&panes->panes[i]))
			busy = true;
	return busy;
}

bool tn_panes_cancel(struct tn_panes *panes)
{
	bool cancelled = false;

	for (size_t i = 0; i < panes->count; i++)
		if (panes->panes[i].cls->cancel &&
		    panes->panes[i].cls->cancel(&panes->panes[i]))
			cancelled = true;
	return cancelled;
}

void tn_pane_set_cache(struct tn_pane *pane, void *cache)
{
	if (pane->cache && pane->cls->cache_free)
		pane->cls->cache_free(pane->cache);
	pane->cache = cache;
	pane->dirty = true;
}

int tn_pane_draw_frame(struct tn_pane *pane, WINDOW *win)
{
	struct tn_tui *tui = pane->tui;
	bool focused = tn_panes_focused(&tui->panes) == pane;
	char *title;
	int h, w;

	getmaxyx(win, h, w);
	if (pane->cls->toggle_key)
		title = g_strdup_printf(" %s (%c hides)", pane->cls->title,
			pane->cls->toggle_key);
	else
		title = g_strdup_printf(" %s", pane->cls->title);
	wattrset(win, tn_tui_attr(tui, focused ? TN_TUI_COLOR_FOCUS :
		TN_TUI_COLOR_PANE));
	tn_tui_draw_utf8(win, 0, 0, title, w);
	wattrset(win, A_NORMAL);
	g_free(title);
	if (pane->rect.x > 0 && h > 1) {
		mvwvline(win, 1, 0, '|', h - 1);
		return 2;
	}
	return 1;
}

void tn_pane_draw_lines(struct tn_pane *pane, WINDOW *win,
		const char *const *lines)
{
	int h, w, x;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	for (int i = 0; lines[i] && i + 2 < h; i++)
		tn_tui_draw_utf8(win, i + 2, x, lines[i], w - x);
}

void tn_pane_goto_position(struct tn_pane *pane, const struct tn_position *pos)
{
	char line[96];

	snprintf(line, sizeof(line), "goto @%" PRId64 ":%" PRIu64, pos->ns,
		pos->tie);
	tn_tui_run_line(pane->tui, line, TN_TUI_FOLLOW_BY_COMMAND);
}
