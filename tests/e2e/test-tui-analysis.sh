#!/bin/sh
# test-tui-analysis.sh - the analysis pane, through tmux: A opens it
# with cputop of the whole trace, whose rows (TID, name) come in the
# order `--batch cputop` prints them (whose figures test-analysis.sh
# checks); Tab then ] shows syscallstats, [ cputop again, t the next
# table, > sorts by the next column (texts ascending, numbers most
# first) and r reverses it; after :range T1
# T2 the pane analyses the range; :analysis irqstats chooses irqstats;
# A closes the pane.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 30000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
cache_opt="--cache-dir '$TMPDIR_TEST/cache'"

# pane NAME: the pane's lines under its title, down to the status bar
# (which starts with the trace's directory name).
pane() {
	screen "$1" | awk -v bar=" ${dir##*/}  " '
		index($0, " Analysis (") == 1 { at = 1; next }
		index($0, bar) == 1 { exit }
		at { print }'
}

pane_has() {
	pane "$1" | grep -q -E -- "$2"
}

# first_tids NAME N: the TID column of the pane's first N rows.
first_tids() {
	pane "$1" | sed -n "3,$(($2 + 2))p" | awk '{ print $1 }'
}

# same_tids NAME FILE: the pane's first 5 rows have the TIDs of FILE's
# first 5 lines.
same_tids() {
	first_tids "$1" 5 > "$TMPDIR_TEST/shown"
	head -5 "$2" | awk '{ print $1 }' | cmp -s - "$TMPDIR_TEST/shown"
}

start an 120 34 "$cache_opt"
wait_for an "$HEADER" >/dev/null
tm send-keys -t an A
check "A: cputop of the whole trace, 30000 events" \
	wait_until 150 pane_has an '^ cputop: CPU time per thread \(1/2\), whole trace, 30000 events'
"$TRACENAV" --batch cputop --cache-dir "$TMPDIR_TEST/cache" "$dir" \
	> "$TMPDIR_TEST/want" 2>/dev/null
check "the rows come as cputop prints them (the first five TIDs)" \
	wait_until 50 same_tids an "$TMPDIR_TEST/want"
check "the column heads, NS sorted most first (v)" \
	pane_has an '^ +TID NAME +NSv +PERCENT$'
name=$(head -1 "$TMPDIR_TEST/want" | awk '{ print $2 }')
check "the first row names its thread ($name) and its share" \
	eval "pane an | sed -n 3p | grep -q -E ' $name .* [0-9]+\.[0-9]{3} [mun]?s +[0-9]+\.[0-9]{2}%$'"

tm send-keys -t an Tab ]
check "Tab ]: syscallstats, per name" \
	wait_until 150 pane_has an '^ syscallstats: System calls per name \(1/2\)'
"$TRACENAV" --batch syscallstats --cache-dir "$TMPDIR_TEST/cache" "$dir" \
	> "$TMPDIR_TEST/sys" 2>/dev/null
read_count=$(awk '$1 == "read" { print $2; exit }' "$TMPDIR_TEST/sys")
check "syscallstats: read, $read_count calls as syscallstats prints" \
	pane_has an "^ read +$read_count "
tm send-keys -t an t
check "t: the table per thread (2/2)" \
	wait_until 50 pane_has an '^ syscallstats: System calls per thread \(2/2\)'
tm send-keys -t an '>'
check "> sorts by the next column (NAME, ascending)" \
	wait_until 50 pane_has an '^ +TID NAME\^ +SYSCALL +COUNT'
tm send-keys -t an '>' '>'
check "> > sorts by COUNT, most first" \
	wait_until 50 pane_has an '^ +TID NAME +SYSCALL +COUNTv'
tm send-keys -t an r
check "r reverses it (^)" wait_until 50 pane_has an 'COUNT\^'
check "r: the fewest calls first" \
	eval "pane an | sed -n 3p | grep -q -E ' (read|openat) +1 '"
tm send-keys -t an '['
check "[: cputop again" \
	wait_until 150 pane_has an '^ cputop: CPU time per thread'
# Keys typed before the pane shows the first one's analysis all count:
# each steps from the one the previous chose.
tm send-keys -t an ] ] ]
check "] ] ] at once: three analyses on, schedtop" \
	wait_until 150 pane_has an '^ schedtop: Wake-up to switch-in latency per thread'
tm send-keys -t an ] ] [ ]
check "] ] [ ] at once: cputop, syscallstats, cputop, syscallstats" \
	wait_until 150 pane_has an '^ syscallstats: System calls per name'
tm send-keys -t an [
check "[: cputop again" \
	wait_until 150 pane_has an '^ cputop: CPU time per thread'

# A range: the pane analyses it.
t1=$(sed -n 5000p "$TMPDIR_TEST/events" | cut -d' ' -f1)
t2=$(sed -n 9000p "$TMPDIR_TEST/events" | cut -d' ' -f1)
tm send-keys -t an : "range $t1 $t2" Enter
wait_for an "events: " >/dev/null
tm send-keys -t an q
check ":range: the pane says range" \
	wait_until 150 pane_has an '^ cputop: CPU time per thread \(1/2\), range 0\.[0-9]+ s, 400[0-9] events'
"$TRACENAV" --batch "range $t1 $t2; cputop" --cache-dir \
	"$TMPDIR_TEST/cache" "$dir" 2>/dev/null | grep -v '^[a-z]*: ' \
	> "$TMPDIR_TEST/want"
check "the range's rows come as range T1 T2; cputop prints them" \
	wait_until 50 same_tids an "$TMPDIR_TEST/want"

tm send-keys -t an : "analysis irqstats" Enter
check ":analysis irqstats: the pane shows irqstats" \
	wait_until 150 pane_has an '^ irqstats: Hard interrupts \(1/2\)'
check "irqstats: the timer irq, named" pane_has an '^ +0 timer '

tm send-keys -t an A
check "A closes the pane" \
	wait_until 50 sh -c "! tmux -L '$SOCKET' capture-pane -p -t an | grep -q ' Analysis ('"
tm send-keys -t an q
check "q: exit 0" wait_exit an 0

tap_done
