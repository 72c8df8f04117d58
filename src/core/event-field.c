/* event-field.c - one field of an event by name, as a typed value (see
 * event.h): what filter expressions compare. */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <string.h>

#include "tracenav/event.h"
#include "event-field.h"

/* A variant or an option stands for the field it holds (NULL: none). */
static const bt_field *unwrap(const bt_field *field)
{
	while (field) {
		bt_field_class_type type = bt_field_get_class_type(field);

		if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT))
			field = bt_field_variant_borrow_selected_option_field_const(
				field);
		else if (bt_field_class_type_is(type,
				BT_FIELD_CLASS_TYPE_OPTION))
			field = bt_field_option_borrow_field_const(field);
		else
			break;
	}
	return field;
}

/* The member at path (dots between structure members) of structure
 * root, or NULL. */
static const bt_field *find_path(const bt_field *root, const char *path)
{
	const bt_field *field = root;
	char name[256];

	while (field && *path) {
		size_t len = strcspn(path, ".");

		field = unwrap(field);
		if (!field || len >= sizeof(name) ||
		    bt_field_get_class_type(field) != BT_FIELD_CLASS_TYPE_STRUCTURE)
			return NULL;
		memcpy(name, path, len);
		name[len] = 0;
		field = bt_field_structure_borrow_member_field_by_name_const(
			field, name);
		path += len;
		if (*path == '.')
			path++;
	}
	return unwrap(field);
}

static void read_value(const bt_field *field, struct tn_field_value *out)
{
	bt_field_class_type type = bt_field_get_class_type(field);
	bt_field_class_enumeration_mapping_label_array labels = NULL;

	memset(out, 0, sizeof(*out));
	out->type = TN_VALUE_OTHER;
	if (type == BT_FIELD_CLASS_TYPE_BOOL) {
		out->type = TN_VALUE_UNSIGNED;
		out->u = bt_field_bool_get_value(field) ? 1 : 0;
	} else if (type == BT_FIELD_CLASS_TYPE_BIT_ARRAY) {
		out->type = TN_VALUE_UNSIGNED;
		out->u = bt_field_bit_array_get_value_as_integer(field);
	} else if (bt_field_class_type_is(type,
			BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		out->type = TN_VALUE_UNSIGNED;
		out->u = bt_field_integer_unsigned_get_value(field);
		out->is_enum = type == BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION;
		if (out->is_enum &&
		    bt_field_enumeration_unsigned_get_mapping_labels(field,
				&labels, &out->label_count) ==
				BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK)
			out->labels = labels;
	} else if (bt_field_class_type_is(type,
			BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		out->type = TN_VALUE_SIGNED;
		out->s = bt_field_integer_signed_get_value(field);
		out->is_enum = type == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION;
		if (out->is_enum &&
		    bt_field_enumeration_signed_get_mapping_labels(field,
				&labels, &out->label_count) ==
				BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK)
			out->labels = labels;
	} else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
		out->type = TN_VALUE_REAL;
		out->d = bt_field_real_single_precision_get_value(field);
	} else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
		out->type = TN_VALUE_REAL;
		out->d = bt_field_real_double_precision_get_value(field);
	} else if (type == BT_FIELD_CLASS_TYPE_STRING) {
		out->type = TN_VALUE_STRING;
		out->string = bt_field_string_get_value(field);
	}
	if (!out->labels)
		out->label_count = 0;
}

/* The root structure of one scope, or NULL. */
static const bt_field *scope_root(const bt_event *event,
		enum tn_field_scope scope)
{
	const bt_packet *packet;

	switch (scope) {
	case TN_SCOPE_PAYLOAD:
		return bt_event_borrow_payload_field_const(event);
	case TN_SCOPE_SPECIFIC_CONTEXT:
		return bt_event_borrow_specific_context_field_const(event);
	case TN_SCOPE_COMMON_CONTEXT:
		return bt_event_borrow_common_context_field_const(event);
	case TN_SCOPE_PACKET_CONTEXT:
		packet = bt_event_borrow_packet_const(event);
		return packet ? bt_packet_borrow_context_field_const(packet) :
			NULL;
	default:
		return NULL;
	}
}

static const struct {
	const char *name;
	enum tn_field_scope scope;
} scope_names[] = {
	{ "$payload", TN_SCOPE_PAYLOAD },
	{ "$ctx", TN_SCOPE_CONTEXTS },
	{ "$cctx", TN_SCOPE_COMMON_CONTEXT },
	{ "$sctx", TN_SCOPE_SPECIFIC_CONTEXT },
	{ "$pctx", TN_SCOPE_PACKET_CONTEXT },
};

bool tn_field_scope_from_name(const char *name, size_t len,
		enum tn_field_scope *out)
{
	for (size_t i = 0; i < G_N_ELEMENTS(scope_names); i++) {
		if (strlen(scope_names[i].name) == len &&
		    strncmp(name, scope_names[i].name, len) == 0) {
			*out = scope_names[i].scope;
			return true;
		}
	}
	return false;
}

