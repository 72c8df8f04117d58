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
# session, port or URL said in one line; --batch and the event list on a
# live session (its copy through tracenav's own viewer equal to the relay
# daemon's output, follow mode in tmux: the newest event, a held
# position counting the new ones, F, the end of the session said, the
# private copy removed at the end).  Skipped, saying why, without
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
	tmux -S "$work/tmux" kill-server 2>/dev/null
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
# idle_ticks PID: the CPU ticks (user and system) process PID takes in
# 3 s (hz ticks make a second of one core).
hz=$(getconf CLK_TCK)
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
idle_ticks() {
	before=$(cpu_ticks "$1")
	sleep 3
	echo $(($(cpu_ticks "$1") - before))
}
# same_as_relayd COPY SESSION EVENTS WHAT: check that babeltrace2 reads
# the copy COPY as it reads the relay daemon's output of SESSION, EVENTS
# events (files COPY.bt, COPY.relayd).
same_as_relayd() {
	copy=$1 events=$3
	relayd_dir=$(find "$out" -type d -name "$2-*" | head -1)
	babeltrace2 "$copy" >"$copy.bt" 2>/dev/null
	babeltrace2 "$relayd_dir" >"$copy.relayd" 2>/dev/null
	check "$4 = the relay daemon's output, read by babeltrace2 ($(lines "$copy.bt") events)" \
		eval '[ "$(lines "$copy.bt")" = "$events" ] &&
		      cmp -s "$copy.bt" "$copy.relayd"'
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

# --batch on a live session: copied as it records (its own viewer of
# the relay daemon's protocol), the script run once it ended; the copy
# (--live-dir) reads as the relay daemon's own output does.
new_session tn-copy
copy_url=$live/host/$host/tn-copy
( "$TRACENAV" --live-dir "$work/copy" --batch 'goto 100%; print 1' \
	"$copy_url" >"$work/copy.out" 2>"$work/copy.err"
  echo "exit $?" >>"$work/copy.err" ) &
copy_pid=$!
wait_until 100 attached tn-copy
L "$work/ticker" 300 1000
L lttng destroy tn-copy >/dev/null 2>&1
wait_until 100 eval '! kill -0 "$copy_pid" 2>/dev/null'
check "--batch on a live session runs once the session ended (exit 0, its last event seq 299)" \
	eval '[ "$(cat "$work/copy.err")" = "exit 0" ] &&
	      grep -q "seq = 299 }$" "$work/copy.out"'
same_as_relayd "$work/copy" tn-copy 300 "the copy (--live-dir)"
check "the copy has LTTng's packet indexes (index/*.idx)" \
	eval '[ -n "$(find "$work/copy" -path "*/index/*.idx" | head -1)" ]'

# The event list on a live session, in tmux: follow mode on, the newest
# event in view as events come, the position held after a move up
# (the new ones counted), F back to the end, the end of the session
# said; its private copy gone once tracenav quits.
if command -v tmux >/dev/null 2>&1; then
	sock=$work/tmux
	run=$work/run
	mkdir -m 700 "$run"
	tmx() { tmux -S "$sock" -f /dev/null "$@"; }
	pane() { tmx capture-pane -p -t tui; }
	shows() { pane | grep -q -E -- "$1"; }
	new_session tn-tui
	tmx new-session -d -s tui -x 100 -y 24 \
		"TERM=xterm XDG_RUNTIME_DIR=$run TZ=UTC '$TRACENAV' '$live/host/$host/tn-tui'; echo EXIT=\$?; exec sleep 600"
	wait_until 100 attached tn-tui
	L "$work/ticker" 200 1000
	wait_until 100 shows 'seq = 199 }'
	check "the list opens the live session in follow mode: its name, the newest event in view" \
		eval 'shows "tn-tui \(live\).*following" &&
		      pane | grep "seq = " | tail -1 | grep -q "seq = 199 }"'
	# Once indexed (the count of new events needs the index).
	wait_until 100 shows 'event 200 of 200'
	tmx send-keys -t tui k k k
	wait_until 50 shows 'held \(F follows\)'
	L "$work/ticker" 50 1000
	wait_until 100 shows ' 50 new \(F\)'
	check "moved up: the position holds, the 50 new events counted" \
		eval 'shows " 50 new \(F\)" && ! pane | grep -q "seq = 49 }"'
	tmx send-keys -t tui F
	wait_until 50 shows 'seq = 49 }'
	check "F: back to the newest event" \
		eval 'pane | grep "seq = " | tail -1 | grep -q "seq = 49 }" &&
		      shows "following"'
	# Idle, following: the list and its copy cost next to nothing.
	# The newest tracenav of that URL: the one that reads it (tracenav
	# runs its work in a child).
	tui_pid=$(for p in $(pgrep -f "/host/$host/tn-tui"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = tracenav ] && echo "$p"
	done | tail -1)
	used=$(idle_ticks "$tui_pid")
	check "the list following an idle live session costs < 2% of a core ($used ticks of $hz a second in 3 s)" \
		eval '[ -n "$tui_pid" ] && [ $((used * 100)) -le $((hz * 3 * 2)) ]'
	L lttng destroy tn-tui >/dev/null 2>&1
	wait_until 100 shows 'live session ended'
	ended() {
		shows "the live session ended: all it recorded is here to browse" &&
			shows "ended" && shows "event 250 of 250"
	}
	check "the session destroyed: said, all of it still there" ended
	ended || pane | tail -3 | sed "s/^/# /"
	tmx send-keys -t tui q
	wait_until 50 shows '^EXIT=0$'
	check "q quits (exit 0), the session's private copy removed" \
		eval 'shows "^EXIT=0\$" && [ -z "$(ls -A "$run/tracenav" 2>/dev/null)" ]'
	tmx kill-server 2>/dev/null
else
	skip "tmux is not installed: the event list on a live session"
fi

# The connection broken (a proxy between tracenav and the relay daemon,
# killed: as when the network drops): "disconnected", what came stays;
# the proxy back, :reload connects again and the copy goes on where it
# stopped: every event once, the copy (--live-dir) equal to the relay
# daemon's output.
if command -v tmux >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	sock=$work/tmux
	tmx() { tmux -S "$sock" -f /dev/null "$@"; }
	pane() { tmx capture-pane -p -t net; }
	shows() { pane | grep -q -E -- "$1"; }
	proxy_pid=
	start_proxy() {
		python3 "$top_srcdir/tests/tcp-proxy.py" "$pport" "$lport" \
			>"$work/proxy.out" 2>&1 &
		proxy_pid=$!
		wait_until 50 eval 'grep -q ready "$work/proxy.out" ||
			! kill -0 "$proxy_pid" 2>/dev/null'
		grep -q ready "$work/proxy.out"
	}
	for try in 1 2 3 4 5; do
		pport=$(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 10000 + 50000))
		start_proxy && break
		proxy_pid=
	done
	new_session tn-net
	tmx new-session -d -s net -x 100 -y 24 \
		"TERM=xterm TZ=UTC '$TRACENAV' --live-dir '$work/net' 'net://127.0.0.1:$pport/host/$host/tn-net'; echo EXIT=\$?; exec sleep 600"
	wait_until 100 attached tn-net
	L "$work/ticker" 100 1000
	wait_until 100 shows 'event 100 of 100'
	kill "$proxy_pid"
	wait "$proxy_pid" 2>/dev/null
	wait_until 100 shows 'disconnected'
	check "the connection broken: disconnected, :reload said, the 100 events kept" \
		eval 'shows "disconnected \(:reload\)" && shows "event 100 of 100" &&
		      shows "disconnected, what came stays \(:reload connects again\)"'
	shows ":reload connects again" || pane | tail -3 | sed "s/^/# /"
	L "$work/ticker" 100 1000
	start_proxy
	tmx send-keys -t net : reload Enter
	wait_until 100 shows 'event 200 of 200'
	check ":reload connects again: the 100 events recorded meanwhile come, none twice" \
		eval 'shows "event 200 of 200" && shows "following" &&
		      ! shows "disconnected"'
	L lttng destroy tn-net >/dev/null 2>&1
	wait_until 100 shows 'live session ended'
	same_as_relayd "$work/net" tn-net 200 "after the reconnect, the copy"
	tmx send-keys -t net q
	wait_until 50 shows '^EXIT=0$'
	tmx kill-server 2>/dev/null
	kill "$proxy_pid" 2>/dev/null
