#!/bin/sh
# test-tui.sh - the full-screen event list, driven through tmux: what is
# on screen is compared with `tracenav --dump` of the same trace, after
# moves, jumps, text views, the prompt, the mouse, resizes, and the ways
# out (q, SIGTERM, a crash, Ctrl-C) that must leave the terminal as they
# found it.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"

. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC
dir="$TMPDIR_TEST/kernel-trace"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
total=$(wc -l < "$TMPDIR_TEST/dump")
events_of_dump "$TMPDIR_TEST/dump"

first_time=$(event 1 | cut -d' ' -f1)
last_time=$(event "$total" | cut -d' ' -f1)

## 80x24: 21 event rows, a status bar and a message line.
start small 80 24
socket_path=$(tm display -p '#{socket_path}')
rows=21
check "80x24: the header shows the columns" \
	wait_for small "$HEADER"
check "80x24: the first screen shows the first $rows events" \
	wait_until 50 same_rows small 1 $rows
check "80x24: the status bar (line 23) shows the trace and cursor time" \
	line_matches small 23 "^ kernel-trace  $first_time "
check "80x24: a time scrollbar at 0%" wait_for small '\[\|-+\] +0% time'

tm send-keys -t small j j j
check "j j j: the cursor is on the 4th event" \
	wait_status small "$(event 4 | cut -d' ' -f1)"
check "j j j: the view did not scroll" wait_row small 1 "$(event 1)"

tm send-keys -t small NPage
check "PgDn: the first row is the event one page further" \
	wait_row small 1 "$(event $((rows + 1)))"
check "PgDn: the cursor keeps its screen row" \
	wait_status small "$(event $((4 + rows)) | cut -d' ' -f1)"
tm send-keys -t small PPage
check "PgUp: back to the first page" wait_row small 1 "$(event 1)"

tm send-keys -t small G
check "G: the last event is on the last row" \
	wait_row small $rows "$(event "$total")"
check "G: the cursor is on the last event" wait_status small "$last_time"
check "G: the scrollbar is at 100%" wait_for small '=\|\] 100% time'
check "G: the rows above are the events before it" \
	wait_until 50 same_rows small $((total - rows + 1)) $rows
tm send-keys -t small k k
check "k k: up two events, the view stays" \
	wait_status small "$(event $((total - 2)) | cut -d' ' -f1)"

tm send-keys -t small g
check "g: back to the first event" wait_status small "$first_time"

first_row=$(screen small | sed -n 2p)
tm send-keys -t small l
# The time (first 18 columns) stays, the fields move.
check "l: the time and the name stay" line_matches small 2 \
	"^$(echo "$first_row" | cut -c1-18)"
row2_moved() { [ "$(screen small | sed -n 2p)" != "$first_row" ]; }
check "l: the fields scroll left" wait_until 30 row2_moved
tm send-keys -t small h
check "h: and back" wait_until 30 line_starts small 2 "$first_row"

# The mouse, as xterm reports it (SGR): wheel down, then a click on the
# 5th row (terminal line 6).
tm send-keys -t small -l "$(printf '\033[<65;5;5M')"
check "wheel down: the view scrolls 3 events" wait_row small 1 "$(event 4)"
tm send-keys -t small -l "$(printf '\033[<0;5;6M\033[<0;5;6m')"
check "click: selects the row clicked" \
	wait_status small "$(event 8 | cut -d' ' -f1)"
tm send-keys -t small g
wait_status small "$first_time" >/dev/null
# Two clicks at once (lines 4 and 7): the second one's row, whether or
# not the first one's move was shown when it came.
tm send-keys -t small -l "$(printf '\033[<0;5;4M\033[<0;5;4m\033[<0;5;7M\033[<0;5;7m')"
check "two clicks at once: the row clicked second" \
	wait_status small "$(event 6 | cut -d' ' -f1)"
tm send-keys -t small g
wait_status small "$first_time" >/dev/null

