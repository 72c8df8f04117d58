#!/bin/sh
# test-tui-stats.sh - the statistics pane, through tmux: S opens it;
# without the index it says how to get one; with it, its rows (count,
# share, name) are what `--batch 'stats percent'` prints, for the whole
# trace and, after :range T1 T2, for the range (as `range T1 T2; stats`
# prints it, whose counts test-stats.sh checks against babeltrace2);
# Tab, j and Enter filter the list on the selected name; ] shows the
# CPUs, streams, traces and lost events sections, as `stats all
# percent` prints them, and Enter on a CPU filters on it; v selects a
# range in the list (status bar, reversed times), v again sets it and
# the pane counts it, Esc cancels a selection; S closes the pane.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 30000 --cpus 4 --hang-every 3000 --packet-size 8192 \
	--lost-every 3 \
	"$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
cache_opt="--cache-dir '$TMPDIR_TEST/cache'"
total=$(wc -l < "$TMPDIR_TEST/dump")

# pane NAME: the pane's lines under its title, from the column of its
# title on, without the rule ('|') before them, down to the status bar
# (which starts with the trace's directory name).
pane() {
	screen "$1" | awk -v bar=" ${dir##*/}  " '
		NR == 1 { at = index($0, " Statistics") }
		NR == 1 && at { next }
		index($0, bar) == 1 { exit }
		at { rest = substr($0, at); rule = index(rest, "|")
			print substr(rest, (rule ? rule : 1) + 2) }'
}

# section_rows NAME TITLE: "KEY COUNT PERCENT" of the rows of the
# pane's section TITLE shown ("Event names", "CPUs", ...).
section_rows() {
	pane "$1" | awk -v title="$2" '
		index($0, title " (") == 1 { on = 1; next }
		/^[A-Z]/ { on = 0 }
		on && NF == 3 && $2 ~ /%$/ {
			sub(/%$/, "", $2); print $3, $1, $2 }'
}

# rows NAME: the rows of the names.
rows() {
	section_rows "$1" "Event names"
}

# section NAME FILE: the lines of section "# NAME" of stats all.
section() {
	awk -v s="# $1" '/^# / { on = ($0 == s); next } on' "$2"
}

pane_has() {
	pane "$1" | grep -q -E -- "$2"
}

# same_rows NAME FILE: the pane's rows are the first lines of FILE.
same_rows() {
	rows "$1" > "$TMPDIR_TEST/shown"
	n=$(wc -l < "$TMPDIR_TEST/shown")
	[ "$n" -gt 0 ] && head -n "$n" "$2" | cmp -s - "$TMPDIR_TEST/shown"
}

start nx 160 30
wait_for nx "$HEADER" >/dev/null
tm send-keys -t nx S
check "S without the index: the pane says how to get it" \
	wait_until 50 pane_has nx "The counts need the index: type :index"
tm send-keys -t nx q
wait_exit nx 0 >/dev/null

start st 160 30 "$cache_opt"
wait_for st "$HEADER" >/dev/null
tm send-keys -t st S
check "S: $total events, whole trace" \
	wait_until 100 pane_has st "^$total events, whole trace"
"$TRACENAV" --batch 'stats percent' "$dir" > "$TMPDIR_TEST/want" 2>/dev/null
if wait_until 50 same_rows st "$TMPDIR_TEST/want"; then
	ok "the rows are stats percent's ($(wc -l < "$TMPDIR_TEST/shown") names)"
else
	not_ok "the rows are stats percent's"
	diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/shown" | head -5 | sed 's/^/# /'
fi
hangs=$(grep -c ' sched_process_hang: ' "$TMPDIR_TEST/dump")
check "the rarest name is there: sched_process_hang, $hangs as in --dump" \
	eval 'rows st | grep -q "^sched_process_hang $hangs "'

# A range: the rows follow it.
t1=$(sed -n 5000p "$TMPDIR_TEST/events" | cut -d' ' -f1)
t2=$(sed -n 9000p "$TMPDIR_TEST/events" | cut -d' ' -f1)
tm send-keys -t st : "range $t1 $t2" Enter
wait_for st "events: " >/dev/null
tm send-keys -t st q
"$TRACENAV" --batch "range $t1 $t2; stats percent" "$dir" 2>/dev/null |
	grep -v '^[a-z]*: ' > "$TMPDIR_TEST/want"
in_range=$(awk '{ n += $2 } END { print n }' "$TMPDIR_TEST/want")
check "range: the summary says its $in_range events" \
	wait_until 50 pane_has st "^range 0\.[0-9]+ s: $in_range events"
if wait_until 50 same_rows st "$TMPDIR_TEST/want"; then
	ok "range: the rows are those of range T1 T2; stats percent"
