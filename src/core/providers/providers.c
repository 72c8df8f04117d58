/* providers.c - the list of state providers, and the set of them that
 * applies to one trace (see state-provider.h). */
#include <glib.h>
#include <string.h>

#include "provider-classes.h"

static const struct tn_state_provider_class *const classes[] = {
	&tn_state_provider_kernel,
	&tn_state_provider_ust,
	NULL,
};

struct provider {
	const struct tn_state_provider_class *cls;
	void *data;
};

struct tn_state_providers {
	size_t count;
	struct provider items[G_N_ELEMENTS(classes)];
	char *names;		/* "kernel, ust" */
};

const struct tn_state_provider_class *const *tn_state_provider_classes(void)
{
	return classes;
}

struct tn_state_providers *tn_state_providers_create(
		const struct tn_trace *trace)
{
	struct tn_state_providers *providers =
		g_new0(struct tn_state_providers, 1);
	const char *const *names = tn_trace_get_event_names(trace);
	static const char *const none[] = { NULL };
	GString *list = g_string_new(NULL);

	if (!names)
		names = none;
	for (size_t i = 0; classes[i]; i++) {
		struct provider *p = &providers->items[providers->count];

		if (!classes[i]->applies(names))
			continue;
		p->cls = classes[i];
		p->data = p->cls->create ? p->cls->create() : NULL;
		if (providers->count++)
			g_string_append(list, ", ");
		g_string_append(list, p->cls->name);
	}
	providers->names = g_string_free(list, FALSE);
	return providers;
}

void tn_state_providers_destroy(struct tn_state_providers *providers)
{
	if (!providers)
		return;
	for (size_t i = 0; i < providers->count; i++) {
		struct provider *p = &providers->items[i];

		if (p->cls->destroy)
			p->cls->destroy(p->data);
	}
	g_free(providers->names);
	g_free(providers);
}

size_t tn_state_providers_get_count(const struct tn_state_providers *providers)
{
	return providers->count;
}

const char *tn_state_providers_get_names(
		const struct tn_state_providers *providers)
{
	return providers->names;
}

/* Append a NULL-path-terminated table to wants. */
static void add_table(GArray *wants, const struct tn_field_want *table)
{
	for (size_t i = 0; table && table[i].path; i++)
		g_array_append_val(wants, table[i]);
}

void tn_state_providers_add_wants(const struct tn_state_providers *providers,
		GArray *wants)
{
	for (size_t i = 0; i < providers->count; i++)
		add_table(wants, providers->items[i].cls->wants);
}

void tn_state_providers_reset(struct tn_state_providers *providers)
{
	for (size_t i = 0; i < providers->count; i++) {
		struct provider *p = &providers->items[i];

		if (p->cls->reset)
			p->cls->reset(p->data);
	}
}

int tn_state_providers_handle(struct tn_state_providers *providers,
		struct tn_state *state, const struct tn_event *ev,
		const struct tn_position *pos, struct tn_error *err)
{
	if (ev->kind != TN_EVENT_KIND_EVENT)
		return 0;
	for (size_t i = 0; i < providers->count; i++) {
		struct provider *p = &providers->items[i];

		if (p->cls->handle_event(p->data, state, ev, pos, err) < 0)
			return -1;
	}
	return 0;
}
