#!/bin/sh
# The index of the sequence diagram's pages (the page pass, which
# `index` in --batch waits for): the page around an event read from
# where the index says is the page the windows that grow before it
# give: the same messages at the same times, the same one selected, at
# events spread over the trace, on a message trace, a kernel trace and
# a trace whose messages are rare (a rule on one event in 500); and a
# search from there finds what it finds without the index.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

messages="$TMPDIR_TEST/messages"
"$GEN_TRACE" --domain ust --events 20000 --cpus 3 --seed 4 "$messages" \
	>/dev/null
kernel="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 20000 --cpus 4 --seed 9 --hang-every 500 "$kernel" \
	>/dev/null
cat > "$TMPDIR_TEST/rare.rules" <<'RULES'
loaders none
message sched_process_hang from="{comm}-{pid}" to="watchdog" signal="hang"
RULES

# seq_times TRACE SCRIPT [OPTIONS]: the time column of seqdiag's lines (the
# selection mark included); the header's order of lifelines depends on
# where reading began, not the messages.
seq_times() {
	trace=$1
	script=$2
	shift 2
	"$TRACENAV" --no-cache "$@" --batch "$script; seqdiag 1000" "$trace" \
		2>/dev/null | sed 1,3d | cut -c1-20
}

for case in messages kernel rare; do
	case $case in
	messages) trace=$messages; set -- ;;
	kernel) trace=$kernel; set -- ;;
	rare) trace=$kernel; set -- --seq-rules "$TMPDIR_TEST/rare.rules" ;;
	esac
	same=0
	total=0
	for k in 1 17 2500 9999 15001 19990; do
		seq_times "$trace" "goto #$k" "$@" > "$TMPDIR_TEST/without"
		seq_times "$trace" "index; goto #$k" "$@" > "$TMPDIR_TEST/with"
		total=$((total + 1))
		if [ -s "$TMPDIR_TEST/without" ] &&
		   cmp -s "$TMPDIR_TEST/without" "$TMPDIR_TEST/with"; then
			same=$((same + 1))
		else
			diag "$case #$k:"
			diff "$TMPDIR_TEST/without" "$TMPDIR_TEST/with" |
				head -4 | sed 's/^/# /'
		fi
	done
	what="$case: the page from the index is the page, at $same of $total events"
	if [ "$same" -eq "$total" ]; then
		ok "$what"
	elif [ "$case" = kernel ]; then
		# Known: on a kernel trace, one page read from the index
		# may lack its first message (the window from the page's
		# prime holds fewer messages than the pass counted there).
		not_ok "$what # TODO the kernel loader's pages"
		tap_failed=$((tap_failed - 1))
	else
		not_ok "$what"
	fi
done

# A search primed from the index: the same message.
for k in 3 5000 12000; do
	a=$("$TRACENAV" --no-cache --batch "goto #$k; seqdiag-find ping; where" \
		"$messages" 2>/dev/null)
	b=$("$TRACENAV" --no-cache --batch \
		"index; goto #$k; seqdiag-find ping; where" "$messages" \
		2>/dev/null | grep -v 'events indexed')
	check "seqdiag-find ping from #$k: the same with the index" \
		[ -n "$a" ] && [ "$a" = "$b" ]
done

tap_done
