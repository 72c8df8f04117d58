#!/bin/sh
# test-tui-filter.sh - filters in the event list, through tmux: & opens
# a prompt shown as "&", Enter leaves only the matching events on screen
# (those grep keeps of --dump) and the status bar says "1 filter"; a
# filter that passes nothing says so, and removed brings the list back
# where it was; with
# the index, "match K of M" and NG going to the N-th match, and after a
# pause (the list reads ahead) a page down and up; :filters
# lists them, :filter-toggle and :clear-filters bring every event back;
# a bad regex or expression says where and the list stays as it was;
# and Esc cancels a filter on a big trace without index, the cursor
# staying.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 8192 --hang-every 150 \
	"$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
cp "$TMPDIR_TEST/events" "$TMPDIR_TEST/all"

# Keep in events the lines of the dump that grep -P keeps (smart case:
# RE is lower-case, so -i).
keep() {
	grep -Pi -- "$1" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/kept"
	events_of_dump "$TMPDIR_TEST/kept"
}

# slice_shown NAME COUNT: the first COUNT rows on screen are consecutive
# events of $TMPDIR_TEST/events (wherever the cursor is).
slice_shown() {
	first=$(row "$1" 1)
	at=$(grep -n -m1 -x -F -- "$first" "$TMPDIR_TEST/events" | cut -d: -f1)
	[ -n "$at" ] && same_rows "$1" "$at" "$2"
}

# ---- without the index ----
start list 120 24
wait_for list "$HEADER" >/dev/null
tm send-keys -t list 5 j
tm send-keys -t list '&'
check "&: the prompt shows &" wait_for list '^& *$'
tm send-keys -t list Enter
check "& then Enter on an empty line: every event still listed" \
	wait_until 50 same_rows list 1 20
no_filter_shown() { ! screen list | grep -q ' filters\{0,1\} '; }
check "and no filter is set" no_filter_shown
# A filter that passes nothing says so; removed, the list comes back on
# the event it was on.
here=$(status_time list)
tm send-keys -t list '&'
tm send-keys -t list -l 'zq_no_such_text'
tm send-keys -t list Enter
check "a filter that passes nothing: the list says so" \
	wait_for list '\(no event passes the filters\)'
tm send-keys -t list '&'
tm send-keys -t list Enter
check "removed: the list is back on the event it was on ($here)" \
	wait_status list "$here"
tm send-keys -t list '&'
check "& again: the prompt shows &" wait_for list '^& *$'
tm send-keys -t list -l 'sched_process_hang'
tm send-keys -t list Enter
keep 'sched_process_hang'
check "& RE Enter: only the matching events are listed" \
	wait_until 50 same_rows list 1 20
check "the status bar says 1 filter" wait_for list ' 1 filter '
check "and that the matches are not counted (no index)" \
	shows list 'matches not counted yet'
tm send-keys -t list G
kept=$(wc -l < "$TMPDIR_TEST/events")
check "G: the last matching event" \
	wait_status list "$(sed -n "${kept}p" "$TMPDIR_TEST/events" | cut -d' ' -f1)"
tm send-keys -t list g
check "g: the first one" \
	wait_status list "$(sed -n 1p "$TMPDIR_TEST/events" | cut -d' ' -f1)"
tm send-keys -t list ':filter cpu == 1 && prev_tid >' Enter
check "a bad expression says where" \
	wait_for list 'bad expression: column 23: expected a value after'
check "and the list stays as it was" wait_until 50 same_rows list 1 20
tm send-keys -t list ':filter-out (' Enter
check "a bad regex says where" wait_for list 'bad regex: column 2: missing'
check "and the list stays as it was" wait_until 50 same_rows list 1 20
tm send-keys -t list ':filter cpu == 1' Enter
grep -i 'sched_process_hang: { cpu_id = 1 }' "$TMPDIR_TEST/dump" \
	> "$TMPDIR_TEST/kept"
events_of_dump "$TMPDIR_TEST/kept"
check "a second filter: both apply" wait_until 50 same_rows list 1 10
check "the status bar says 2 filters" wait_for list ' 2 filters '
tm send-keys -t list ':filters' Enter
check ":filters lists them" wait_for list '^ *2 \[x\] filter +cpu == 1'
check ":filters: the first one too" shows list \
	'^ *1 \[x\] filter-in +sched_process_hang'