else
	skip "tmux or python3 is not installed: a broken connection and :reload"
fi

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
used=$(idle_ticks "$worker")
check "an idle live session costs < 2% of a core ($used ticks of $hz a second in 3 s)" \
	test $((used * 100)) -le $((hz * 3 * 2))

# Errors: one line each, what to do next.
"$TRACENAV" --dump "$live/host/$host/nosuch" >/dev/null 2>"$work/err"
status=$?
check "no such session: one line naming the sessions' list (exit $status)" \
	eval '[ $status = 1 ] && [ "$(lines "$work/err")" = 1 ] &&
	      grep -q "no session nosuch of host $host .*tracenav --dump $live. lists them" "$work/err"'
"$TRACENAV" --batch where "$live/host/$host/nosuch" >/dev/null 2>"$work/err"
status=$?
check "--batch on no such session: the same line, through tracenav's own viewer (exit $status)" \
	eval '[ $status = 1 ] && [ "$(lines "$work/err")" = 1 ] &&
	      grep -q "no session nosuch of host $host (it has .*/tn-two.*tracenav --dump $live. lists them)" "$work/err"'
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
"$TRACENAV" --info "$live/host/$host/tn-two" >/dev/null 2>"$work/err"
status=$?
check "--info on a live URL: says what reads it (exit $status)" \
	eval '[ $status = 2 ] && grep -q "reads trace directories; a live session opens in the event list" "$work/err"'
new_session tn-three
"$TRACENAV" --batch where "$live" >/dev/null 2>"$work/err"
status=$?
check "--batch on a relay daemon of several sessions: lists them, asks to name one (exit $status)" \
	eval '[ $status = 1 ] && grep -q "has [0-9]* sessions:" "$work/err" &&
	      grep -q "/host/$host/tn-two (timer = 100000 us" "$work/err" &&
	      grep -q "name one of them" "$work/err"'

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
