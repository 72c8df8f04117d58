#!/bin/sh
# test-tui-component.sh - the event list on another source than a CTF
# trace: `tracenav --component=src.text.dmesg FILE` opens a dmesg log
# (its events written as a CTF trace in a private directory first) on
# its first lines, / finds a line far down, the index counts every line,
# q quits with the terminal restored and the private directory removed.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir=$TMPDIR_TEST/dmesg.txt
awk 'BEGIN { for (i = 0; i < 600; i++)
	if (i == 450) printf "[%5d.%06d] usb 1-1: new high-speed USB device\n", i, 0;
	else printf "[%5d.%06d] line %d of the log\n", i, 500, i }' >"$dir"
runtime=$TMPDIR_TEST/runtime
mkdir -m 700 "$runtime"
TEST_ENV="XDG_RUNTIME_DIR='$runtime'"

start log 100 24 "--component=src.text.dmesg"
check "opens on the log's first line" \
	wait_for log 'str = "line 0 of the log"'
check "the status bar counts every line once indexed" \
	wait_until 100 line_matches log 23 "event 1 of 600"
tm send-keys -t log / 'usb 1-1' Enter
check "/ finds the line far down" \
	wait_until 50 line_matches log 23 "event 451 of 600"
check "the found line is on the screen" shows log 'usb 1-1: new high-speed'
check "while it runs, its events are in a private directory" \
	eval 'ls "$runtime"/tracenav 2>/dev/null | grep -q "^component-"'
tm send-keys -t log q
check "q quits, exit status 0" wait_exit log 0
check "the terminal is restored" wait_for log '^STTY=icanon$'
check "the private directory is removed" \
	eval '! ls "$runtime"/tracenav 2>/dev/null | grep -q "^component-"'

tap_done
