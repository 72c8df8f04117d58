#!/bin/sh
# test-tui-timeline.sh - the timeline panes, through tmux: T opens the
# threads pane, whose rows are the lines `--batch 'timeline threads N
# tree'` prints for its width (whose figures test-timeline.sh checks);
# Space folds a thread's children away, * shows them again, t makes a
# flat list (`timeline threads N`'s lines); C the
# CPUs pane (the CPUs, then a row per irq and softirq vector), the same
# for `timeline cpus N names` (the running threads' names over a CPU's
# letters); in the pane, z zooms in
# and w shows the whole trace again, / finds a row, Enter moves the list
# to the row's thread's first event from the current event's column, f
# filters the list on it, o sorts the rows by name; both panes on an
# 80x24 screen; without the index the pane reads the span partially,
# then the exact rows once :index built it; a trace without scheduling
# events says so.
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

# pane NAME TITLE: the pane's lines under its title line (which starts
# with " TITLE"), down to the next pane's title or the status bar.
pane() {
	screen "$1" | awk -v title=" $2" -v bar=" ${dir##*/}  " '
		index($0, bar) == 1 { exit }
		at && /^ [A-Z][a-z]+: .* \([A-Z] hides\)$/ { exit }
		index($0, title) == 1 { at = 1; next }
		at { print }'
}

pane_has() {
	pane "$1" "$2" | grep -q -E -- "$3"
}

# same_grid NAME TITLE FILE: the pane's rows (the line of the current
# event's column, |, taken for the . it stands on) are FILE's first
# lines.
same_grid() {
	pane "$1" "$2" | sed 1d | sed 's/^ //; s/|/./' | grep -v '^ *$' \
		> "$TMPDIR_TEST/shown"
	n=$(wc -l < "$TMPDIR_TEST/shown")
	[ "$n" -gt 0 ] && head -"$n" "$3" | cmp -s - "$TMPDIR_TEST/shown"
}

start tl 110 34 "$cache_opt"
wait_for tl "$HEADER" >/dev/null
check "the index is built (the timelines need it)" \
	wait_until 150 shows tl "event 1 of 30000"
tm send-keys -t tl T
check "T: the threads pane, the whole trace" \
	wait_until 150 pane_has tl Threads '^ [0-9]+ threads, 22:13:20\.[0-9]+ - 22:13:20\.[0-9]+ \(0\.[0-9]+ s, [0-9.]+ s a column\)$'
# 110 columns: the frame's 2, the labels' 25, a bucket a column.
"$TRACENAV" --batch 'timeline threads 83 tree' --cache-dir "$TMPDIR_TEST/cache" \
	"$dir" > "$TMPDIR_TEST/threads" 2>/dev/null
check "its rows are timeline threads 83's lines" \
	wait_until 50 same_grid tl Threads "$TMPDIR_TEST/threads"

tm send-keys -t tl Tab z
check "Tab z: zoomed in" wait_until 150 pane_has tl Threads 'zoomed, w: all$'
tm send-keys -t tl w
check "w: the whole trace again" \
	wait_until 150 sh -c "! tmux -L '$SOCKET' capture-pane -p -t tl | grep -q 'zoomed, w: all'"
check "... the same rows" wait_until 50 same_grid tl Threads \
	"$TMPDIR_TEST/threads"

