#!/usr/bin/env python3
"""sync-check.py - what a --dump of several hosts says of their packets.

Reads babeltrace2's text (tracenav --dump, with or without --sync) on
standard input and pairs each TCP packet sent on one host (net_dev_queue,
inet_sock_local_out) with its receipt on another (netif_receive_skb,
inet_sock_local_in) by seq, ack_seq and flags, as tracenav's matcher
does.  Prints one line of counts:

  events N matched M before K back B

M packets matched, K of them received before they were sent (by the
printed times), and B events whose time is before the one printed above
them.  Times are read as HH:MM:SS.NNNNNNNNN (a trace within one day).
"""
import re
import sys

LINE = re.compile(r"^\[(\d+):(\d+):(\d+)\.(\d{9})\] \(\S+\) (\S+) (\S+):")
FIELD = re.compile(r"\b(seq|ack_seq|flags) = (0x[0-9A-Fa-f]+|\d+)")
SENDS = {"net_dev_queue", "inet_sock_local_out"}
RECEIPTS = {"netif_receive_skb", "net_if_receive_skb", "inet_sock_local_in"}


def main():
    pending = {}
    events = matched = before = back = 0
    last = None
    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        events += 1
        ns = ((int(m[1]) * 60 + int(m[2])) * 60 + int(m[3])) * 10**9 + int(m[4])
        if last is not None and ns < last:
            back += 1
        last = ns
        host, name = m[5], m[6]
        if name not in SENDS and name not in RECEIPTS:
            continue
        fields = {k: int(v, 0) for k, v in FIELD.findall(line)}
        key = (fields.get("seq"), fields.get("ack_seq"), fields.get("flags"))
        send = name in SENDS
        waiting = pending.get(key)
        if waiting is None:
            pending[key] = (send, host, ns)
        elif waiting[0] != send and waiting[1] != host:
            del pending[key]
            matched += 1
            send_ns, receipt_ns = (ns, waiting[2]) if send else (waiting[2], ns)
            if receipt_ns < send_ns or send:
                before += 1
    print(f"events {events} matched {matched} before {before} back {back}")


if __name__ == "__main__":
    main()
