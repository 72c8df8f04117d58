#!/bin/sh
# test-tui-follow-ust.sh - follow mode on a trace that LTTng records,
# with a session daemon of the test's own (as test-ust-live.sh):
# tests/ust/ticker traces tnticker:tick events numbered from 0 on one
# CPU, in a channel of small packets flushed every 100 ms.  tracenav
# --follow opens the session's output directory once its first events
# are written, then shows each new run of the program's last event as
# it is written, with the index counting them; a move up holds the
# position and the status bar counts what comes; F follows again.  Once
# the session stopped, what the list counts is what babeltrace2 reads.
# Skipped, saying why, without tmux, lttng-tools, liblttng-ust-dev or a
# C compiler.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
tmux_dir=$TMPDIR_TEST
. "$top_srcdir/tests/lttng-user.sh"
lttng_user_setup lttng lttng-sessiond
export TZ=UTC
trace=$work/trace
sessiond_pid=
ticker_pid=
cleanup() {
	tm kill-server 2>/dev/null
	[ -S "$socket_path" ] && rm -f "$socket_path"
	[ -n "$ticker_pid" ] && kill "$ticker_pid" 2>/dev/null
	L lttng destroy tn-follow >/dev/null 2>&1
	[ -n "$sessiond_pid" ] && kill "$sessiond_pid" 2>/dev/null
	rm -rf "$TMPDIR_TEST" "$tmux_dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

lttng_record tn-follow "$trace"

PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
# tick COUNT: the program records COUNT events, numbered 0..COUNT-1.
tick() {
	L env LTTNG_UST_ALLOW_BLOCKING=1 $PIN "$work/ticker" "$1" 1000
}

# written N: tracenav --dump reads N events of the trace so far; the
# time of the last one in $last.
written() {
	timeout 10 "$TRACENAV" --no-cache --dump "$trace" > "$work/dump" \
		2>/dev/null
	last=$(tail -1 "$work/dump" | sed 's/^\[\([^]]*\)\].*/\1/')
	[ "$(wc -l < "$work/dump")" -eq "$1" ]
}

tick 100
check "the first 100 events are written (timers of 100 ms)" \
	wait_until 300 written 100
dir=$trace
start follow 120 24 "--follow --no-cache --no-mouse"
check "--follow: the newest event ($last)" wait_status follow "$last" 100
check "--follow: following, the index counts 100 events" \
	wait_until 100 line_is_like follow 23 " following .*event 100 of 100"

tick 50
check "the program runs again: its 50 events are written" \
	wait_until 300 written 150
check "the list shows the newest event ($last)" \
	wait_status follow "$last" 150
check "the newest event is the program's last (seq = 49)" \
	shows follow "seq = 49 }"
check "the index counts 150 events" \
	wait_until 150 line_is_like follow 23 " following .*event 150 of 150"
check "the packets being written are not called damaged" \
	eval '! line_is_like follow 23 "damaged"'

tm send-keys -t follow k
check "a move up: held" line_matches follow 23 " held \(F follows\)"
at=$(settled_time follow)
tick 30
check "the program runs again: 30 more events are written" \
	wait_until 300 written 180
check "the status bar counts the 30 new events" \
	wait_until 150 line_is_like follow 23 " 30 new \(F\) .*event 149 of 180"
check "the position holds ($at)" status_is follow "$at"
tm send-keys -t follow F
check "F: the newest event again ($last)" wait_status follow "$last"

L lttng stop >/dev/null 2>&1
L lttng destroy tn-follow >/dev/null 2>&1
if have_babeltrace2; then
	n=$(babeltrace2 "$trace" | wc -l)
	check "the session stopped: the list counts what babeltrace2 reads ($n)" \
		wait_until 150 line_is_like follow 23 "event $n of $n"
else
	skip "babeltrace2 CLI not installed"
fi
tm send-keys -t follow q
check "q quits, exit status 0" wait_exit follow 0
tap_done
