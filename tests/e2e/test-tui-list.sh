#!/bin/sh
# test-tui-list.sh - the event list as users meet it, through tmux:
# copying an event (OSC 52), print's whole lines, the detail view that
# steps, the columns (payload before contexts, at least 40 columns of
# fields at 80), escaped bidirectional controls, a monochrome terminal,
# the focus, a cancelled index that stays cancelled, and slow seeks that
# neither freeze the screen nor lose keys (Esc cancels, keys typed
# meanwhile are merged).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

kernel="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$kernel" >/dev/null
"$TRACENAV" --dump "$kernel" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
dir=$kernel

## y: the current event's --dump line to the clipboard, through tmux.
start copy 80 24
socket_path=$(tm display -p '#{socket_path}')
tm set -g set-clipboard on
wait_for copy "$HEADER" >/dev/null
tm send-keys -t copy j y
check "y: says it copied" wait_for copy 'copied the event.s line'
buffer_is() {
	[ "$(tm show-buffer 2>/dev/null)" = "$1" ]
}
check "y: tmux's buffer holds event 2's --dump line" \
	wait_until 30 buffer_is "$(sed -n 2p "$TMPDIR_TEST/dump")"

## :print shows whole lines, scrolled sideways.
tm send-keys -t copy g : 'print 3' Enter
check ":print: a text view" wait_for copy '^ print .*h l scroll sideways'
# The start of each line (its time, delta, host and name are ASCII).
check ":print: a line is not wrapped (cut at the edge)" \
	line_has copy 3 "$(sed -n 2p "$TMPDIR_TEST/dump" | cut -c1-50)"
check ":print: the next line is the next event" \
	line_has copy 4 "$(sed -n 3p "$TMPDIR_TEST/dump" | cut -c1-50)"
tm send-keys -t copy l
check ":print: l scrolls sideways (half a screen)" wait_until 30 \
	line_starts copy 2 "$(sed -n 1p "$TMPDIR_TEST/dump" | cut -c41-60)"
tm send-keys -t copy q

## The detail view steps with J and K.
tm send-keys -t copy g Enter
t1=$(sed -n 1p "$TMPDIR_TEST/events" | cut -d' ' -f1)
t2=$(sed -n 2p "$TMPDIR_TEST/events" | cut -d' ' -f1)
check "Enter: the detail of event 1" wait_for copy "^time: .* $t1 "
tm send-keys -t copy J
check "J: the detail of event 2, the view still open" \
	wait_for copy "^time: .* $t2 "
tm send-keys -t copy K
check "K: back to event 1" wait_for copy "^time: .* $t1 "
tm send-keys -t copy q
check "q: the list again, on event 1" wait_status copy "$t1"

## Bidirectional controls typed at the prompt are shown escaped.
tm send-keys -t copy :
tm send-keys -t copy -l "$(printf 'a\342\200\256bc')"
check "prompt: U+202E is shown as \\u202E" wait_for copy '^:a\\u202Ebc'
tm send-keys -t copy Escape

## The focus: Tab to the state pane; keys it does not take go on to the
## list (j is the pane's, Ctrl-N is not); + widens it.
tm send-keys -t copy s Tab C-n
check "Tab, Ctrl-N: the list still moves" wait_status copy "$t2"
# Where the state pane's title starts on the first line.
pane_at() {
	screen copy | head -1 | awk '{ print index($0, " State tree") }'
}
pane_is_at() {
	[ "$(pane_at)" = "$1" ]
}
bar=$(pane_at)
tm send-keys -t copy +
check "+: the focused state pane is 2 columns wider" \
	wait_until 30 pane_is_at "$((bar - 2))"
tm send-keys -t copy s q
check "q: exits 0" wait_exit copy 0

