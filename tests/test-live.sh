#!/bin/sh
# Live sessions: an lttng-relayd of the test's own on 127.0.0.1 (free
# ports), a session daemon of its own (as another user when run as root,
# as in test-ust-live.sh) recording tests/ust/ticker's tnticker:tick
# events (numbered 0, 1, 2...) in a live session (--live=100000), and
# `tracenav --dump net://...`: the relay daemon's sessions listed as
# babeltrace2 lists them; the session's events as they come (while the
# program still records), all of them, in order, equal to babeltrace2's
# read of the relay daemon's output once the session ended, and the end
# of the session ending tracenav; a relay daemon killed meanwhile said,
# what came printed; an idle session costing next to no CPU; the wrong
# session, port or URL said in one line.  Skipped, saying why, without
# lttng-tools, liblttng-ust-dev or a C compiler (tools/install-deps
# installs them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

. "$top_srcdir/tests/lttng-user.sh"
lttng_user_setup lttng lttng-sessiond lttng-relayd babeltrace2
export TZ=UTC
out=$work/relayd-output
mkdir -p "$out"
[ -n "$AS" ] && chown 65534:65534 "$out"
sessiond_pid=
relayd_pid=
dump_pid=
cleanup() {
	[ -n "$dump_pid" ] && kill "$dump_pid" 2>/dev/null
	L lttng destroy -a >/dev/null 2>&1
	[ -n "$sessiond_pid" ] && kill "$sessiond_pid" 2>/dev/null
	[ -n "$relayd_pid" ] && kill "$relayd_pid" 2>/dev/null
	rm -rf "$TMPDIR_TEST"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A relay daemon on three free ports (tries a few random ones): control,
# data, live; $live is its live URL.
start_relayd() {
	for try in 1 2 3 4 5 6; do
		base=$(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000 + 30000))
		ctrl=$base data=$((base + 1)) lport=$((base + 2))
		# Not through L (a function run in the background is a
		# subshell): $! is the daemon itself, setpriv and env exec it.
		$AS env HOME="$home" LTTNG_HOME="$home" lttng-relayd \
			-C "tcp://127.0.0.1:$ctrl" \
			-D "tcp://127.0.0.1:$data" -L "tcp://127.0.0.1:$lport" \
			-o "$out" >"$work/relayd.log" 2>&1 &
		relayd_pid=$!
		live=net://127.0.0.1:$lport
		if wait_until 30 eval 'babeltrace2 --input-format=lttng-live \
				"$live" >/dev/null 2>&1'; then
			return 0
		fi
		kill "$relayd_pid" 2>/dev/null
		relayd_pid=
	done
	return 1
}

if ! start_relayd; then
	skip "cannot start a relay daemon: $(tail -1 "$work/relayd.log")"
	tap_done
	exit
fi
if ! L lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1; then
	skip "cannot start a session daemon: $(tail -1 "$work/sessiond.log")"
	tap_done
	exit
fi
sessiond_pid=$(cat "$home/.lttng/lttng-sessiond.pid" 2>/dev/null)
host=$(hostname)

# new_session NAME: a live session recording tnticker:* to the relay
# daemon, started.
new_session() {
	{ L lttng create "$1" --live=100000 \
		--set-url="net://127.0.0.1:$ctrl:$data" &&
	  L lttng enable-event -u -s "$1" 'tnticker:*' &&
	  L lttng start "$1"; } >"$work/lttng.log" 2>&1
}
if ! new_session tn-one; then
	skip "lttng cannot record a live session: $(tail -1 "$work/lttng.log")"
	tap_done
	exit
fi

# The list of sessions, as babeltrace2 gives it.
"$TRACENAV" --dump "$live" >"$work/list.tn" 2>"$work/list.err"
status=$?
babeltrace2 --input-format=lttng-live "$live" >"$work/list.bt" 2>/dev/null
check "the relay daemon's sessions listed as babeltrace2 lists them (exit $status)" \
	eval '[ $status = 0 ] && grep -q "/host/$host/tn-one (timer = 100000," "$work/list.tn" &&
	      cmp -s "$work/list.tn" "$work/list.bt"'

# follow URL OUT: tracenav --dump URL into OUT (stderr OUT.err, exit
# status appended as "exit N"), in the background: $dump_pid.
follow() {
	( "$TRACENAV" --dump "$1" >"$2" 2>"$2.err"; echo "exit $?" >>"$2.err" ) &
	dump_pid=$!
}
lines() {
	wc -l <"$1" | tr -d ' '
}
# The tracenav attached to the session: the relay daemon counts a client.
attached() {
	"$TRACENAV" --dump "$live" 2>/dev/null |
		grep -q "/host/$host/$1 (.* 1 client(s) connected)"
}

url=$live/host/$host/tn-one
follow "$url" "$work/one"
wait_until 100 attached tn-one
COUNT=2000
L "$work/ticker" $COUNT 1000 &
ticker_pid=$!
wait_until 100 eval '[ "$(lines "$work/one")" -gt 0 ]'
running=$(kill -0 "$ticker_pid" 2>/dev/null && echo yes || echo no)
check "events arrive while the program records ($(lines "$work/one") so far, the program still running: $running)" \
	test "$running" = yes -a "$(lines "$work/one")" -gt 0
