#!/bin/sh
# test-tui-state.sh - the state tree pane, through tmux: s opens it on a
# generated kernel trace; the thread each CPU runs ("CPU 2  3002 NAME")
# is the next_tid of the last sched_switch on that CPU up to the cursor,
# as --dump says, and what --batch's state prints; it follows the
# cursor; Tab gives it the keys: j, l and h open and fold, / searches
# the tree; [ and ] move the list to the events that begin and end the
# selected value; s closes it; at 80x24 the list stays usable with it.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
opts="--cache-dir '$TMPDIR_TEST/cache'"

t() {
	event "$1" | cut -d' ' -f1
}

# pane NAME: the state pane's text, one line a screen line (from the
# column of its title on; its first two columns are the rule, a '|').
# The rule is at that column on the screen, not always at that byte of
# the line: a row of the list with wide or multibyte characters puts it
# further, so it is the first '|' from there (gen-trace's strings have
# none).
pane() {
	screen "$1" | awk 'NR == 1 { at = index($0, " State tree") }
		NR == 1 && at { print substr($0, at + 2); next }
		at { rest = substr($0, at); rule = index(rest, "|")
			print substr(rest, (rule ? rule : 1) + 2) }'
}

pane_has() {
	pane "$1" | grep -q -E -- "$2"
}

# wait_pane NAME EGREP: until the pane shows it (5 s).
wait_pane() {
	wait_until 50 pane_has "$1" "$2" && return 0
	diag "the pane: $(pane "$1" | head -8)"
	return 1
}

# cpus_of_dump N: "CPU TID" of each CPU's last sched_switch among
# events 1..N of the dump, sorted by CPU.
cpus_of_dump() {
	head -n "$1" "$TMPDIR_TEST/dump" | awk '/ sched_switch: / {
		match($0, /cpu_id = [0-9]+/)
		cpu = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /next_tid = [0-9]+/)
		tid[cpu] = substr($0, RSTART + 11, RLENGTH - 11) }
		END { for (c in tid) print c, tid[c] }' | sort -n
}

# cpus_of_batch N: the same from --batch's state at event N.
cpus_of_batch() {
	"$TRACENAV" --no-cache --batch "down $(($1 - 1)); state CPUs/*/Current_thread" \
		"$dir" 2>/dev/null |
		sed -n 's|^CPUs/\([0-9]*\)/Current_thread = \([0-9]*\)$|\1 \2|p' |
		sort -n
}

# cpus_shown NAME: "CPU TID" of the pane's CPU rows.
cpus_shown() {
	pane "$1" | sed -n 's/^[ *]*[+-] CPU \([0-9]*\)  \([0-9]*\).*/\1 \2/p' |
		sort -n
}

# same_cpus NAME N: the pane shows the thread of every CPU at event N.
same_cpus() {
	cpus_shown "$1" > "$TMPDIR_TEST/shown"
	cpus_of_dump "$2" > "$TMPDIR_TEST/want"
	[ -s "$TMPDIR_TEST/want" ] && cmp -s "$TMPDIR_TEST/shown" "$TMPDIR_TEST/want"
}

check_cpus() {
	if wait_until 50 same_cpus "$1" "$2"; then
		ok "event $2: each CPU's thread is its last sched_switch's next_tid"
	else
		not_ok "event $2: each CPU's thread is its last sched_switch's next_tid"
		diag "shown: $(tr '\n' ',' < "$TMPDIR_TEST/shown")"
		diag "want:  $(tr '\n' ',' < "$TMPDIR_TEST/want")"
	fi
}

# footer_line NAME K: line K (1..3) of the footer, under its rule.
footer_line() {
	pane "$1" | awk -v k="$2" '/^-----/ { at = NR } at && NR == at + k'
}

footer_has() {
	footer_line "$1" "$2" | grep -q -E -- "$3"
}

wait_footer() {
	wait_until 50 footer_has "$@" && return 0
	diag "footer line $2: '$(footer_line "$1" "$2")'"
	return 1
}