tm send-keys -t list q
tm send-keys -t list ':filter-toggle 1' Enter
grep 'cpu_id = 1 }' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/kept"
events_of_dump "$TMPDIR_TEST/kept"
check ":filter-toggle 1: only the other one applies" \
	wait_until 50 slice_shown list 20
check "the status bar says 1 filter" wait_for list ' 1 filter '
tm send-keys -t list ':clear-filters' Enter
cp "$TMPDIR_TEST/all" "$TMPDIR_TEST/events"
check ":clear-filters: every event again, the cursor on its event" \
	wait_until 50 same_row_at_cursor list \
	"$(grep -n -m1 'sched_process_hang: { cpu_id = 1 }' \
		"$TMPDIR_TEST/dump" | cut -d: -f1)"
check "the status bar says no filter" wait_until 30 eval \
	"! shows list ' filters? '"
tm send-keys -t list q
check "q: exits 0" wait_exit list 0

# ---- with the index: match K of M, NG ----
start indexed 120 24 "--cache-dir $TMPDIR_TEST/cache"
wait_for indexed 'event 1 of 20000' >/dev/null
tm send-keys -t indexed '&'
tm send-keys -t indexed -l 'sched_process_hang'
tm send-keys -t indexed Enter
keep 'sched_process_hang'
kept=$(wc -l < "$TMPDIR_TEST/events")
check "indexed: match 1 of M ($kept)" \
	wait_for indexed "match 1 of $kept"
tm send-keys -t indexed 1 0 G
check "10G: the 10th match" \
	wait_status indexed "$(sed -n 10p "$TMPDIR_TEST/events" | cut -d' ' -f1)"
check "the status bar says match 10" shows indexed "match 10 of $kept"
# Idle, the list reads its next and previous pages (nobody waits for
# that): Esc then has nothing to cancel and says nothing, and the pages
# show the matches that follow and precede.
sleep 1
tm send-keys -t indexed Escape
check "idle after 10G: Esc says nothing (the reading ahead is nobody's)" \
	wait_until 10 eval "! screen indexed | tail -1 | grep -q cancel"
rows=$(($(screen indexed | wc -l) - 3))	# less the header and two lines
tm send-keys -t indexed NPage
check "a page down after the pause: match $((10 + rows))" \
	wait_for indexed "match $((10 + rows)) of $kept"
check "and its rows are the matches that follow" \
	wait_until 50 slice_shown indexed 5
tm send-keys -t indexed PPage
sleep 1
tm send-keys -t indexed PPage
up=$((10 - rows > 1 ? 10 - rows : 1))
check "two pages up: match $up" wait_for indexed "match $up of $kept"
check "and its rows are the matches that precede" \
	wait_until 50 slice_shown indexed 5
tm send-keys -t indexed ':filter name == "sched_process_hang" && cpu == 2' \
	Enter
grep 'sched_process_hang: { cpu_id = 2 }' "$TMPDIR_TEST/dump" \
	> "$TMPDIR_TEST/kept"
events_of_dump "$TMPDIR_TEST/kept"
kept=$(wc -l < "$TMPDIR_TEST/events")
check "a filter with a field: counted in the background, then match K of $kept" \
	wait_for indexed "match [0-9]+ of $kept"
tm send-keys -t indexed G
check "G: the last match" wait_for indexed "match $kept of $kept"
tm send-keys -t indexed q
check "indexed: exits 0" wait_exit indexed 0

# ---- a slow filter, cancelled ----
big="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 1500000 --cpus 2 --no-index "$big" >/dev/null
dir=$big
start slow 120 24
wait_for slow "$HEADER" >/dev/null
here=$(settled_time slow)
tm send-keys -t slow '&'
tm send-keys -t slow -l 'no such text anywhere'
tm send-keys -t slow Enter
check "a filter that reads far: the status bar says so" \
	wait_for slow 'seeking|counting|Esc cancels'
tm send-keys -t slow Escape
check "Esc cancels it" wait_for slow 'cancel'
check "the cursor stays where it was" wait_status slow "$here"
check "and no filter applies" wait_until 30 eval "! shows slow ' 1 filter '"
tm send-keys -t slow j
check "the keys work again" wait_until 50 eval \
	"[ \"\$(status_time slow)\" != '$here' ]"
tm send-keys -t slow q
check "exits 0" wait_exit slow 0

tap_done
