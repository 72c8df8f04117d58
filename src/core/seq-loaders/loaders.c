/* loaders.c - the list of sequence diagram loaders, and the set of them
 * that applies to one trace (see seq-loader.h). */
#include <glib.h>
#include <string.h>

#include "loader-classes.h"
#include "src/core/seq-rules-private.h"

static const struct tn_seq_loader_class *const classes[] = {
	&tn_seq_loader_reference,
	&tn_seq_loader_kernel,
	&tn_seq_loader_network,
	&tn_seq_loader_rules,
	NULL,
};

struct loader {
	const struct tn_seq_loader_class *cls;
	void *data;
};

struct tn_seq_loaders {
	struct tn_seq_loader_input input;	/* what create() was given */
	size_t count;
	struct loader items[G_N_ELEMENTS(classes)];
	char *names;		/* "reference, kernel" */
	bool need_state;
};

void tn_seq_loaders_add_wants(const struct tn_seq_loaders *loaders,
		GArray *wants)
{
	for (size_t i = 0; i < loaders->count; i++)
		if (loaders->items[i].cls->add_wants)
			loaders->items[i].cls->add_wants(&loaders->input,
				wants);
}

const struct tn_seq_loader_class *const *tn_seq_loader_classes(void)
{
	return classes;
}

struct tn_seq_loaders *tn_seq_loaders_create_for_input(
		const struct tn_seq_loader_input *input)
{
	struct tn_seq_loaders *loaders = g_new0(struct tn_seq_loaders, 1);
	static const char *const none[] = { NULL };
	GString *list = g_string_new(NULL);

	loaders->input = *input;
	if (!loaders->input.names)
		loaders->input.names = none;
	if (!loaders->input.fields)
		loaders->input.fields = none;
	for (size_t i = 0; classes[i]; i++) {
		struct loader *l = &loaders->items[loaders->count];

		if (classes[i] != &tn_seq_loader_rules &&
		    !tn_seq_rules_keep_loader(input->rules, classes[i]->name))
			continue;
		if (!classes[i]->applies(&loaders->input))
			continue;
		l->cls = classes[i];
		l->data = l->cls->create ? l->cls->create(&loaders->input) :
			NULL;
		loaders->need_state |= l->cls->needs_state;
		if (loaders->count++)
			g_string_append(list, ", ");
		g_string_append(list, l->cls->name);
	}
	loaders->names = g_string_free(list, FALSE);
	return loaders;
}

struct tn_seq_loaders *tn_seq_loaders_create_for_names(
		const char *const *names, const char *const *fields)
{
	struct tn_seq_loader_input input = { names, fields, NULL };

	return tn_seq_loaders_create_for_input(&input);
}

struct tn_seq_loaders *tn_seq_loaders_create_with_rules(
		const struct tn_trace *trace, const struct tn_seq_rules *rules)
{
	struct tn_seq_loader_input input = {
		tn_trace_get_event_names(trace),
		tn_trace_get_field_names(trace),
		rules,
	};

	return tn_seq_loaders_create_for_input(&input);
}

struct tn_seq_loaders *tn_seq_loaders_create(const struct tn_trace *trace)
{
	return tn_seq_loaders_create_with_rules(trace, NULL);
}

void tn_seq_loaders_destroy(struct tn_seq_loaders *loaders)
{
	if (!loaders)
		return;
	for (size_t i = 0; i < loaders->count; i++) {
		struct loader *l = &loaders->items[i];

		if (l->cls->destroy)
			l->cls->destroy(l->data);
	}
	g_free(loaders->names);
	g_free(loaders);
}

size_t tn_seq_loaders_get_count(const struct tn_seq_loaders *loaders)
{
	return loaders->count;
}

const char *tn_seq_loaders_get_names(const struct tn_seq_loaders *loaders)
{
	return loaders->names;
}

bool tn_seq_loaders_need_state(const struct tn_seq_loaders *loaders)
{
	return loaders->need_state;
}

void tn_seq_loaders_reset(struct tn_seq_loaders *loaders)
{
	for (size_t i = 0; i < loaders->count; i++) {
		struct loader *l = &loaders->items[i];

		if (l->cls->reset)
			l->cls->reset(l->data);
	}
}

int tn_seq_loaders_handle(struct tn_seq_loaders *loaders,
		struct tn_seq_model *model, const struct tn_event *ev,
		const struct tn_position *pos, const struct tn_state *state,
		struct tn_error *err)
{
	if (ev->kind != TN_EVENT_KIND_EVENT)
		return 0;
	for (size_t i = 0; i < loaders->count; i++) {
		struct loader *l = &loaders->items[i];

		if (l->cls->handle_event(l->data, model, ev, pos, state,
				err) < 0)
			return -1;
	}
	return 0;
}

void tn_seq_loaders_finish(struct tn_seq_loaders *loaders,
		struct tn_seq_model *model)
{
	for (size_t i = 0; i < loaders->count; i++) {
		struct loader *l = &loaders->items[i];

		if (l->cls->finish)
			l->cls->finish(l->data, model);
	}
}