start st 120 40 "$opts"
wait_for st "$HEADER" >/dev/null
tm send-keys -t st 4 9 9 j
check "499j: the list is at event 500" wait_status st "$(t 500)"
tm send-keys -t st s
check "s: the pane opens, at the cursor's time" \
	wait_pane st "^at $(t 500) +\(kernel\)"
check_cpus st 500
if "$TRACENAV" --no-cache --batch "state" "$dir" >/dev/null 2>&1; then
	cpus_of_batch 500 > "$TMPDIR_TEST/batch"
	check "--batch state CPUs/*/Current_thread says the same at event 500" \
		cmp -s "$TMPDIR_TEST/batch" "$TMPDIR_TEST/want"
fi
check "a thread that runs on a CPU is marked with *" \
	pane_has st '^\* +\+ [0-9]+ '

tm send-keys -t st 1 0 0 j
check "100j: the list moves" wait_status st "$(t 600)"
check "the pane follows the cursor" wait_pane st "^at $(t 600) "
check_cpus st 600

# Tab: the pane takes j, l, h; the list's cursor stays.
tm send-keys -t st Tab
check "Tab, then: the footer is about the first row, CPUs" \
	wait_footer st 1 '^CPUs = null'
tm send-keys -t st j
check "j in the pane: CPU 0 selected" wait_footer st 1 '^CPUs/0 = null'
check "j in the pane: the list stays" status_is st "$(t 600)"
check "CPU 0 is folded" pane_has st '^ +\+ CPU 0  '
tm send-keys -t st l
check "l: CPU 0 opens, its Current_thread shows" \
	wait_pane st '^ +Current_thread +[0-9]+'
check "l: CPU 0 is open" pane_has st '^ +- CPU 0  '
tm send-keys -t st h
check "h: CPU 0 folds again" wait_pane st '^ +\+ CPU 0  '
no_children() {
	! pane_has st '^ +Current_thread'
}
check "h: its children go" wait_until 50 no_children
tm send-keys -t st Enter j
check "Enter opens, j: Current_thread selected" \
	wait_footer st 1 '^CPUs/0/Current_thread = [0-9]+'

# [ and ]: the events that set the value and that change it next.
since=$(footer_line st 2 | sed -n 's/^since \([0-9:.]*\).*/\1/p')
until=$(footer_line st 3 | sed -n 's/^until \([0-9:.]*\),.*/\1/p')
tid=$(footer_line st 1 | sed 's/.* = //')
tm send-keys -t st '['
check "[: the list goes to the event that set it ($since)" \
	wait_status st "$since"
check "[: the pane follows, the same attribute selected" \
	wait_pane st "^at $since "
check "[: the event is a sched_switch to thread $tid" \
	sh -c "grep -F '[$since]' '$TMPDIR_TEST/dump' |
		grep -q 'sched_switch: { cpu_id = 0 }.*next_tid = $tid,'"
check "[: the attribute's value starts there" \
	wait_footer st 2 "^since $since "
if [ -n "$until" ]; then
	tm send-keys -t st ']'
	check "]: the list goes to the event that changes it ($until)" \
		wait_status st "$until"
	# The pane's query at the new event ends before the search below
	# runs, or the search would select on the old tree a value that the
	# new one changes.
	check "]: the pane shows the state there" wait_pane st "(^| )at $until"
else
	skip "the value lasts beyond what the pane read (no until)"
fi
check "the footer names the same attribute" \
	wait_footer st 1 '^CPUs/0/Current_thread = '

# / searches the tree (the labels and the values), opening what hides
# the match.
tm send-keys -t st /
check "/: the prompt shows /" wait_for st '^/ *$'
tm send-keys -t st wait_blocked Enter
check "/wait_blocked: a thread's status, opened up" \
	wait_footer st 1 '^Threads/[0-9_]+/Status = "wait_blocked"'
