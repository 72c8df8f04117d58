#!/bin/sh
# test-tui-prompt.sh - the prompt's history and completion, through
# tmux: lines run are kept in a private file and recalled by Up in the
# next run (those that start with what was typed), Ctrl-R searches them
# (refine, older match, Esc gives the line back, Enter runs), / recalls
# the searches only, and Tab completes event and field names from the
# trace's metadata.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
history="$XDG_STATE_HOME/tracenav/history"
t() {
	event "$1" | cut -d' ' -f1
}
# prompt_is NAME EGREP: the last line (the prompt) matches.
prompt_is() {
	screen "$1" | tail -1 | grep -q -E -- "$2"
}
wait_prompt() {
	wait_until 50 prompt_is "$1" "$2" && return 0
	diag "prompt: '$(screen "$1" | tail -1)'"
	return 1
}

## First run: three command lines and a search.
start one 100 24
wait_for one "$HEADER" >/dev/null
tm send-keys -t one : 'down 10' Enter
wait_status one "$(t 11)" >/dev/null
tm send-keys -t one : 'top' Enter
wait_status one "$(t 1)" >/dev/null
tm send-keys -t one : 'down 3' Enter
check "the commands ran" wait_status one "$(t 4)"
tm send-keys -t one / sched_switch Enter
check "the search ran" wait_for one 'sched_switch'
tm send-keys -t one q
check "q: exits 0" wait_exit one 0
check "the history file is there" test -f "$history"
check "the history file is private (0600)" \
	test "$(stat -c %a "$history" 2>/dev/null)" = 600
check "its directory is private (0700)" \
	test "$(stat -c %a "$(dirname "$history")" 2>/dev/null)" = 700
printf 'down 10\ntop\ndown 3\nsearch sched_switch\n' > "$TMPDIR_TEST/want"
check "the history holds the lines run, in order" \
	cmp -s "$history" "$TMPDIR_TEST/want"

## Second run: Up recalls them.
start two 100 24
wait_for two "$HEADER" >/dev/null
tm send-keys -t two : Up
check "Up: the last line of the last run" wait_prompt two '^:search sched_switch *$'
tm send-keys -t two Up
check "Up again: the one before" wait_prompt two '^:down 3 *$'
tm send-keys -t two Down Down
check "Down past the newest: the empty line typed" wait_prompt two '^: *$'
tm send-keys -t two Escape
tm send-keys -t two :
tm send-keys -t two -l do
tm send-keys -t two Up
check "do then Up: the last line starting with do" wait_prompt two '^:down 3 *$'
tm send-keys -t two Up
check "Up again: the one before starting with do" wait_prompt two '^:down 10 *$'
tm send-keys -t two Up
check "Up past the oldest such: stays" wait_prompt two '^:down 10 *$'
tm send-keys -t two Down Down
check "Down past the newest: what was typed (do)" wait_prompt two '^:do *$'
tm send-keys -t two Escape
tm send-keys -t two / Up
check "/ Up: the last search's pattern alone" wait_prompt two '^/sched_switch *$'
tm send-keys -t two Escape

## Ctrl-R.
tm send-keys -t two : C-r
check "Ctrl-R: the search line" wait_prompt two "^\\(reverse-i-search\\)'': *$"
tm send-keys -t two -l 'down'
check "Ctrl-R down: the newest line holding it" \
	wait_prompt two "^\\(reverse-i-search\\)'down': down 3"
tm send-keys -t two C-r
check "Ctrl-R again: an older match" \
	wait_prompt two "^\\(reverse-i-search\\)'down': down 10"
tm send-keys -t two C-r
check "Ctrl-R once more: no older one, says it failed" \
	wait_prompt two "^\\(failed reverse-i-search\\)'down': down 10"
tm send-keys -t two BSpace BSpace BSpace BSpace
tm send-keys -t two -l 'top'
check "Backspace and top: the search starts over" \
	wait_prompt two "^\\(reverse-i-search\\)'top': top"
tm send-keys -t two Escape
check "Esc: the line as it was before Ctrl-R" wait_prompt two '^: *$'
tm send-keys -t two -l 'pri'
tm send-keys -t two C-r
tm send-keys -t two -l '10'
tm send-keys -t two C-e
check "Ctrl-R 10, Ctrl-E: the line found, to edit" wait_prompt two '^:down 10 *$'
tm send-keys -t two BSpace
tm send-keys -t two -l 5
tm send-keys -t two Enter
check "edited and run: down 15" wait_status two "$(t 16)"
tm send-keys -t two : C-r
tm send-keys -t two -l 'top'
tm send-keys -t two Enter
check "Ctrl-R top, Enter: runs top" wait_status two "$(t 1)"
tm send-keys -t two : Up
check "the line run from Ctrl-R is the newest" wait_prompt two '^:top *$'
tm send-keys -t two Escape

## Tab: event and field names from the metadata, in a pattern.
tm send-keys -t two /
tm send-keys -t two -l 'sched_sw'
tm send-keys -t two Tab
check "/sched_sw Tab: the event name" wait_prompt two '^/sched_switch *$'
tm send-keys -t two C-u
tm send-keys -t two -l 'prev_ti'
tm send-keys -t two Tab
check "/prev_ti Tab: the field name (no event had to be read)" \
	wait_prompt two '^/prev_tid *$'
tm send-keys -t two C-u
tm send-keys -t two -l '$payload.next_c'
tm send-keys -t two Tab
check "/\$payload.next_c Tab: the scoped field name" \
	wait_prompt two '^/\$payload\.next_comm *$'
tm send-keys -t two Escape q
check "q: exits 0" wait_exit two 0
check "the history keeps each line once, the newest last" \
	test "$(tail -1 "$history")" = 'top' -a \
	"$(grep -c -x 'top' "$history")" = 1

tap_done