bool tn_event_find_field_in_message(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out)
{
	static const enum tn_field_scope any[] = {
		TN_SCOPE_PAYLOAD, TN_SCOPE_SPECIFIC_CONTEXT,
		TN_SCOPE_COMMON_CONTEXT, TN_SCOPE_PACKET_CONTEXT,
	};
	static const enum tn_field_scope contexts[] = {
		TN_SCOPE_COMMON_CONTEXT, TN_SCOPE_SPECIFIC_CONTEXT,
	};
	const enum tn_field_scope *order = &scope;
	size_t count = 1;
	const bt_event *event;

	if (ev->kind != TN_EVENT_KIND_EVENT || !*path || !ev->msg)
		return false;
	if (scope == TN_SCOPE_ANY) {
		order = any;
		count = G_N_ELEMENTS(any);
	} else if (scope == TN_SCOPE_CONTEXTS) {
		order = contexts;
		count = G_N_ELEMENTS(contexts);
	}
	event = bt_message_event_borrow_event_const(ev->msg);
	for (size_t i = 0; i < count; i++) {
		const bt_field *root = scope_root(event, order[i]);
		const bt_field *field = root ? find_path(root, path) : NULL;

		if (field) {
			read_value(field, out);
			return true;
		}
	}
	return false;
}

/* ---- handles: a field's place, resolved once per event class ---- */

/* The root structure class of one scope of an event class, or NULL. */
static const bt_field_class *scope_root_class(const bt_event_class *cls,
		enum tn_field_scope scope)
{
	const bt_stream_class *sc = bt_event_class_borrow_stream_class_const(
		cls);

	switch (scope) {
	case TN_SCOPE_PAYLOAD:
		return bt_event_class_borrow_payload_field_class_const(cls);
	case TN_SCOPE_SPECIFIC_CONTEXT:
		return bt_event_class_borrow_specific_context_field_class_const(
			cls);
	case TN_SCOPE_COMMON_CONTEXT:
		return bt_stream_class_borrow_event_common_context_field_class_const(
			sc);
	case TN_SCOPE_PACKET_CONTEXT:
		return bt_stream_class_borrow_packet_context_field_class_const(
			sc);
	default:
		return NULL;
	}
}

static bool is_wrapper(const bt_field_class *fc)
{
	bt_field_class_type type = bt_field_class_get_type(fc);

	return bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT) ||
		bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION);
}

/* Resolve path in the structure class root: 1 with the member indexes
 * (handle->depth of them), 0 when no field of this class can be there,
 * -1 when the path goes through a variant or an option (the event's
 * own fields decide). */
static int resolve_in(const bt_field_class *root, const char *path,
		struct tn_field_handle *handle)
{
	const bt_field_class *fc = root;

	handle->depth = 0;
	while (*path) {
		size_t len = strcspn(path, ".");
		uint64_t count, i;

		if (is_wrapper(fc))
			return -1;
		if (bt_field_class_get_type(fc) != BT_FIELD_CLASS_TYPE_STRUCTURE)
			return 0;
		if (handle->depth == TN_FIELD_HANDLE_DEPTH)
			return -1;
		count = bt_field_class_structure_get_member_count(fc);
		for (i = 0; i < count; i++) {
			const bt_field_class_structure_member *m =
				bt_field_class_structure_borrow_member_by_index_const(
					fc, i);
			const char *name =
				bt_field_class_structure_member_get_name(m);

			if (strlen(name) == len && !strncmp(name, path, len)) {
				fc = bt_field_class_structure_member_borrow_field_class_const(
					m);
				break;
			}
		}
		if (i == count)
			return 0;
		handle->indexes[handle->depth++] = i;
		path += len;
		if (*path == '.')
			path++;
	}
	return is_wrapper(fc) ? -1 : 1;
}

void tn_field_handle_resolve(const void *event_class,
		enum tn_field_scope scope, const char *path,
		struct tn_field_handle *handle)
{
	static const enum tn_field_scope any[] = {
		TN_SCOPE_PAYLOAD, TN_SCOPE_SPECIFIC_CONTEXT,
		TN_SCOPE_COMMON_CONTEXT, TN_SCOPE_PACKET_CONTEXT,
	};
	static const enum tn_field_scope contexts[] = {
		TN_SCOPE_COMMON_CONTEXT, TN_SCOPE_SPECIFIC_CONTEXT,
	};
	const enum tn_field_scope *order = &scope;
	size_t count = 1;

	handle->kind = TN_FIELD_HANDLE_ABSENT;
	if (!*path)
		return;
	if (scope == TN_SCOPE_ANY) {
		order = any;
		count = G_N_ELEMENTS(any);
	} else if (scope == TN_SCOPE_CONTEXTS) {
		order = contexts;
		count = G_N_ELEMENTS(contexts);
	}
	/* The first scope that may hold it decides, as in a search by
	 * name; one that holds it only maybe leaves it to the event. */
	for (size_t i = 0; i < count; i++) {
		const bt_field_class *root = scope_root_class(event_class,
			order[i]);
		int found = root ? resolve_in(root, path, handle) : 0;

		if (found < 0) {
			handle->kind = TN_FIELD_HANDLE_BY_NAME;
			return;
		}
		if (found > 0) {
			handle->kind = TN_FIELD_HANDLE_AT;
			handle->scope = order[i];
			return;
		}
	}
}

bool tn_field_handle_read(const struct tn_event *ev,
		const struct tn_field_handle *handle, enum tn_field_scope scope,
		const char *path, struct tn_field_value *out)
{
	const bt_field *field;

	switch (handle->kind) {
	case TN_FIELD_HANDLE_ABSENT:
		return false;
	case TN_FIELD_HANDLE_BY_NAME:
		return tn_event_find_field_in_message(ev, scope, path, out);
	case TN_FIELD_HANDLE_AT:
		break;
	}
	field = scope_root(bt_message_event_borrow_event_const(ev->msg),
		handle->scope);
	for (unsigned i = 0; field && i < handle->depth; i++)
		field = bt_field_structure_borrow_member_field_by_index_const(
			field, handle->indexes[i]);
	if (!field)
		return false;
	read_value(field, out);
	return true;
}
