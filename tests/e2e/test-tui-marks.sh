#!/bin/sh
# test-tui-marks.sh - marks in the event list, through tmux: m marks the
# selected event (a * in the left column, which shows only while there
# are marks), u and U go from mark to mark and wrap around, :marks lists
# them, and they are there again when the trace is opened again.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
cache="$TMPDIR_TEST/cache"
opts="--no-index --cache-dir '$cache'"
t() {
	event "$1" | cut -d' ' -f1
}

start marks 100 24 "$opts"
wait_for marks "$HEADER" >/dev/null
check "no marks: no gutter (the header starts with Time)" \
	line_is_like marks 1 '^Time '
tm send-keys -t marks m
check "m: says it marked" wait_for marks 'marked \(1 mark'
check "m: a gutter, the row marked with *" line_matches marks 2 "^\*$(t 1) "
check "m: the header moved by the gutter" line_is_like marks 1 '^ Time '
check "m: other rows have a blank gutter" line_is_like marks 3 "^ $(t 2) "
tm send-keys -t marks 5 j m
check "5j m: a second mark, on row 7" line_matches marks 7 "^\*$(t 6) "
tm send-keys -t marks 1 0 0 j m
check "100j m: a third mark" wait_for marks 'marked \(3 marks'
tm send-keys -t marks g u
check "g u: the second mark" wait_status marks "$(t 6)"
tm send-keys -t marks u
check "u: the third" wait_status marks "$(t 106)"
tm send-keys -t marks u
check "u after the last: the first" wait_status marks "$(t 1)"
check "u after the last: says it wrapped" wait_for marks 'wrapped around to the first mark'
tm send-keys -t marks U
check "U before the first: the last" wait_status marks "$(t 106)"
tm send-keys -t marks 2 U
check "2U: two marks back" wait_status marks "$(t 1)"
tm send-keys -t marks : marks Enter
check ":marks: a text view of three lines" wait_for marks '^ marks '
check ":marks: the first mark's line" line_has marks 2 "[$(t 1)]"
check ":marks: the third mark's line" line_has marks 4 "[$(t 106)]"
tm send-keys -t marks q
tm send-keys -t marks 5 j m
check "m on a marked event: unmarked" wait_for marks 'mark removed \(2 marks left\)'
check "m on a marked event: no * any more" line_matches marks 7 "^ $(t 6) "
tm send-keys -t marks q
check "q: exits 0" wait_exit marks 0

start again 100 24 "$opts"
wait_for again "$HEADER" >/dev/null
check "opened again: the first mark is there" line_matches again 2 "^\*$(t 1) "
tm send-keys -t again u
check "opened again: u goes to the other mark" wait_status again "$(t 106)"
tm send-keys -t again : 'unmark all' Enter
check "unmark all: says so" wait_for again '2 marks removed'
check "unmark all: the gutter goes" line_matches again 1 '^Time '
tm send-keys -t again u
check "u without marks: says so" wait_for again 'next-mark: no marks'
tm send-keys -t again q
check "q: exits 0" wait_exit again 0

tap_done