wait "$ticker_pid"
start_ns=$(date +%s%N)
wait_until 50 eval '[ "$(lines "$work/one")" = $COUNT ]'
ms=$((($(date +%s%N) - start_ns) / 1000000))
check "the newest event follows within the live timer: all $COUNT, $ms ms after the program ended, the session still recording" \
	eval '[ "$(lines "$work/one")" = $COUNT ] && kill -0 "$dump_pid" 2>/dev/null'
L lttng destroy tn-one >/dev/null 2>&1
wait_until 100 eval '! kill -0 "$dump_pid" 2>/dev/null'
check "the session destroyed, tracenav ends: exit 0, nothing on stderr" \
	eval '[ "$(cat "$work/one.err")" = "exit 0" ]'
dump_pid=
sed -n 's/.* { seq = \([0-9]*\) }$/\1/p' "$work/one" >"$work/seqs"
check "every event, each once, in order: seq 0..$((COUNT - 1))" \
	awk -v n=$COUNT 'NR - 1 != $1 { bad = 1 } END { exit bad || NR != n }' \
		"$work/seqs"
one_dir=$(find "$out" -type d -name 'tn-one-*' | head -1)
babeltrace2 "$one_dir" >"$work/one.bt" 2>/dev/null
check "what tracenav printed = babeltrace2's read of the relay daemon's output ($one_dir)" \
	cmp -s "$work/one" "$work/one.bt"
cmp "$work/one" "$work/one.bt" 2>&1 | head -2 | sed 's/^/# /'

# --count stops a live session's dump.
new_session tn-two
"$TRACENAV" --dump --count 5 "$live/host/$host/tn-two" >"$work/two" 2>&1 &
count_pid=$!
wait_until 100 attached tn-two
L "$work/ticker" 50 1000
wait_until 100 eval '! kill -0 "$count_pid" 2>/dev/null'
wait "$count_pid"
status=$?
check "--count 5 on a live session: 5 events, exit $status" \
	eval '[ $status = 0 ] && [ "$(lines "$work/two")" = 5 ]'

# Idle: polling the relay daemon at the session's pace costs next to
# nothing (the issue's bound: 2% of a core).
follow "$live/host/$host/tn-two" "$work/idle"
wait_until 100 attached tn-two
child=$(pgrep -P "$dump_pid" -f tracenav | head -1)
grandchild=$(pgrep -P "$child" | head -1)
worker=${grandchild:-$child}
ticks() {
	awk '{ print $14 + $15 }' "/proc/$worker/stat" 2>/dev/null || echo 0
}
t0=$(ticks)
sleep 3
t1=$(ticks)
hz=$(getconf CLK_TCK)
check "an idle live session costs < 2% of a core ($((t1 - t0)) ticks of $hz a second in 3 s)" \
	test $(((t1 - t0) * 100)) -le $((hz * 3 * 2))

# Errors: one line each, what to do next.
"$TRACENAV" --dump "$live/host/$host/nosuch" >/dev/null 2>"$work/err"
status=$?
check "no such session: one line naming the sessions' list (exit $status)" \
	eval '[ $status = 1 ] && [ "$(lines "$work/err")" = 1 ] &&
	      grep -q "no session nosuch of host $host .*tracenav --dump $live. lists them" "$work/err"'
"$TRACENAV" --dump "net://127.0.0.1:1/host/$host/tn-two" >/dev/null \
	2>"$work/err"
status=$?
check "no relay daemon on the port: said, exit $status" \
	eval '[ $status = 1 ] && grep -q "no relay daemon answers at net://127.0.0.1:1 (is lttng-relayd running" "$work/err"'
"$TRACENAV" --dump "net://127.0.0.1:$lport/host/$host" >/dev/null \
	2>"$work/err"
status=$?
check "a URL of neither form: how it is written, exit $status" \
	eval '[ $status = 2 ] && grep -q "not a live URL: write net://HOST\[:PORT\]" "$work/err"'
"$TRACENAV" "$live/host/$host/tn-two" >/dev/null 2>"$work/err" </dev/null
status=$?
check "the list on a live URL: not yet, says to use --dump (exit $status)" \
	eval '[ $status = 2 ] && grep -q "is read with --dump in this version" "$work/err"'

# The relay daemon killed while tracenav follows: said, what came kept.
L "$work/ticker" 100 1000
wait_until 100 eval '[ "$(lines "$work/idle")" -ge 100 ]'
kill "$relayd_pid"
wait_until 100 eval '! kill -0 "$dump_pid" 2>/dev/null'
relayd_pid=
check "the relay daemon killed: tracenav says so and ends (exit 1), the 100 events received printed" \
	eval 'grep -q "connection failed: .*(100 events received, all printed)" "$work/idle.err" &&
	      tail -1 "$work/idle.err" | grep -qx "exit 1" &&
	      [ "$(lines "$work/idle")" = 100 ]'
head -2 "$work/idle.err" | sed 's/^/# /'
dump_pid=

tap_done
