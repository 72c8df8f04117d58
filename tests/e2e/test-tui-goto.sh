#!/bin/sh
# test-tui-goto.sh - t in the event list, through tmux: it opens the
# prompt with "goto ", and the jump lands where --batch's does (a time
# from the current event, end, begin, a whole pasted babeltrace2 line);
# a bad time says what is wrong and the cursor stays.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"

# The time of day --batch lands on after SCRIPT.
batch_time() {
	"$TRACENAV" --no-cache --batch "$1; print 1" "$dir" 2>/dev/null |
		sed 's/^\[\([^]]*\)\].*/\1/'
}

start goto 100 24
wait_for goto "$HEADER" >/dev/null
tm send-keys -t goto t
check "t: the prompt opens with goto" wait_for goto '^:goto *$'
tm send-keys -t goto '+10ms' Enter
check "t +10ms: where --batch's goto +10ms lands" \
	wait_status goto "$(batch_time 'goto +10ms')"
here=$(status_time goto)
tm send-keys -t goto t '+10qs' Enter
check "t +10qs: says the unit is unknown" \
	wait_for goto 'unknown unit "qs": use s, ms, us or ns'
check "t +10qs: the cursor stays" status_is goto "$here"
tm send-keys -t goto t '-2.5ms' Enter
check "t -2.5ms: back from there" \
	wait_status goto "$(batch_time 'goto +10ms; goto -2.5ms')"
tm send-keys -t goto t
tm send-keys -t goto -l end
tm send-keys -t goto Enter
check "t end: the last event" \
	wait_status goto "$(tail -1 "$TMPDIR_TEST/events" | cut -d' ' -f1)"
tm send-keys -t goto t '+1s' Enter
check "t +1s at the end: says it is after the last event" \
	wait_for goto 'after the last event: at the last event'
tm send-keys -t goto t
tm send-keys -t goto -l begin
tm send-keys -t goto Enter
check "t begin: the first event" \
	wait_status goto "$(head -1 "$TMPDIR_TEST/events" | cut -d' ' -f1)"
# A whole line of babeltrace2 --clock-date pasted after t.
line=$(babeltrace2 --clock-date "$dir" 2>/dev/null | sed -n 7777p)
if [ -n "$line" ]; then
	tm send-keys -t goto t
	tm send-keys -t goto -l "$line"
	tm send-keys -t goto Enter
	check "t, a pasted --clock-date line: its event's time" \
		wait_status goto "$(sed -n 7777p "$TMPDIR_TEST/events" | cut -d' ' -f1)"
else
	skip "babeltrace2 CLI not installed"
fi
tm send-keys -t goto t Escape
check "t, Esc: the prompt closes" wait_until 30 sh -c \
	"! tmux -L '$SOCKET' capture-pane -p -t goto | grep -q '^:goto'"
tm send-keys -t goto q
check "q: exits 0" wait_exit goto 0

tap_done
