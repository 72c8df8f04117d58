#!/bin/sh
# Filters against grep and awk over --dump's output: what filter-in and
# filter-out keep, count, what filter EXPR keeps, and the filtered list
# paged from random places, with and without the index, on generated
# traces and every readable trace under ../shared/traces.  A regex filter
# sees the line without its delta: the tests strip it from the dump.
# (A quote in a pattern is written \" so that the script's ';' after it
# still separates commands.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

# The dump of trace $1 in $TMPDIR_TEST/dump, and without the deltas in
# $TMPDIR_TEST/nodelta.
dump() {
	"$TRACENAV" --dump "$1" > "$TMPDIR_TEST/dump" 2>/dev/null
	sed -E 's/^(\[[^]]*\]) \(\+[^)]*\)/\1/' "$TMPDIR_TEST/dump" \
		> "$TMPDIR_TEST/nodelta"
}

# grep_opts RE: -i unless RE has an upper-case letter of its own
# (smart case; the letter after a backslash names an escape).
grep_opts() {
	if printf '%s' "$1" | sed 's/\\.//g' | grep -q '[[:upper:]]'; then
		echo "-P"
	else
		echo "-Pi"
	fi
}

# first_word FILE: the number tracenav printed first.
first_word() {
	sed -n '1s/ .*//p' "$1"
}

