#!/bin/sh
# test-tui-write.sh - :write in the event list, through tmux: a large
# export runs in the background with its progress on the status bar
# ("writing NN%"), Esc cancels it and leaves no file (nor a temporary
# one) and the cursor where it was; a write that ends says so and the
# file is --dump's output; an existing file needs write!.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir=$(shared_trace big --events 1500000 --cpus 2) || exit 1
events=1500000
out="$TMPDIR_TEST/out"
mkdir "$out"
first=$("$TRACENAV" --dump --count 3 "$dir" | sed -n 3p |
	sed 's/^\[\([^]]*\)\].*/\1/')

start write 100 24
wait_for write "$HEADER" >/dev/null
tm send-keys -t write 2 j
wait_status write "$first" >/dev/null
tm send-keys -t write : "write $out/big.txt" Enter
check "write: the status bar shows its progress" \
	wait_until 100 shows write 'writing [0-9]+%\.\.\..*Esc cancels'
tm send-keys -t write Escape
check "Esc: cancelled" wait_for write 'cancelled'
check "Esc: no file" wait_until 30 test ! -e "$out/big.txt"
check "Esc: no temporary file" sh -c "test -z \"\$(ls -A '$out')\""
check "Esc: the cursor stayed" status_is write "$first"
tm send-keys -t write : "write $out/big.txt" Enter
check "write again: it ends and says so" \
	wait_until 300 shows write "wrote $events events to $out/big.txt"
check "the file is --dump's output" \
	sh -c "'$TRACENAV' --dump '$dir' 2>/dev/null | cmp -s - '$out/big.txt'"
check "the cursor stayed" status_is write "$first"
tm send-keys -t write : "write $out/big.txt" Enter
check "write to an existing file: says to use write!" \
	wait_for write 'big.txt exists: write! '
tm send-keys -t write m : "write! --marked $out/big.txt" Enter
check "write! --marked: replaces it with the marked event" \
	wait_for write "wrote 1 event to $out/big.txt"
check "write! --marked: the marked event's line" \
	test "$(sed 's/^\[\([^]]*\)\].*/\1/' "$out/big.txt")" = "$first"
tm send-keys -t write q
check "q: exits 0" wait_exit write 0

tap_done
