#!/bin/sh
# A trace read while LTTng records it, with a session daemon of the
# test's own (lttng-sessiond --no-kernel, as another user when run as
# root, so that it meets no other daemon): tests/ust/ticker traces
# tnticker:tick events numbered 0, 1, 2... on one CPU, in a channel of
# small packets flushed every 100 ms, its metadata too.  While it runs,
# --dump answers at once with events 0..n-1, none missing, the packet
# being written left out with a note; --batch's reload (commands fed
# through a pipe) picks up what was written since, the current event,
# mark and filter kept; once the session stopped, a last reload and
# --dump read it all, as babeltrace2 does.  Skipped, saying why, without
# lttng-tools, liblttng-ust-dev or a C compiler (tools/install-deps
# installs them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

. "$top_srcdir/tests/lttng-user.sh"
lttng_user_setup lttng lttng-sessiond
export TZ=UTC
trace=$work/trace
sessiond_pid=
batch_pid=
ticker_pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$ticker_pid" ] && kill "$ticker_pid" 2>/dev/null
	[ -n "$batch_pid" ] && kill "$batch_pid" 2>/dev/null
	L lttng destroy tn-live >/dev/null 2>&1
	[ -n "$sessiond_pid" ] && kill "$sessiond_pid" 2>/dev/null
	rm -rf "$TMPDIR_TEST"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# A write to tracenav's pipe once it ended fails, and is said below.
trap '' PIPE

lttng_record tn-live "$trace"

# One CPU, one stream: what is written of it is events 0..n-1.
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
COUNT=3000
L env LTTNG_UST_ALLOW_BLOCKING=1 $PIN "$work/ticker" $COUNT 1000 &
ticker_pid=$!

# dump: tracenav --dump of the trace into $work/dump, its stderr in
# $work/err, exit status in $status, time in $ms (bounded).
dump() {
	start_ns=$(date +%s%N)
	timeout 10 "$TRACENAV" --no-cache --dump "$trace" >"$work/dump" \
		2>"$work/err"
	status=$?
	ms=$((($(date +%s%N) - start_ns) / 1000000))
}

# events_from_0: the dump's events are seq 0..n-1, each once, in
# order; n in $n.
events_from_0() {
	sed -n 's/.* { seq = \([0-9]*\) }$/\1/p' "$work/dump" > "$work/seqs"
	n=$(wc -l < "$work/seqs" | tr -d ' ')
	[ "$n" -gt 0 ] &&
		awk 'NR - 1 != $1 { bad = 1 } END { exit bad }' "$work/seqs"
}

# only_notes: stderr holds nothing but notes of files read in part.
only_notes() {
	! grep -v -E '^tracenav: [^:]*: (read up to byte|skipped, its events are missing:) ' \
		"$work/err" | grep -q .
}

# The first packets and the metadata come within the timers' 100 ms
# (or later, on a loaded machine).
wait_until 300 eval 'dump; [ "$status" -le 1 ] && events_from_0'
last=0
for k in 1 2 3; do
	dump
	if [ "$status" -le 1 ] && events_from_0 && only_notes &&
	   [ "$n" -ge "$last" ]; then
		ok "while recording, --dump $k: events 0..$((n - 1)), exit $status ($ms ms)$(grep -q . "$work/err" && echo ', the packet being written left out')"
	else
		not_ok "while recording, --dump $k"
		diag "exit $status, $n events ($ms ms)"
		head -3 "$work/err" | cut -c1-200 | sed 's/^/# /'
	fi
	last=$n
	sleep 0.3
done

# --batch, fed through a pipe; send COMMANDS, then wait for LINES lines
# of its output in all.
mkfifo "$work/in"
# Its output files made before it waits for the pipe's writer.
"$TRACENAV" --no-cache --batch-file - "$trace" >"$work/batch" \
	2>"$work/batch.err" <"$work/in" &
batch_pid=$!
exec 3>"$work/in"
send() {
	echo "$1" >&3
	want_lines=$2
	wait_until 600 eval '[ "$(wc -l < "$work/batch")" -ge "$want_lines" ]'
}
line() {
	sed -n "$1p" "$work/batch"
}

send 'filter-in seq.=.[0-9]*[02468].}; count' 1
n1=$(line 1 | awk '{ print $1 }')
send 'goto 50%; where' 2
where1=$(line 2)
send 'mark; reload; where; count; marks' 5
running=$(kill -0 "$ticker_pid" 2>/dev/null && echo yes || echo no)
n2=$(line 4 | awk '{ print $1 }')
check "reload while recording: the current event stays ($where1)" \
	test -n "$where1" -a "$(line 3)" = "$where1"
[ -n "$where1" ] && [ "$(line 3)" = "$where1" ] ||
	head -5 "$work/batch.err" | cut -c1-200 | sed 's/^/# /'
check "reload while recording: the filter stays and more events pass ($n1, then $n2; the program still running: $running)" \
	eval '[ "$running" = no ] && [ "$n2" -ge "$n1" ] || [ "$n2" -gt "$n1" ]'
check "reload while recording: the mark stays" \
	eval 'line 5 | grep -q "seq = "'

# The program ends, the session stops: everything is written.
wait "$ticker_pid"
ticker_pid=
L lttng stop >/dev/null 2>&1
send 'reload; count; marks' 7
check "reload once stopped: every even event passes the filter ($(line 6 | awk '{ print $1 }') of $COUNT events)" \
	test "$(line 6 | awk '{ print $1 }')" = $((COUNT / 2))
check "reload once stopped: the mark stays" test "$(line 7)" = "$(line 5)"
check "the batch session said it reloaded, and nothing wrong" eval \
	'grep -q "^reloaded $trace: [0-9]* bytes more" "$work/batch.err" &&
	 ! grep -v -E "^(reloaded |marked |$trace/[^:]*: read up to byte |the matches are counted)" "$work/batch.err" | grep -q .'
exec 3>&-
wait "$batch_pid"
check "--batch-file - ends with its input (exit $?)" test $? -le 1
batch_pid=

dump
check "once stopped: --dump, all $COUNT events, exit 0 ($ms ms)" eval \
	'[ "$status" = 0 ] && events_from_0 && [ "$n" = $COUNT ]'
if have_babeltrace2; then
	same_output "once stopped: --dump = babeltrace2" "$trace"
else
	skip "babeltrace2 CLI not installed"
fi

tap_done