# The process tree: Space folds the first thread (+), its threads go;
# * shows them again; t makes a flat list (timeline threads 83's lines)
# and back.  The thread after the first one's subtree: the next line
# at depth 0 (its name right after the mark's column).
next_root=$(awk 'NR > 1 && substr($0, 10, 1) != " " &&
	substr($0, 10, 1) !~ /[-+]/ && substr($0, 9, 1) ~ /[-+ ]/ {
		print $1; exit }' "$TMPDIR_TEST/threads")
first_is_parent() {
	pane tl Threads | sed -n 2p | grep -q -E "^ $(head -1 \
		"$TMPDIR_TEST/threads" | cut -d' ' -f1) +\\$1"
}
check "the first thread has threads under it (-)" first_is_parent -
tm send-keys -t tl Space
check "Space: folded (+)" wait_until 50 first_is_parent +
check "... the next row is the next process tree's ($next_root)" \
	wait_until 50 sh -c "tmux -L '$SOCKET' capture-pane -p -t tl |
		grep -A2 ' threads, ' | tail -1 | grep -q -E '^ $next_root '"
tm send-keys -t tl '*'
check "*: every thread again, the same rows" wait_until 50 same_grid tl \
	Threads "$TMPDIR_TEST/threads"
"$TRACENAV" --batch 'timeline threads 83' --cache-dir "$TMPDIR_TEST/cache" \
	"$dir" > "$TMPDIR_TEST/flat" 2>/dev/null
tm send-keys -t tl t
check "t: a flat list, timeline threads 83's lines" wait_until 50 \
	same_grid tl Threads "$TMPDIR_TEST/flat"
tm send-keys -t tl t
check "t: the tree again" wait_until 50 same_grid tl Threads \
	"$TMPDIR_TEST/threads"

# v: the columns of the selection being made are underlined (from the
# current event's, the first, to the middle's), not once it is gone.
# underlined_cols: the columns (0-based, on the screen) drawn underlined
# on the line under the threads pane's summary.
underlined_cols() {
	tm capture-pane -e -p -t tl | awk '
		{ plain = $0; gsub(/\033\[[0-9;]*m/, "", plain) }
		at { print; exit }
		plain ~ /^ [0-9]+ threads, / { at = 1 }' | underlined_columns
}
# The grid's first column: after the frame's and the label's 26.
from_first_to_middle() {
	underlined_cols > "$TMPDIR_TEST/under"
	first=$(head -1 "$TMPDIR_TEST/under")
	last=$(tail -1 "$TMPDIR_TEST/under")
	n=$(wc -l < "$TMPDIR_TEST/under")
	[ "$first" = 26 ] && [ "$n" -eq $((last - first + 1)) ] &&
		[ "$last" -ge $((26 + 35)) ] && [ "$last" -le $((26 + 48)) ]
}
tm send-keys -t tl Tab v : 'goto 50%' Enter
check "v: the selection's columns underlined, the first to the middle" \
	wait_until 100 from_first_to_middle
tm send-keys -t tl Escape
check "Esc: the selection gone, nothing underlined" \
	wait_until 50 eval '[ -z "$(underlined_cols)" ]'
tm send-keys -t tl g
check "g: the list on the first event again" \
	wait_status tl "$(event 1 | cut -d' ' -f1)" 150
tm send-keys -t tl Tab

tm send-keys -t tl / bash Enter Enter
# The current event's column is the first: the list goes to bash's
# first event of the trace.
want=$(grep -n -m1 -E '\b(prev_|next_|)tid = 1203\b' "$TMPDIR_TEST/dump" |
	cut -d: -f1)
want_time=$(event "$want" | cut -d' ' -f1)
check "/bash Enter Enter: the list on bash's first event (event $want)" \
	wait_status tl "$want_time" 150
tm send-keys -t tl f
check "f: the list filtered on bash" wait_until 150 shows tl ' 1 filter '
tm send-keys -t tl o
check "o: the rows by name (the first ones named)" \
	wait_until 50 sh -c "tmux -L '$SOCKET' capture-pane -p -t tl |
		grep -A1 ' threads, ' | tail -1 | grep -q -E '^ [0-9]+ +[-+ ]?[A-Z]'"

tm send-keys -t tl C
# 110 columns: the frame's 2, the labels' 15.
"$TRACENAV" --batch 'timeline cpus 93 names' --cache-dir "$TMPDIR_TEST/cache" \
	"$dir" > "$TMPDIR_TEST/cpus" 2>/dev/null
check "C: the CPUs pane, timeline cpus 93 names's lines" \
	wait_until 150 same_grid tl CPUs "$TMPDIR_TEST/cpus"
check "C: 4 CPUs and the irqs" pane_has tl CPUs \
	'^ 4 CPUs, [0-9]+ interrupt lines, '
check "C: a row per irq after the CPUs, its handler's name" pane_has tl \
	CPUs '^ IRQ [0-9]+ [a-z0-9_-]+ +[I.|]+$'
# Zoomed in (1/64 of the trace), a thread holds several columns of a
# CPU: its name is written over them.
tm send-keys -t tl z z z z z z
check "zoomed in: a running thread's name over a CPU's letters" \
	wait_until 150 pane_has tl CPUs '^ CPU [0-9]+ +[RIS.|-]*[a-z]'
tm send-keys -t tl q
check "q: exit 0" wait_exit tl 0

# Without the index: the span is read from an empty state at its start,
# the pane says partial; once :index has built it, the exact rows.
start nx 110 34 "--no-index --cache-dir '$TMPDIR_TEST/nocache'"
wait_for nx "$HEADER" >/dev/null
tm send-keys -t nx T
check "--no-index: T reads the span, says partial" wait_until 150 \
	pane_has nx Threads '^ partial \(no index yet\): [0-9]+ threads, '
check "--no-index: rows with the threads' states" \
	pane_has nx Threads '^ 1 +[-+ ]?systemd +[USIWB.|]+$'
tm send-keys -t nx : index Enter
check ":index: the exact rows, timeline threads 83 tree's lines" \
	wait_until 300 same_grid nx Threads "$TMPDIR_TEST/threads"
tm send-keys -t nx q
check "--no-index: q: exit 0" wait_exit nx 0

# The grid is made by the pane's own job: the list moves meanwhile, Esc
# stops it, a move makes it again.
dir="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 700000 --cpus 4 --no-index "$dir" >/dev/null
start mk 110 34 "--no-index --no-cache"
wait_for mk "$HEADER" >/dev/null
here=$(settled_time mk)
tm send-keys -t mk T
check "a long replay: the pane says it makes the grid" \
	wait_until 150 pane_has mk Threads '^ making the timeline'
tm send-keys -t mk j
check "... the list moves meanwhile" \
	wait_until 50 eval "[ \"\$(status_time mk)\" != '$here' ]"
check "... while the grid is still being made" \
	pane_has mk Threads '^ making the timeline'
tm send-keys -t mk Escape
check "Esc stops it" \
	wait_until 50 pane_has mk Threads 'cancelled \(move the cursor'
tm send-keys -t mk j
check "a move makes it again" wait_until 300 \
	pane_has mk Threads '^ partial \(no index yet\): [0-9]+ threads, '
tm send-keys -t mk q
check "q: exit 0" wait_exit mk 0
dir="$TMPDIR_TEST/kernel"

# 80x24 with both panes: they fit, keys still work, exit 0.
start small 80 24 "$cache_opt"
wait_for small "$HEADER" >/dev/null
tm send-keys -t small T C
check "80x24: both panes" wait_until 150 sh -c "
	tmux -L '$SOCKET' capture-pane -p -t small | grep -q ' threads, ' &&
	tmux -L '$SOCKET' capture-pane -p -t small | grep -q ' CPUs, '"
tm send-keys -t small q
check "80x24: q: exit 0" wait_exit small 0

# A userspace trace: no scheduling events, the pane says so.
dir="$TMPDIR_TEST/ust"
"$GEN_TRACE" --events 3000 --domain ust "$dir" >/dev/null
start ust 100 30 "$cache_opt"
wait_for ust "$HEADER" >/dev/null
tm send-keys -t ust T
check "a userspace trace: the pane says why it is empty" \
	wait_until 150 shows ust 'no scheduling events in this span'
tm send-keys -t ust q
check "userspace: q: exit 0" wait_exit ust 0

tap_done
