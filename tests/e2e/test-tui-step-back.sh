#!/bin/sh
# test-tui-step-back.sh - the event list on a trace whose times go back
# (gen-trace --step-back): once indexed, the message line names the
# stream; at a stepped event (:goto #K) the delta column shows how far
# back it went; q quits with the terminal restored.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir=$TMPDIR_TEST/steps
"$GEN_TRACE" --step-back --events 20000 --cpus 2 --packet-size 4096 \
	--ties 0 "$dir" >/dev/null
rank=$("$TRACENAV" --dump "$dir" 2>/dev/null | grep -n '(-0\.000002000)' |
	head -1 | cut -d: -f1)
runtime=$TMPDIR_TEST/cache
TEST_ENV="XDG_CACHE_HOME='$runtime'"

start steps 120 24 " "
check "once indexed, the message line names the stream whose times go back" \
	wait_until 100 shows steps "warning: stream file .*channel0_0.: 4 events seen going back in time, by up to 4000 ns"
tm send-keys -t steps : "goto #$rank" Enter
# Up to 30 s: the ThreadSanitizer build, beside other tests, once took
# more than 5.
check "at the stepped event ($rank), the delta is negative" \
	wait_until 300 shows steps '^ *22:13:20\.[0-9]{9} +-0\.000002000 '
tm send-keys -t steps q
check "q quits, exit status 0" wait_exit steps 0
check "the terminal is restored" wait_for steps '^STTY=icanon$'

tap_done