first=$(footer_line st 1)
moved_on() {
	footer_has st 1 '^Threads/[0-9_]+/Status = "wait_blocked"' &&
		[ "$(footer_line st 1)" != "$first" ]
}
tm send-keys -t st n
check "n: the next match, another thread's" wait_until 50 moved_on
tm send-keys -t st N
check "N: back to the first one" wait_footer st 1 "^$(echo "$first" | sed 's/[][\.*^$/]/\\&/g')\$"

# ] on a value that lasts past what the pane read (a thread's name):
# the end is looked for in the background, then the list goes there, or
# the message line says it lasts to the end of the trace.
tm send-keys -t st /
tm send-keys -t st -l '^Exec_name$'
tm send-keys -t st Enter
check "/^Exec_name\$: a thread's name" \
	wait_footer st 1 '^Threads/[0-9_]+/Exec_name = '
before=$(settled_time st)
far_end() {
	shows st 'keeps its value to the end of the trace' ||
		[ "$(status_time st)" != "$before" ]
}
if footer_has st 3 '^until after '; then
	tm send-keys -t st ']'
	check "]: a far end is looked for (the list goes there, or the end of the trace)" \
		wait_until 100 far_end
else
	skip "the name changes within what the pane read"
fi
tm send-keys -t st /
tm send-keys -t st -l 'no such thing'
tm send-keys -t st Enter
check "/ with no match: says so" wait_for st 'Pattern not found: no such thing'

# The pane's searches stay out of the ':' prompt's history (they are
# not commands): Up at ':' recalls the last command line instead.
tm send-keys -t st Escape
tm send-keys -t st :
wait_for st '^: *$' >/dev/null
tm send-keys -t st Up
not_a_pane_search() {
	screen st | grep -q '^: *$' || screen st | grep -q '^:goto @'
}
check "Up at ':' skips the pane's searches" wait_until 20 not_a_pane_search
no_pane_search_line() {
	! screen st | grep -q 'state-find'
}
check "and never shows one" no_pane_search_line
tm send-keys -t st Escape

# Shift-Tab back to the list, s closes the pane.
tm send-keys -t st BTab g j
check "Shift-Tab: g and j move the list again" wait_status st "$(t 2)"
check "the pane follows" wait_pane st "^at $(t 2) "
pane_closed() {
	! screen st | grep -q 'State tree'
}
tm send-keys -t st s
check "s: the pane closes" wait_until 50 pane_closed
tm send-keys -t st q
check "q: exits 0" wait_exit st 0

# A query that takes long (no index, so no snapshots: a replay from the
# trace's start) says so, keeps no key waiting, and fills in.
big="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 1000000 --cpus 4 "$big" >/dev/null
small=$dir
dir=$big
start slow 120 30 "--no-index"
dir=$small
wait_for slow "$HEADER" >/dev/null
tm send-keys -t slow s
wait_pane slow '^at ' >/dev/null
tm send-keys -t slow 9 0 '%'
check "90%: the pane says the state is being computed" \
	wait_pane slow '^computing state at [0-9:.]+\.\.\.'
at=$(settled_time slow)
tm send-keys -t slow 2 j
moved() {
	[ "$(status_time slow)" != "$at" ]
}
check "2j meanwhile: the list moves at once" wait_until 20 moved
now=$(settled_time slow)
check "then the pane fills in, at the list's event" \
	wait_until 300 pane_has slow "^at $now "
tm send-keys -t slow q
check "q: exits 0" wait_exit slow 0

# 80x24: the list keeps its columns and rows beside the pane.
start small 80 24 "$opts"
wait_for small "$HEADER" >/dev/null
tm send-keys -t small s
check "80x24: the pane opens" wait_pane small "^at $(t 1) "
check "80x24: the list's header shows beside it" line_is_like small 1 "$HEADER"
check "80x24: the list shows 21 events" \
	wait_until 50 same_rows small 1 21
tm send-keys -t small j
check "80x24: j moves the list" wait_status small "$(t 2)"
check "80x24: the pane follows" wait_pane small "^at $(t 2) "
tm send-keys -t small q
check "q: exits 0" wait_exit small 0

tap_done
