#!/bin/sh
# test-tui-search.sh - / n N in the event list, through tmux: / opens a
# prompt shown as "/", Enter lands where --batch's search lands and the
# match is highlighted, n and N go on as next and prev do, a search that
# finds nothing says so and the cursor stays, wrapping around says so,
# and Esc cancels a long search on a big trace, the cursor staying.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"

# The time of day --batch lands on after SCRIPT.
batch_time() {
	"$TRACENAV" --no-cache --batch "$1; print 1" "$dir" 2>/dev/null |
		sed 's/^\[\([^]]*\)\].*/\1/'
}

# highlighted NAME TEXT: the current row (in reverse video) shows TEXT
# in the match colours (black on yellow) right after them.
highlighted() {
	tm capture-pane -p -e -t "$1" | grep -F "$(printf '\033[7m')" |
		grep -q -F "$(printf '\033[43m')$2"
}

RE='ret = -11, buf = 0x7FFC[0-9A-F]*0 '
start search 120 24
wait_for search "$HEADER" >/dev/null
tm send-keys -t search /
check "/: the prompt shows /" wait_for search '^/ *$'
tm send-keys -t search -l "$RE"
tm send-keys -t search Enter
first=$(batch_time "search $RE")
check "/RE Enter: lands where --batch's search lands ($first)" \
	wait_status search "$first"
check "the match is highlighted in the current row" \
	wait_until 30 highlighted search "ret = -11"
tm send-keys -t search n
check "n: where next lands" \
	wait_status search "$(batch_time "search $RE; next")"
tm send-keys -t search 2 n
check "2n: two matches further" \
	wait_status search "$(batch_time "search $RE; next 3")"
tm send-keys -t search N
check "N: where prev lands" \
	wait_status search "$(batch_time "search $RE; next 2")"
here=$(status_time search)
tm send-keys -t search / 'no such text' Enter
check "a search that finds nothing says so" \
	wait_for search 'Pattern not found: no such text'
check "and the cursor stays" status_is search "$here"
tm send-keys -t search / '(unclosed' Enter
check "a bad regex says where" \
	wait_for search 'bad regex: column 10: missing closing parenthesis'
check "and the cursor stays" status_is search "$here"
# From the last event, / Enter (the last search again): back to the
# first match.  The last search is now the one that found nothing.
tm send-keys -t search /
tm send-keys -t search -l "$RE"
tm send-keys -t search Enter
wait_status search "$first" >/dev/null
tm send-keys -t search G / Enter
check "/ Enter after G: wraps to the first match and says so" \
	wait_for search 'search hit BOTTOM, continuing at TOP'
check "the first match again" wait_status search "$first"
tm send-keys -t search N
check "N from the first match: wraps to the last and says so" \
	wait_for search 'search hit TOP, continuing at BOTTOM'
check "the last match" wait_status search "$(grep -P -- "$RE" \
	"$TMPDIR_TEST/dump" | tail -1 | sed 's/^\[\([^]]*\)\].*/\1/')"
tm send-keys -t search q
check "q: exits 0" wait_exit search 0

# A long search, cancelled.
big="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 3000000 --cpus 4 --packet-size 1048576 "$big" \
	>/dev/null
dir=$big
start big 120 24
wait_for big "$HEADER" >/dev/null
tm send-keys -t big j j j
here=$(batch_time "down 3")
wait_status big "$here" >/dev/null
tm send-keys -t big / 'no such text' Enter
check "a long search shows its progress" \
	wait_for big 'searching [0-9]+%'
tm send-keys -t big Escape
check "Esc cancels it" wait_for big 'cancelled: the cursor stays'
check "the cursor stays" status_is big "$here"
tm send-keys -t big j
check "the keys work again" wait_status big "$(batch_time "down 4")"
tm send-keys -t big q
check "q: exits 0" wait_exit big 0

tap_done