## Bidirectional controls in the trace's strings (gen-trace puts U+202E
## in an openat file name, U+2067..U+2069 in an exec file name) are
## shown escaped in the list and in the detail view, never raw: printed
## raw, they would make the terminal reorder what follows them.
# raw_bidi NAME: the screen holds an unescaped override or isolate
# (U+202A..U+202E, U+2066..U+2069; their UTF-8 bytes).
raw_bidi() {
	screen "$1" | LC_ALL=C grep -q -e "$(printf '\342\200[\252-\256]')" \
		-e "$(printf '\342\201[\246-\251]')"
}
no_raw_bidi() {
	! raw_bidi "$1"
}
# dump_line TEXT: the number of the first --dump line holding TEXT.
dump_line() {
	LC_ALL=C grep -n -m1 -F -- "$1" "$TMPDIR_TEST/dump" | cut -d: -f1
}
# goto_event NAME K TIME: ":goto TIME" (event K's time), then down to
# event K if events before it share its time (goto lands on the first).
goto_event() {
	tm send-keys -t "$1" : "goto $3" Enter
	ev_first=$(grep -n -m1 "^$(event "$2" | cut -d' ' -f1) " "$TMPDIR_TEST/events" |
		cut -d: -f1)
	wait_status "$1" "$(event "$2" | cut -d' ' -f1)" || return 1
	while [ "$ev_first" -lt "$2" ]; do
		tm send-keys -t "$1" j
		ev_first=$((ev_first + 1))
	done
}
rlo=$(printf '\342\200\256')
rli=$(printf '\342\201\247')
pdi=$(printf '\342\201\251')
k=$(dump_line "filename = \"/tmp/${rlo}exe.txt\"")
tod=$(event "$k" | cut -d' ' -f1)
# The seconds form of its time (gen-trace's default --start, 1700000000,
# is on 2023-11-14 UTC; the trace lasts less than a second).
sec=$(date -u -d "2023-11-14 ${tod%.*}" +%s).${tod#*.}
start bidi 120 24
wait_for bidi "$HEADER" >/dev/null
check ":goto $sec: the first event with U+202E (#$k)" goto_event bidi "$k" "$sec"
check "the list shows it as \\u202E" \
	wait_for bidi '^'"$tod"' .* syscall_entry_openat +\{ dfd = -?[0-9]+, filename = "/tmp/\\u202Eexe\.txt"'
check "the list shows no raw bidirectional control" no_raw_bidi bidi
tm send-keys -t bidi Enter
check "Enter: the detail of that event" wait_for bidi "^time: .* $tod "
check "Enter: the detail shows \\u202E" \
	wait_for bidi '^  filename = "/tmp/\\u202Eexe\.txt"$'
check "Enter: no raw bidirectional control" no_raw_bidi bidi
tm send-keys -t bidi q
k=$(dump_line "filename = \"/usr/bin/${rli}run${pdi}\"")
tod=$(event "$k" | cut -d' ' -f1)
check ":goto $tod: the first exec with U+2067, U+2069 (#$k)" \
	goto_event bidi "$k" "$tod"
check "the list shows them as \\u2067 and \\u2069" \
	wait_for bidi '^'"$tod"' .* sched_process_exec +\{ filename = "/usr/bin/\\u2067run\\u2069"'
check "the list shows no raw bidirectional control" no_raw_bidi bidi
tm send-keys -t bidi q
check "q: exits 0" wait_exit bidi 0

## No colours: NO_COLOR, and a terminal without them.
TEST_TERM=vt100
TEST_ENV="NO_COLOR=1"
start mono 80 24
TEST_TERM=
TEST_ENV=
check "vt100 and NO_COLOR: the list is drawn" wait_for mono "$HEADER"
check "vt100 and NO_COLOR: the first events" \
	wait_until 50 same_rows mono 1 21
tm send-keys -t mono q

## The columns: payload first, contexts dimmed after it (c hides them),
## a host column for several hosts, 40 columns of fields at 80.
both="$TMPDIR_TEST/both"
"$GEN_TRACE" --events 5000 --domain ust --traces 2 "$both" >/dev/null
dir=$both
start cols 80 24
check "several hosts: a Host column" wait_for cols '^Time +Host +CPU +Event +Fields'
at=$(screen cols | head -1 | awk '{ print index($0, "Fields") }')
check "80 columns: the fields start by column 41 (at $at)" [ "$at" -le 41 ]
check "the payload comes first" line_matches cols 2 ' \{ sender = '
tm resize-window -t cols -x 250 -y 24
check "then the contexts" line_matches cols 2 'seq = [0-9]+ \}, \{ vpid = '
tm send-keys -t cols c
check "c: contexts hidden" wait_for cols 'Fields \(c: contexts hidden\)'
check "c: no vpid on the row" sh -c "! tmux -L '$SOCKET' capture-pane -p \
	-t cols | sed -n 2p | grep -q vpid"
tm send-keys -t cols q

## Slow seeks (a trace without packet index, not indexed: a jump reads
## from the start) do not freeze the list: Esc cancels, and keys typed
## meanwhile run after it, merged.
slow="$TMPDIR_TEST/slow"
"$GEN_TRACE" --events 1500000 --cpus 2 --no-index "$slow" >/dev/null
dir=$slow
first=$("$TRACENAV" --dump --count 1 "$slow" | sed 's/^\[\([^]]*\)\].*/\1/')
start slow 80 24
wait_for slow "$HEADER" >/dev/null
tm send-keys -t slow : 'goto 90%' Enter
check "a slow jump: the status bar says seeking" wait_for slow 'seeking\.\.\.'
tm send-keys -t slow Escape
check "Esc: cancelled" wait_for slow 'cancelled'
check "Esc: the cursor stayed on the first event" wait_status slow "$first"
want=$("$TRACENAV" --batch 'goto 90%; down 105; print 1' "$slow" |
	sed 's/^\[\([^]]*\)\].*/\1/')
tm send-keys -t slow : 'goto 90%' Enter
wait_for slow 'seeking\.\.\.' >/dev/null
tm send-keys -t slow NPage NPage NPage NPage NPage
check "five PgDn typed during the jump: five pages after it" \
	wait_status slow "$want" 300
tm send-keys -t slow q
check "q: exits 0" wait_exit slow 0

## A cancelled index stays cancelled until :index.
cache="$TMPDIR_TEST/cache"
start cancel 80 24 "--cache-dir '$cache'"
wait_for cancel 'indexing' >/dev/null
tm send-keys -t cancel : 'index cancel' Enter
check "index cancel: says so" wait_for cancel 'indexing cancelled'
tm send-keys -t cancel 5 0 0 G
check "500G after a cancel: says the build was cancelled" \
	wait_for cancel 'build was cancelled: :index builds it'
sleep 0.5
check "500G after a cancel: no build started" \
	sh -c "! tmux -L '$SOCKET' capture-pane -p -t cancel | grep -q indexing"
tm send-keys -t cancel : index Enter
check ":index builds it again" wait_until 300 shows cancel 'event 1 of 1500000'
tm send-keys -t cancel q

tap_done
