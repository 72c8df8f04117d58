/* panes.c - the registry of panes, their focus and what they share (see
 * pane.h).  Adding a pane: one file defining its class, one line here. */
#include <inttypes.h>
#include <stdio.h>

#include "draw.h"
#include "pane.h"

/* The registry, in the order of Tab and of the help: one line a pane
 * (each defined in its own pane-*.c).  The event list, the main pane
 * and always open, comes first. */
#define PANES(PANE) \
	PANE(tn_pane_list) \
	PANE(tn_pane_state) \
	PANE(tn_pane_seq) \
	PANE(tn_pane_histogram) \
	PANE(tn_pane_stats) \
	PANE(tn_pane_analysis) \
	PANE(tn_pane_threads) \
	PANE(tn_pane_cpus)

#define DECLARE(name) extern const struct tn_pane_class name;
PANES(DECLARE)
#define ENTRY(name) &name,
static const struct tn_pane_class *const registry[] = { PANES(ENTRY) };

const struct tn_pane_class *const *tn_pane_classes(size_t *count)
{
	*count = G_N_ELEMENTS(registry);
	return registry;
}

void tn_panes_init(struct tn_panes *panes, const struct tn_pane_host *host)
{
	*panes = (struct tn_panes) {
		.panes = g_new0(struct tn_pane, G_N_ELEMENTS(registry)),
	};
	for (size_t i = 0; i < G_N_ELEMENTS(registry); i++) {
		struct tn_pane *pane = &panes->panes[panes->count++];

		pane->cls = registry[i];
		pane->host = host;
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
	g_clear_pointer(&panes->panes, g_free);
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