else
	not_ok "range: the rows are those of range T1 T2; stats percent"
	diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/shown" | head -5 | sed 's/^/# /'
fi

# Tab, j, Enter: the list keeps the second name's events.
second=$(sed -n 2p "$TMPDIR_TEST/want")
name=${second%% *}
count=$(grep -c " $name: " "$TMPDIR_TEST/dump")
tm send-keys -t st Tab j Enter
check "Enter on $name: the list shows its $count events (match 1 of $count)" \
	wait_for st "match 1 of $count"
tm send-keys -t st : clear-filters Enter

# ]: the next sections, as stats all percent has them.
"$TRACENAV" --batch "range $t1 $t2; stats all percent" "$dir" \
	2>/dev/null > "$TMPDIR_TEST/all"
# same_section NAME TITLE SECTION: the pane's rows of TITLE are the
# lines of section SECTION of stats all.
same_section() {
	section_rows "$1" "$2" > "$TMPDIR_TEST/shown"
	section "$3" "$TMPDIR_TEST/all" | cmp -s - "$TMPDIR_TEST/shown"
}
tm send-keys -t st ]
check "]: the CPUs, as stats all percent's # cpu" \
	wait_until 50 same_section st CPUs cpu
tm send-keys -t st ]
check "]: the streams, as its # stream" \
	wait_until 50 same_section st "Streams (trace/class/stream)" stream
tm send-keys -t st ]
check "]: the traces, as its # trace" \
	wait_until 50 same_section st "Traces (hosts)" trace
lost=$(section lost "$TMPDIR_TEST/all" | cut -d' ' -f2)
tm send-keys -t st ]
check "]: the $lost lost events of the range, as its # lost" \
	wait_until 50 pane_has st "^ *$lost lost$"
check "... $lost is not 0 (the trace has lost events)" [ "${lost:-0}" -gt 0 ]
# [ [ back to the CPUs, j to CPU 0, Enter: filter cpu == 0.
tm send-keys -t st [ [ [ j Enter
cpu0=$(grep -c '{ cpu_id = 0 }' "$TMPDIR_TEST/dump")
if wait_until 100 shows st "match [0-9]+ of $cpu0"; then
	ok "Enter on CPU 0: the list shows its $cpu0 events (match K of $cpu0)"
else
	not_ok "Enter on CPU 0: the list shows its $cpu0 events"
	screen st | tail -3 | sed 's/^/# /'
fi
tm send-keys -t st : clear-filters Enter

# v: a selection from event 101 to event 2101, shown in the status bar
# (duration, events), the list (times reversed) and, set with v again,
# in the pane.
status_has() {
	screen "$1" | tail -2 | head -1 | grep -q -E -- "$2"
}
tm send-keys -t st Tab g 1 0 0 j v	# the focus back on the list
check "v: the status bar says sel, 1 event" \
	wait_until 50 status_has st " sel [0-9.]+ ?[mun]?s, 1 event "
tm send-keys -t st 2 0 0 0 j
check "2000j: sel ..., 2001 events" \
	wait_until 50 status_has st " sel [0-9.]+ [mun]?s, 2001 events "
# reversed NAME: the screen rows whose time is drawn reversed.
reversed() {
	tm capture-pane -e -p -t "$1" | grep -c "^$(printf '\033')\[7m[0-9][0-9]:"
}
check "the rows of the selection show their time reversed" \
	[ "$(reversed st)" -gt 5 ]
t101=$(sed -n 101p "$TMPDIR_TEST/events" | cut -d' ' -f1)
t2101=$(sed -n 2101p "$TMPDIR_TEST/events" | cut -d' ' -f1)
tm send-keys -t st v
check "v again: the range from event 101 to event 2101" \
	wait_for st "end: +[0-9-]+ $t2101"
check "... which begins at event 101" shows st "begin: +[0-9-]+ $t101"
tm send-keys -t st q
want=$(awk -v a="$t101" -v b="$t2101" '$1 >= a && $1 <= b' \
	"$TMPDIR_TEST/events" | wc -l | tr -d ' ')
check "the pane counts the range's $want events" \
	wait_until 50 pane_has st "^range 0\.[0-9]+ s: $want events"
check "the status bar says range" status_has st " range [0-9.]+ [mun]?s "
tm send-keys -t st v j Escape
check "v, j, Esc: the selection is cancelled" \
	wait_until 50 eval '! status_has st " sel "'
# The status bar may say something else for a moment first (the move's
# job, the cancel): wait for it, as above.
check "... the range stays" \
	wait_until 50 status_has st " range [0-9.]+ [mun]?s "

tm send-keys -t st S
check "S: the pane closes" \
	wait_until 50 eval '! shows st "Statistics \(S hides\)"'
tm send-keys -t st q
check "q: exits 0" wait_exit st 0

tap_done
