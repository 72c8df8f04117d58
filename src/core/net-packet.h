/* net-packet.h - the TCP packets that LTTng kernel traces show sent and
 * received (internal: the matcher of sync-match.c and the sequence
 * diagram's network loader read them).
 *
 * A send is net_dev_queue (lttng-modules 2.9 and later, the TCP header
 * under its network header) or inet_sock_local_out (the older addon
 * module, the fields in the payload); a receipt is netif_receive_skb
 * (net_if_receive_skb before lttng-modules 2.6) or inet_sock_local_in.
 * A packet is named by its TCP header's seq, ack_seq and flags.
 */
#ifndef TRACENAV_CORE_NET_PACKET_H
#define TRACENAV_CORE_NET_PACKET_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"

/* What names a packet. */
struct tn_net_key {
	uint64_t seq, ack_seq, flags;
};

/* Whether ev sends (*send true) or receives a TCP packet: true with
 * *key and *send; false for any other event, or one of those events
 * that carries no TCP header. */
bool tn_net_packet_of_event(const struct tn_event *ev,
		struct tn_net_key *key, bool *send);

/* Whether names (NULL-terminated) has events that send packets and
 * events that receive them. */
bool tn_net_packet_names_apply(const char *const *names);

/* Append to wants (a GArray of struct tn_field_want) the fields that
 * tn_net_packet_of_event() reads. */
void tn_net_packet_add_wants(GArray *wants);

/* For a GHashTable keyed by struct tn_net_key. */
guint tn_net_key_hash(gconstpointer key);
gboolean tn_net_key_equal(gconstpointer a, gconstpointer b);

#endif