tm send-keys -t small 5 0 %
mid=$(($(ns_of_day "$first_time") / 2 + $(ns_of_day "$last_time") / 2))
span=$(($(ns_of_day "$last_time") - $(ns_of_day "$first_time")))
check "50%: the status bar says 50%" wait_for small ' 50% time'
t=$(ns_of_day "$(settled_time small)")
off=$((t > mid ? t - mid : mid - t))
check "50%: the cursor time is near the middle ($off ns from it)" \
	[ $((off * 100)) -lt $((span * 2)) ]

tm send-keys -t small g Enter
field=$(sed -n 1p "$TMPDIR_TEST/dump" | sed 's/.*}, { \([a-z_]*\) = .*/\1/')
check "Enter: a text view titled detail" wait_for small '^ detail '
check "Enter: the first event's payload field '$field' is shown" \
	wait_for small "^ +$field = "
tm send-keys -t small Escape
check "Esc closes the detail view" wait_for small "$HEADER"

tm send-keys -t small '?'
check "?: the help opens" wait_for small '^ help +lines 1-'
# Page through the help (its title says which lines are shown) to its
# end, where the title stops changing.
screen small > "$TMPDIR_TEST/help"
for _ in $(seq 1 30); do
	title=$(screen small | head -1)
	tm send-keys -t small Space
	i=0
	while [ $i -lt 20 ] && [ "$(screen small | head -1)" = "$title" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(screen small | head -1)" = "$title" ] && break
	screen small >> "$TMPDIR_TEST/help"
done
check "?: the help lists the keys" \
	grep -q 'PgDn, Space, f, Ctrl-F' "$TMPDIR_TEST/help"
check "?: the help names pgdn" grep -q 'pgdn' "$TMPDIR_TEST/help"
missing=
# The names, without the [!] of a command that takes one (write[!]).
for name in $("$TRACENAV" --batch help "$dir" |
		awk '{ sub(/\[!\]$/, "", $1); print $1 }'); do
	grep -q -E "^  $name(\[!\])?( |$)" "$TMPDIR_TEST/help" ||
		missing="$missing $name"
done
check "?: the help lists every command of the table" [ -z "$missing" ]
[ -n "$missing" ] && diag "missing:$missing"
man_missing=
sed -n '/^\.SH COMMANDS/,/^\.SH [^C]/p' "$top_srcdir/doc/tracenav.1" \
	> "$TMPDIR_TEST/man-commands"
for name in $("$TRACENAV" --batch help "$dir" |
		awk '{ sub(/\[!\]$/, "", $1); print $1 }'); do
	grep -q -E "^\\\\fB$name\\\\fR(\[\\\\fB!\\\\fR\])?( |$)" \
		"$TMPDIR_TEST/man-commands" ||
		man_missing="$man_missing $name"
done
check "the man page lists every command of the table" [ -z "$man_missing" ]

## The checkpoint index: built in the background, then event numbers.
cache="$TMPDIR_TEST/cache"
start indexed 80 24 "--cache-dir '$cache'"
check "index: the status bar turns to event numbers" \
	wait_for indexed "event 1 of $total .*0% rank"
tm send-keys -t indexed G
check "index: G shows the last event number" \
	wait_for indexed "event $total of $total .*100% rank"
tm send-keys -t indexed : 'goto #500' Enter
check "index: goto #500 shows event 500" wait_for indexed "event 500 of $total"
check "index: the list shows event 500 of --dump" \
	same_row_at_cursor indexed 500
tm send-keys -t indexed 1 2 3 G
check "index: 123G goes to event 123" wait_for indexed "event 123 of $total"
check "index: the list shows event 123 of --dump" \
	same_row_at_cursor indexed 123
check "index: saved in the cache directory" \
	sh -c "ls '$cache'/*.index >/dev/null 2>&1"
tm send-keys -t indexed q
wait_exit indexed 0 >/dev/null
start cached 140 24 "--cache-dir '$cache'"
check "index: reopening uses the cache at once" \
	wait_for cached "event 1 of $total"
check "index: the status bar keeps the events' time range" \
	wait_for cached "event 1 of $total +$first_time - $last_time "
tm send-keys -t cached 5 0 %
check "index: 50% is the middle of the events' span (about 50% rank)" \
	wait_for cached ' (49|50|51)% rank'
tm send-keys -t cached q
[ -n "$man_missing" ] && diag "missing from doc/tracenav.1:$man_missing"
tm send-keys -t small q
check "q closes the help" wait_for small "$HEADER"

tm send-keys -t small : d o w n Space 5 Enter
check ":down 5 moves five events" \
	wait_status small "$(event 6 | cut -d' ' -f1)"
tm send-keys -t small : b o g u s Enter
check ":bogus: the message line names the error" \
	wait_for small 'unknown command "bogus"'
check ":bogus: the position is kept" \
	wait_status small "$(event 6 | cut -d' ' -f1)"
tm send-keys -t small : b o t Tab X
check "Tab completes a command name" wait_for small '^:bottom X'
tm send-keys -t small C-u p g Tab Tab
check "Tab lists the choices" wait_for small 'choices: pgdn pgup'
tm send-keys -t small Escape
check "Esc leaves the prompt, the list stays" \
	wait_status small "$(event 6 | cut -d' ' -f1)"

tm resize-window -t small -x 100 -y 30
check "resize to 100x30: the status bar moves to line 29" \
	line_matches small 29 '% time *$'
check "resize to 100x30: 27 event rows" wait_row small 27 "$(event 27)"
tm resize-window -t small -x 20 -y 5
check "resize to 20x5: still drawn" wait_for small '^Time'
tm resize-window -t small -x 12 -y 3
check "resize to 12x3: says it is too small" wait_for small 'too small'
tm resize-window -t small -x 80 -y 24
check "resize back to 80x24: the list is back" wait_for small "$HEADER"

tm send-keys -t small q
check "q: tracenav exits with status 0" wait_exit small 0
check "q: the terminal is canonical again" wait_for small '^STTY=icanon$'
check "q: the screen of the list is gone" list_gone small

## 200x60: wider columns, the time range in the status bar.
start big 200 60
wait_for big '^Time' >/dev/null
check "200x60: the first screen shows the first 57 events" \
	wait_until 50 same_rows big 1 57
# The packet context (cpu_id) has its own column, so the fields column
# starts with the payload.
fields=$(sed -n 1p "$TMPDIR_TEST/dump" | sed 's/^[^{]*{ cpu_id = [0-9]* }, //' | cut -c1-60)
check "200x60: the fields column shows the payload, not cpu_id again" \
	line_has big 2 "$fields"
check "200x60: the status bar shows the time range" \
	wait_for big "$first_time - $last_time"
tm send-keys -t big s d
check "s: the state tree pane" wait_for big 'State tree'
check "d: the sequence diagram pane" wait_for big 'Sequence diagram'
pid=$(tracenav_pid big)
[ -n "$pid" ] && kill -TERM "$pid"
check "SIGTERM: tracenav exits with status 143" wait_exit big 143
check "SIGTERM: the terminal is canonical again" wait_for big '^STTY=icanon$'

## A crash (here a SIGSEGV sent from outside) restores the terminal too.
## In a sanitizer build, the sanitizer does not report it: it is no bug.
TEST_ENV="TSAN_OPTIONS='${TSAN_OPTIONS:-}:handle_segv=0' ASAN_OPTIONS='${ASAN_OPTIONS:-}:handle_segv=0'"
start crash 80 24
TEST_ENV=
wait_for crash '^Time' >/dev/null
pid=$(tracenav_pid crash)
[ -n "$pid" ] && kill -SEGV "$pid"
check "SIGSEGV: tracenav dies" wait_until 300 shows crash '^EXIT=[1-9]'
check "SIGSEGV: the terminal is canonical again" \
	wait_for crash '^STTY=icanon$'
check "SIGSEGV: the screen of the list is gone" list_gone crash

## Ctrl-C
start intr 80 24
wait_for intr '^Time' >/dev/null
tm send-keys -t intr C-c
check "Ctrl-C: tracenav exits with status 130" wait_exit intr 130
check "Ctrl-C: the terminal is canonical again" wait_for intr '^STTY=icanon$'

tap_done
