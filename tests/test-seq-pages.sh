#!/bin/sh
# The index of the sequence diagram's pages (the page pass, which
# `index` in --batch waits for): the page around an event read from
# where the index says is the page the windows that grow before it
# give (--no-seq-index, which runs no page pass): the same messages at
# the same times, the same lifelines created and stopped in it, the
# same one selected.  At the events where pages of the index start (up
# to 24 of them, spread over the trace; 8 in a sanitizer's build) and the event on either side of
# each, and at a few fixed events; on a message trace, a kernel trace, a trace whose messages are
# rare (a rule on one event in 500) and the kernel traces of the shared
# corpus (skipped when it is not there).  A search from there finds
# what it finds without the index.
#
# Both sides run `index` first: it waits for the state pass (a window
# starts from its snapshots) and, with the index of pages, for the page
# pass, so that which one a page comes from never depends on how far a
# pass in the background got.
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

# page_events TRACE EVERY [OPTIONS]: the numbers of the events where
# every EVERY-th page of the index starts (its first message's first
# end: messages in the order of their first ends, from seqdiag-list at
# the trace's first event, whose window starts from the empty state as
# the page pass does; the first event of that time in --dump), one a
# line.
page_events() {
	trace=$1
	every=$2
	shift 2
	"$TRACENAV" --no-cache "$@" --batch "seqdiag-list 1000000" "$trace" \
		2>/dev/null > "$TMPDIR_TEST/list"
	"$TRACENAV" --dump "$trace" 2>/dev/null |
	awk -F '\t' -v pages="$TMPDIR_TEST/list" -v every="$every" '
	BEGIN {
		while ((getline line < pages) > 0) {
			split(line, f, "\t")
			first = f[1] != "-" ? f[1] : f[2]
			if (n++ % (8 * every) == 0)
				want[first] = 1
		}
	}
	{
		split($0, f, " ")
		if (f[1] in want) {
			print NR
			delete want[f[1]]
		}
	}'
}

most_starts=24
sanitized && most_starts=8

# spread MAX: at most MAX of the lines of standard input, spread evenly
# over them (the first one kept), so that a trace with hundreds of pages
# costs what one with MAX costs (a page is a few hundred ms of a
# sanitizer build's time).
spread() {
	awk -v max="$1" '{ line[n++] = $0 }
	END {
		step = n > max ? n / max : 1
		for (i = 0; i < n && kept < max; i += step) {
			print line[int(i)]
			kept++
		}
	}'
}

# around N EVENTS...: each event, and the one before and after it (from
# #1 to #N), once each, in order.
around() {
	count=$1
	shift
	for e in "$@"; do
		for d in -1 0 1; do
			echo $((e + d))
		done
	done | awk -v n="$count" '$1 >= 1 && $1 <= n && !seen[$1]++' |
		sort -n
}

# pages OUT TRACE EVENTS [OPTIONS]: for each event of the file EVENTS,
# "#K TIMES", TIMES the time column of the lines seqdiag draws around
# it (the selection mark included; not the header, whose order of
# lifelines depends on where reading began), joined by '|'; scripts of
# 200 events a run.
pages() {
	out=$1
	trace=$2
	events=$3
	shift 3
	: > "$out"
	split -l 200 "$events" "$TMPDIR_TEST/chunk."
	for chunk in "$TMPDIR_TEST"/chunk.*; do
		script="index"
		while read -r k; do
			script="$script; goto #$k; where; seqdiag 1000"
		done < "$chunk"
		rm -f "$chunk"
		"$TRACENAV" --no-cache "$@" --batch "$script" "$trace" \
			2>/dev/null
	done | awk '
	/^event [0-9]+ of / {
		if (k != "")
			print k, times
		k = "#" $2
		times = ""
		next
	}
	/^[ >][0-9][0-9]:[0-9][0-9]:/ { times = times substr($0, 1, 20) "|" }
	END { if (k != "") print k, times }' >> "$out"
}

# compare DESC TRACE EVENTS [OPTIONS]: the pages with and without the
# index of pages are the same at each event of EVENTS.
compare() {
	desc=$1
	trace=$2
	events=$3
	shift 3
	pages "$TMPDIR_TEST/with" "$trace" "$events" "$@"
	pages "$TMPDIR_TEST/without" "$trace" "$events" --no-seq-index "$@"
	total=$(wc -l < "$events")
	same=$(paste -d '\n' "$TMPDIR_TEST/with" "$TMPDIR_TEST/without" |
		awk 'NR % 2 { line = $0; next }
		     $0 == line && $2 != "" { same++ }
		     END { print same + 0 }')
	what="$desc: the page from the index is the page, at $same of $total events"
	if [ "$same" -eq "$total" ] &&
	   [ "$(wc -l < "$TMPDIR_TEST/with")" -eq "$total" ]; then
		ok "$what"
	else
		not_ok "$what"
		diff "$TMPDIR_TEST/without" "$TMPDIR_TEST/with" | head -4 |
			cut -c1-300 | sed 's/^/# /'
	fi
}

for case in messages kernel rare; do
	case $case in
	messages) trace=$messages; every=4; set -- ;;
	kernel) trace=$kernel; every=1; set -- ;;
	rare) trace=$kernel; every=1
		set -- --seq-rules "$TMPDIR_TEST/rare.rules" ;;
	esac
	{
		page_events "$trace" "$every" "$@" | spread "$most_starts"
		echo 1 17 2500 9999 15001 19990 | tr ' ' '\n'
	} > "$TMPDIR_TEST/starts"
	# shellcheck disable=SC2046
	around 20000 $(cat "$TMPDIR_TEST/starts") > "$TMPDIR_TEST/events"
	starts=$(($(wc -l < "$TMPDIR_TEST/starts") - 6))
	compare "$case ($starts page starts)" "$trace" "$TMPDIR_TEST/events" \
		"$@"
done

# A search primed from the index: the same message.
for k in 3 5000 12000; do
	a=$("$TRACENAV" --no-cache --no-seq-index --batch \
		"index; goto #$k; seqdiag-find ping; where" "$messages" \
		2>/dev/null)
	b=$("$TRACENAV" --no-cache --batch \
		"index; goto #$k; seqdiag-find ping; where" "$messages" \
		2>/dev/null)
	check "seqdiag-find ping from #$k: the same with the index" \
		[ -n "$a" ] && [ "$a" = "$b" ]
done

# ---- the shared corpus's kernel traces ----

# compare_shared NAME TRACE: compare at the trace's page starts and at
# its first, middle and last events.
compare_shared() {
	n=$(wc -l < "$TMPDIR_TEST/shared.dump")
	page_events "$2" 1 | spread "$most_starts" > "$TMPDIR_TEST/starts"
	starts=$(wc -l < "$TMPDIR_TEST/starts")
	# shellcheck disable=SC2046
	around "$n" $(cat "$TMPDIR_TEST/starts") 1 $((n / 2)) "$n" \
		> "$TMPDIR_TEST/events"
	compare "$1 ($starts page starts)" "$2" "$TMPDIR_TEST/events"
}
shared_wakeup_traces compare_shared

tap_done
