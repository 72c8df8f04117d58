#!/bin/sh
# test-tui-sync-on.sh - the event list on corrected clocks: --sync
# computes the correction in the background at start, the list reads in
# the order and at the times of `tracenav --dump --sync`, the status bar
# says the times are corrected; a jump to a corrected time lands on its
# event; the diagram draws packets between the hosts' threads with
# their latency; :sync off goes back to the recorded times on the same
# event;
# --sync=FILE starts on the correction of a file.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir=$TMPDIR_TEST/hosts
"$GEN_TRACE" --traces 3 --net 3 --events 60000 --cpus 2 --seed 9 \
	--packet-size 4096 "$dir" >/dev/null
"$TRACENAV" --dump --sync "$dir" > "$TMPDIR_TEST/synced"
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/recorded"
events_of_dump "$TMPDIR_TEST/synced"

# A packet sent in the second half (its seq makes its line unique): its
# corrected and recorded times.
k=$(awk 'NR > 30000 && /inet_sock_local_out/ { print NR; exit }' \
	"$TMPDIR_TEST/synced")
line=$(sed -n "${k}p" "$TMPDIR_TEST/synced")
rest=${line#*) }
corrected=$(echo "$line" | sed 's/^\[\([^]]*\)\].*/\1/')
recorded=$(grep -F -- "$rest" "$TMPDIR_TEST/recorded" |
	sed 's/^\[\([^]]*\)\].*/\1/')
first_k=$(grep -n -F "[$corrected]" "$TMPDIR_TEST/synced" | head -1 |
	cut -d: -f1)

start on 120 30 "--no-index --sync"
check "the correction is computed at start, and said" \
	wait_for on 'sync on: times corrected to the clock of host0'
check "the status bar says the times are corrected" \
	shows on 'times corrected'
check "the first screen is --dump --sync's" same_rows on 1 20
check "the packet's two times differ" [ "$corrected" != "$recorded" ]
tm send-keys -t on ":goto $corrected" Enter
check "goto a corrected time: its first event at the cursor" \
	wait_status on "$corrected"
check "... that event and the next ones, as --dump --sync has them" \
	same_row_at_cursor on "$first_k"
tm send-keys -t on ":goto $corrected" Enter
# The cursor onto the packet itself (events of the same time before it).
n=$((k - first_k))
[ "$n" -gt 0 ] && tm send-keys -t on "${n}j"
check "the packet at the cursor" wait_status on "$corrected"
tm send-keys -t on d
check "the diagram pane: the packet's arrow between hosts, its latency above zero" \
	wait_for on "TCP seq=[0-9]+ \\(\\+[0-9]+\\.[0-9]{3} us\\)"
check "... no latency below zero on the corrected clocks" \
	eval "! shows on 'TCP seq=[0-9]+ \\(-'"
tm send-keys -t on d
tm send-keys -t on ":sync off" Enter
check ":sync off says so" wait_for on 'sync off: the times are those'
check "the status bar no longer says corrected" \
	eval "! shows on 'times corrected'"
check "the cursor on the same packet, at its recorded time" \
	wait_status on "$recorded"
tm send-keys -t on q
check "q quits, exit status 0" wait_exit on 0
check "the terminal is restored" wait_for on '^STTY=icanon$'

"$TRACENAV" --batch "sync save $TMPDIR_TEST/correction" "$dir" 2>/dev/null
start file 120 30 "--no-index --sync=$TMPDIR_TEST/correction"
check "--sync=FILE: corrected from the start" \
	wait_for file 'times corrected'
check "--sync=FILE: the first screen is --dump --sync's" \
	same_rows file 1 20
tm send-keys -t file q
check "q quits, exit status 0" wait_exit file 0

tap_done
