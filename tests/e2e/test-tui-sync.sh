#!/bin/sh
# test-tui-sync.sh - :sync in the event list on three hosts on their own
# clocks: the correction computed in the background, shown in a text
# view with aligned columns (a tab would show as \t), the counts on the
# message line; q closes the view, q quits with the terminal restored.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir=$TMPDIR_TEST/hosts
"$GEN_TRACE" --traces 3 --net 2 --events 60000 --cpus 2 --seed 9 \
	--plan "$TMPDIR_TEST/plan" "$dir" >/dev/null
matched=$(sed -n 's/^net_matched //p' "$TMPDIR_TEST/plan")

start sync 100 24
check "opens on the first event" wait_for sync ' hosts  22:13:20\.'
tm send-keys -t sync : sync Enter
check "the view's header: the columns, aligned" \
	wait_for sync '^HOST +SLOPE +OFFSET_NS +QUALITY +ACCURACY +MATCHES$'
check "the reference host, its $matched packets" \
	shows sync "^host0 +1\.00000000000000000000 +0\.000 +reference +0\.000 +$matched\$"
check "the corrected host: accurate" \
	shows sync '^host1 +1\.[0-9]{20} +-?[0-9]+\.[0-9]{3} +accurate +[0-9]+\.[0-9]{3} +'"$matched"'$'
check "the host that exchanged nothing keeps its clock" \
	shows sync '^host2 +1\.00000000000000000000 +0\.000 +absent +- +0$'
check "no tab shown escaped" eval '! screen sync | grep -qF "\\t"'
check "the message line counts the packets" \
	shows sync "sync: $matched packets matched"
tm send-keys -t sync q
check "q closes the view: the list again" \
	eval "wait_for sync ' hosts  22:13:20\\.' && ! shows sync '^HOST '"
tm send-keys -t sync q
check "q quits, exit status 0" wait_exit sync 0
check "the terminal is restored" wait_for sync '^STTY=icanon$'

tap_done
