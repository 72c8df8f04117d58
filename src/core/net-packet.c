/* net-packet.c - the TCP packets that LTTng kernel traces show sent and
 * received (see net-packet.h). */
#include <string.h>

#include "net-packet.h"
#include "providers/provider-fields.h"

#define NET_PATH "network_header.transport_header."

struct flavour {
	const char *event;
	bool send;
	const char *seq, *ack_seq, *flags;
};

static const struct flavour flavours[] = {
	{ "net_dev_queue", true, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "netif_receive_skb", false, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "net_if_receive_skb", false, NET_PATH "seq", NET_PATH "ack_seq",
	  NET_PATH "flags" },
	{ "inet_sock_local_out", true, "seq", "ack_seq", "flags" },
	{ "inet_sock_local_in", false, "seq", "ack_seq", "flags" },
};

static const struct flavour *flavour_of(const char *name)
{
	if (name[0] != 'n' && name[0] != 'i')
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(flavours); i++)
		if (strcmp(name, flavours[i].event) == 0)
			return &flavours[i];
	return NULL;
}

/* The integer field at path of ev's payload, as unsigned. */
static bool read_unsigned(const struct tn_event *ev, const char *path,
		uint64_t *out)
{
	int64_t value;

	if (!tn_provider_field_int(ev, path, &value))
		return false;
	*out = (uint64_t) value;
	return true;
}

bool tn_net_packet_of_event(const struct tn_event *ev,
		struct tn_net_key *key, bool *send)
{
	const struct flavour *f;

	if (ev->kind != TN_EVENT_KIND_EVENT ||
	    !(f = flavour_of(tn_event_get_name(ev))))
		return false;
	if (!read_unsigned(ev, f->seq, &key->seq) ||
	    !read_unsigned(ev, f->ack_seq, &key->ack_seq) ||
	    !read_unsigned(ev, f->flags, &key->flags))
		return false;	/* not a TCP packet */
	*send = f->send;
	return true;
}

/* Whether names holds a flavour's event that sends (send) or
 * receives. */
static bool has_flavour(const char *const *names, bool send)
{
	for (size_t f = 0; f < G_N_ELEMENTS(flavours); f++)
		for (const char *const *n = names; *n; n++)
			if (flavours[f].send == send &&
			    strcmp(*n, flavours[f].event) == 0)
				return true;
	return false;
}

bool tn_net_packet_names_apply(const char *const *names)
{
	return names && has_flavour(names, true) && has_flavour(names, false);
}

void tn_net_packet_add_wants(GArray *wants)
{
	for (size_t i = 0; i < G_N_ELEMENTS(flavours); i++) {
		const struct flavour *f = &flavours[i];
		struct tn_field_want want[3] = {
			{ f->event, TN_SCOPE_PAYLOAD, f->seq },
			{ f->event, TN_SCOPE_PAYLOAD, f->ack_seq },
			{ f->event, TN_SCOPE_PAYLOAD, f->flags },
		};

		g_array_append_vals(wants, want, 3);
	}
}

guint tn_net_key_hash(gconstpointer p)
{
	const struct tn_net_key *k = p;

	return (guint) (k->seq * 2654435761u ^ k->ack_seq * 40503u ^
		k->flags);
}

gboolean tn_net_key_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(struct tn_net_key)) == 0;
}
