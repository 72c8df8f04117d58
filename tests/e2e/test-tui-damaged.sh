#!/bin/sh
# test-tui-damaged.sh - the event list on damaged and growing traces: a
# trace whose stream file ends inside a packet opens on its events, the
# message line names the file and what was left out, the status bar
# says "1 damaged" and :traces lists it; :reload, once the file is
# whole, reads the rest: the current event, the filter and the mark
# stay, the damage goes, the index is built again; a trace whose
# metadata is cut short is refused before the screen is taken, with the
# cause; a packet size that makes libbabeltrace2 abort (read by the
# background index) ends the list with the terminal restored and the
# abort explained; q quits with the
# terminal restored.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

whole="$TMPDIR_TEST/whole"
dir="$TMPDIR_TEST/growing"
"$GEN_TRACE" --events 4000 --cpus 2 --packet-size 4096 "$whole" >/dev/null
cp -R "$whole" "$dir"
size=$(stat -c %s "$whole/channel0_1")
truncate -s $((size / 2 + 1000)) "$dir/channel0_1"
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"

start grow 200 24 --no-mouse
check "opens on the events read" wait_for grow "$HEADER"
check "the first row is the first event" wait_row grow 1 "$(event 1)"
check "the message line names the file and what was left out" \
	wait_for grow "^1 damaged file \(:traces lists it\): $dir/channel0_1: read up to byte [0-9]+ of $((size / 2 + 1000))"
check "the status bar says 1 damaged" line_is_like grow 23 " 1 damaged"
check "the index is built on what was read" \
	line_matches grow 23 "event 1 of $(wc -l < "$TMPDIR_TEST/dump")"
tm send-keys -t grow : traces Enter
check ":traces lists the damaged file" \
	wait_for grow "^damaged: channel0_1: read up to byte"
tm send-keys -t grow q

# A filter, a mark, the list in the middle; then the file is whole.
tm send-keys -t grow '&' 'sched_switch' Enter
check "a filter" line_matches grow 23 "1 filter"
first=$(settled_time grow)
tm send-keys -t grow 50%
check "50%: the middle of the trace" \
	wait_until 50 eval '[ "$(status_time grow)" != "$first" ]'
tm send-keys -t grow m
check "a mark" wait_for grow "^\*"
at=$(settled_time grow)
cp "$whole/channel0_1" "$dir/channel0_1"
tm send-keys -t grow : reload Enter
check ":reload says what grew" \
	wait_for grow "^reloaded $dir: [0-9]+ bytes more"
check ":reload: the current event stays ($at)" wait_status grow "$at"
check ":reload: no damage any more" eval '! line_is_like grow 23 "damaged"'
check ":reload: the filter stays" line_is_like grow 23 "1 filter"
check ":reload: the mark stays" shows grow "^\*"
check ":reload: the index is built again, on every event" \
	line_matches grow 23 "match [0-9]+ of $("$TRACENAV" --dump "$whole" | grep -c ' sched_switch: ')"
tm send-keys -t grow q
check "q quits, exit status 0" wait_exit grow 0
check "the terminal is canonical again" wait_for grow '^STTY=icanon$'

# Metadata cut short: refused at once, before the screen is taken.
dir="$TMPDIR_TEST/cut-metadata"
cp -R "$whole" "$dir"
truncate -s 1000 "$dir/metadata"
start cut 120 10 --no-mouse
check "metadata cut short: the cause, and exit status 1" \
	wait_exit cut 1
check "metadata cut short: it says so, naming the trace" \
	shows cut "$dir: cannot read the trace metadata: the metadata is cut short"
check "metadata cut short: the terminal as it was" \
	wait_for cut '^STTY=icanon$'

# A packet size of 2^63 bits in a packet context: libbabeltrace2 aborts
# once the background index reads that packet: the terminal is
# restored, the abort explained.  No key is sent: a seek to the bottom
# skips the packet, and a key that reaches the terminal once it is
# restored is echoed in front of the explanation.
dir="$TMPDIR_TEST/abort"
cp -R "$whole" "$dir"
printf '\200' | dd of="$dir/channel0_1" bs=1 seek=$((4096 * 3 + 63)) \
	conv=notrunc 2>/dev/null
start abort 200 24 --no-mouse
check "a packet size libbabeltrace2 aborts on: the index reads it, the list ends (SIGABRT)" \
	wait_exit abort 134
# aborted NAME: the screen ends with the abort explained (the screen
# said, when it does not).
aborted() {
	wait_for "$1" "^tracenav: aborted while reading the trace .*--dump prints the events before the damage" && return 0
	screen "$1" | sed 's/^/# /'
	return 1
}
check "... and says what happened and what to do" aborted abort
check "... the terminal restored" wait_for abort '^STTY=icanon$'

tap_done