# count_is DESC TRACE SCRIPT WANT: the script's count is WANT.
count_is() {
	"$TRACENAV" --no-cache --batch "$3" "$2" > "$TMPDIR_TEST/got" \
		2>"$TMPDIR_TEST/err"
	got=$(first_word "$TMPDIR_TEST/got")
	if [ "$got" = "$4" ]; then
		ok "$1 ($4)"
	else
		not_ok "$1"
		diag "got '$got', want '$4'"
		head -3 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# Line numbers (in the dump) of the lines the filter keeps: in
# $TMPDIR_TEST/keep.
keep_grep() {
	# shellcheck disable=SC2046
	grep -n $(grep_opts "$1") -e "$1" "$TMPDIR_TEST/nodelta" |
		cut -d: -f1 > "$TMPDIR_TEST/keep"
}

keep_awk() {
	awk "$1 { print NR }" "$TMPDIR_TEST/nodelta" > "$TMPDIR_TEST/keep"
}

# The dump's lines whose numbers are in keep, from match FROM (1-based)
# on, COUNT of them.
kept_lines() {
	sed -n "$1,$(($1 + $2 - 1))p" "$TMPDIR_TEST/keep" |
		awk 'NR == FNR { want[$1]; next } FNR in want' - \
		"$TMPDIR_TEST/dump"
}

# same_lines DESC TRACE SCRIPT FROM COUNT [OPTIONS]: the script prints
# the kept lines FROM.., COUNT of them.
same_lines() {
	"$TRACENAV" $6 --batch "$3" "$2" > "$TMPDIR_TEST/got" \
		2>"$TMPDIR_TEST/err"
	kept_lines "$4" "$5" > "$TMPDIR_TEST/want"
	if [ -s "$TMPDIR_TEST/want" ] &&
	   cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 |
			cut -c1-160 | sed 's/^/# /'
		head -3 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# The index in keep (1-based) of the first kept line at or after dump
# line $1, else the last one.
kept_from_line() {
	awk -v line="$1" '$1 >= line { print NR; found = 1; exit }
		END { if (!found) print NR }' "$TMPDIR_TEST/keep"
}

# paging TRACE WHAT FILTER: the filtered list printed from random
# places and paged down and up (20-row pages), without and with the
# index, equals the slices of keep.
paging() {
	kept=$(wc -l < "$TMPDIR_TEST/keep")
	total=$(wc -l < "$TMPDIR_TEST/dump")
	for seed in 1 2 3; do
		line=$(( (seed * 7919 * total / 31) % total + 1 ))
		time=$(sed -n "${line}s/^\[\([^]]*\)\].*/\1/p" \
			"$TMPDIR_TEST/dump")
		first=$(grep -n -m1 -F "[$time]" "$TMPDIR_TEST/dump" |
			cut -d: -f1)
		at=$(kept_from_line "$first")
		down=$((at + 20 > kept ? kept : at + 20))
		up=$((at > 21 ? at - 20 : 1))
		n=$((kept - at + 1 < 15 ? kept - at + 1 : 15))
		for how in "--no-cache" "--cache-dir $TMPDIR_TEST/cache"; do
			pre=
			label="no index"
			[ "$how" = "--no-cache" ] || {
				pre="index; "
				label="indexed"
			}
			same_lines "$2 ($label): goto $time, print" "$1" \
				"$pre$3; goto $time; print $n" "$at" "$n" "$how"
			same_lines "$2 ($label): goto $time, pgdn" "$1" \
				"$pre$3; goto $time; pgdn; print 1" "$down" 1 \
				"$how"
			same_lines "$2 ($label): goto $time, pgup" "$1" \
				"$pre$3; goto $time; pgup; print 1" "$up" 1 "$how"
		done
	done
	same_lines "$2: bottom" "$1" "$3; bottom; print 1" "$kept" 1 \
		--no-cache
	same_lines "$2 (indexed): bottom, up 25" "$1" "index; $3; bottom; up 25; print 3" \
		$((kept > 25 ? kept - 25 : 1)) 3 "--cache-dir $TMPDIR_TEST/cache"
	k=$(( (kept + 1) / 2 ))
	same_lines "$2 (indexed): goto #$k is match $k" "$1" \
		"index; $3; goto #$k; print 2" "$k" 2 \
		"--cache-dir $TMPDIR_TEST/cache"
}

# regex_checks TRACE NAME RE...: filter-in and filter-out counts against
# grep -c (and -v).
regex_checks() {
	trace=$1
	name=$2
	shift 2
	for re in "$@"; do
		# shellcheck disable=SC2046
		want=$(grep -c $(grep_opts "$re") -e "$re" \
			"$TMPDIR_TEST/nodelta")
		count_is "$name: filter-in $re: count = grep -c" "$trace" \
			"filter-in $re; count" "$want"
		# shellcheck disable=SC2046
		want=$(grep -vc $(grep_opts "$re") -e "$re" \
			"$TMPDIR_TEST/nodelta")
		count_is "$name: filter-out $re: count = grep -vc" "$trace" \
			"filter-out $re; count" "$want"
	done
}

# ---- a generated kernel trace ----

kernel="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 30000 --cpus 4 --packet-size 8192 --seed 5 \
	--hang-every 997 --lost-every 9 "$kernel" >/dev/null
dump "$kernel"
total=$(wc -l < "$TMPDIR_TEST/dump")

regex_checks "$kernel" kernel 'sched_wakeup' 'prev_tid = 1[0-9]{3},' \
	'IRQ|Xorg' 'comm = "[a-z]+"' '^\[\d\d:\d\d:\d\d\.\d{8}5\]' \
	'cpu_id = [02] }.*ret = -\d' '\"' 'sched_(switch|wakeup): .*prio = -?9\d' \
	'\d\] [a-z]'

count_is "kernel: two filters: both must pass" "$kernel" \
	"filter-in sched; filter-out wakeup; count" \
	"$(grep -i sched "$TMPDIR_TEST/nodelta" | grep -vic wakeup)"
count_is "kernel: no filter: count is every event" "$kernel" count "$total"

# filter EXPR against awk: $3 is the name with its colon.
count_is "kernel: filter name == sched_switch = awk" "$kernel" \
	'filter name == "sched_switch"; count' \
	"$(awk '$3 == "sched_switch:"' "$TMPDIR_TEST/nodelta" | wc -l)"
count_is "kernel: filter name =~ ^sched_process = awk" "$kernel" \
	'filter name =~ "^sched_process"; count' \
	"$(awk '$3 ~ /^sched_process/' "$TMPDIR_TEST/nodelta" | wc -l)"
count_is "kernel: filter cpu == 2 || cpu == 0 = grep" "$kernel" \
	'filter cpu == 2 || cpu == 0; count' \
	"$(grep -cE 'cpu_id = [02] }' "$TMPDIR_TEST/nodelta")"
awk_tid='match($0, /prev_tid = [0-9]+,/) &&
	substr($0, RSTART + 11, RLENGTH - 12) + 0 > 1000'
count_is "kernel: filter prev_tid > 1000 = awk" "$kernel" \
	'filter prev_tid > 1000; count' \
	"$(awk "$awk_tid" "$TMPDIR_TEST/nodelta" | wc -l)"
count_is "kernel: filter prev_tid > 0x3e8 && !(cpu == 1) = awk" "$kernel" \
	'filter prev_tid > 0x3e8 && !(cpu == 1); count' \
	"$(awk "($awk_tid) && !/cpu_id = 1 }/" "$TMPDIR_TEST/nodelta" | wc -l)"
count_is "kernel: a missing field never compares" "$kernel" \
	'filter nosuchfield != 3; count' 0
count_is "kernel: filter and filter-in stack" "$kernel" \
	'filter name == "sched_switch"; filter-in prev_tid = 0,; count' \
	"$(grep -c 'sched_switch: .*prev_tid = 0,' "$TMPDIR_TEST/nodelta")"

# Filters that hide every event: the commands say so, and removing them
# brings the list back to the event it was on.
"$TRACENAV" --keep-going --no-cache --batch "goto 40%; where; \
	filter-in zq_nothing; where; state; filter-in sched; clear-filters; \
	where" "$kernel" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
check "no event passes: where and state say so" test \
	"$(grep -c -e '"where": where: no event passes the filters' \
		-e '"state": state: no event passes the filters' \
		"$TMPDIR_TEST/err")" = 2
check "filters removed: back on the event of before ($(head -1 \
	"$TMPDIR_TEST/got"))" test "$(wc -l < "$TMPDIR_TEST/got")" = 2 -a \
	"$(sed -n 1p "$TMPDIR_TEST/got")" = "$(sed -n 2p "$TMPDIR_TEST/got")"

# What the list shows, from random places, paged.
keep_grep 'sched_process_hang'
paging "$kernel" "kernel: filter-in hang" "filter-in sched_process_hang"
keep_awk '$3 == "sched_process_hang:"'
paging "$kernel" "kernel: filter name (rare, no pass)" \
	'filter name == "sched_process_hang"'
keep_grep 'prev_tid = 1[0-9]{3},'
paging "$kernel" "kernel: filter-in prev_tid" 'filter-in prev_tid = 1[0-9]{3},'
keep_awk '!/cpu_id = 1 }/'
paging "$kernel" "kernel: filter cpu != 1" 'filter cpu != 1'

# Toggles, removal, clearing.
count_is "kernel: filter-toggle disables a filter" "$kernel" \
	"filter-in sched; filter-out wakeup; filter-toggle 2; count" \
	"$(grep -ic sched "$TMPDIR_TEST/nodelta")"
count_is "kernel: filter-toggle again enables it" "$kernel" \
	"filter-in sched; filter-out wakeup; filter-toggle 2; filter-toggle 2; count" \
	"$(grep -i sched "$TMPDIR_TEST/nodelta" | grep -vic wakeup)"
count_is "kernel: filter-remove" "$kernel" \
	"filter-in sched; filter-out wakeup; filter-remove 1; count" \
	"$(grep -vic wakeup "$TMPDIR_TEST/nodelta")"
count_is "kernel: clear-filters" "$kernel" \
	"filter-in sched; filter-out wakeup; clear-filters; count" "$total"
"$TRACENAV" --no-cache --batch 'filter-in sched; filter cpu == 1; filter-toggle 1; filters' \
	"$kernel" > "$TMPDIR_TEST/got" 2>&1
check "filters lists number, state, kind and text" \
	grep -q '^1 \[ \] filter-in  sched$' "$TMPDIR_TEST/got"
check "filters: the second one enabled" \
	grep -q '^2 \[x\] filter     cpu == 1$' "$TMPDIR_TEST/got"
"$TRACENAV" --cache-dir "$TMPDIR_TEST/cache" --batch 'index; filter-in sched; filters' \
	"$kernel" > "$TMPDIR_TEST/got" 2>&1
check "filters: with the index, the match count" grep -q \
	"^$(grep -ic sched "$TMPDIR_TEST/nodelta") events pass the filters$" \
	"$TMPDIR_TEST/got"

# Bad input: a message with the column, exit status 1.
bad() {
	"$TRACENAV" --no-cache --batch "$2" "$kernel" > /dev/null \
		2>"$TMPDIR_TEST/err"
	status=$?
	if [ "$status" = 1 ] && grep -q -F "$3" "$TMPDIR_TEST/err"; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit $status"
		sed 's/^/# /' "$TMPDIR_TEST/err"
	fi
}
bad "a bad regex: its column, exit 1" "down 5; filter-in a(b; print 1" \
	'"filter-in a(b": bad regex: column 4: missing closing parenthesis'
bad "a bad expression: its column (in EXPR), exit 1" \
	"filter cpu == 2 &&" 'column 12: expected a comparison'
bad "an unknown operator" 'filter name = "x"' \
	"column 6: '=' alone is no operator"
bad "filter-toggle of a filter that is not there" \
	"filter-in x; filter-toggle 2" 'give 1 to 1'
bad "filter-remove without filters" "filter-remove 1" 'there is no filter'
bad "filter-in without a regex" "filter-in" 'filter-in'

# ---- a userspace trace with contexts, and lost events ----

ust="$TMPDIR_TEST/ust"
"$GEN_TRACE" --events 15000 --domain ust --seed 9 --lost-every 5 \
	--packet-size 4096 "$ust" >/dev/null
dump "$ust"
regex_checks "$ust" ust 'app:send' 'vtid = 10\d\d' 'signal = "[^"]*\\'
count_is "ust: filter \$ctx.vtid == 1001 = grep" "$ust" \
	'filter $ctx.vtid == 1001; count' \
	"$(grep -c 'vtid = 1001,' "$TMPDIR_TEST/nodelta")"
count_is "ust: filter name == \"app:receive\" && seq > 100 = awk" "$ust" \
	'filter name == "app:receive" && seq > 100; count' \
	"$(awk '$3 == "app:receive:" && match($0, /seq = [0-9]+/) &&
		substr($0, RSTART + 6, RLENGTH - 6) + 0 > 100' \
		"$TMPDIR_TEST/nodelta" | wc -l)"
keep_grep 'receive'
paging "$ust" "ust: filter-in receive" "filter-in receive"

# ---- a collection: one event name from several traces ----

# Each trace of a collection has its own event classes: an interval
# of the index where two traces meet holds sched_switch twice, and the
# name filter's counts from the index must add them up.
coll="$TMPDIR_TEST/coll"
"$GEN_TRACE" --events 6000 --cpus 2 --hostname alpha --seed 1 \
	"$coll/a" >/dev/null
"$GEN_TRACE" --events 6000 --cpus 2 --hostname gamma --seed 3 \
	--start 1700000002 "$coll/c" >/dev/null
dump "$coll"
"$TRACENAV" --batch index "$coll" >/dev/null 2>"$TMPDIR_TEST/err"
check "collection: the index is saved, without a complaint" eval \
	'! grep -q "cannot save" "$TMPDIR_TEST/err" &&
	 [ -n "$(find "$XDG_CACHE_HOME" -name "*.index")" ]'
grep "cannot" "$TMPDIR_TEST/err" | head -2 | sed 's/^/# /'
"$TRACENAV" --batch 'filter name == "sched_switch"; count' "$coll" \
	> "$TMPDIR_TEST/got" 2>/dev/null
check "collection: filter name == \"sched_switch\" from the cached index = grep" \
	[ "$(first_word "$TMPDIR_TEST/got")" = \
	  "$(grep -c ' sched_switch: ' "$TMPDIR_TEST/nodelta")" ]

# ---- the shared traces ----

if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata -type f | sed 's,/metadata$,,' |
		sort | corpus_share > "$TMPDIR_TEST/dirs"
	while read -r dir; do
		name=${dir#"$SHARED_TRACES"/}
		"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null ||
			continue
		[ -s "$TMPDIR_TEST/dump" ] || continue
		sed -E 's/^(\[[^]]*\]) \(\+[^)]*\)/\1/' "$TMPDIR_TEST/dump" \
			> "$TMPDIR_TEST/nodelta"
		regex_checks "$dir" "$name" '= [0-9]{2}[,} ]' ': \{ .*\"' 'E'
		count_is "$name: filter name =~ \".\" keeps every event" \
			"$dir" 'filter name =~ "."; count' \
			"$(wc -l < "$TMPDIR_TEST/dump")"
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared traces at $SHARED_TRACES"
fi

tap_done
