#!/bin/sh
# search, next and prev in --batch against grep -P over --dump: the
# events found are the lines grep finds (with -i when the pattern has no
# upper-case letter: smart case), in order, wrapping around; prev from
# the last event is the last match before it.  On generated traces
# (ties, lost events, several hosts, userspace contexts, packets without
# times, with and without the index) and on every readable trace of the
# shared corpus.  A search that finds nothing, and a bad regex: a
# message (with the column) and exit status 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

# The patterns, each with 'i' when it has no upper-case letter (grep -i
# then, as tracenav's smart case ignores case).
GENERATED_PATTERNS='i sched_switch
- Sched_Switch
i ^\[[0-9:]{8}\.[0-9]{6}5
i \(\+0\.000000000\)
i prev_tid = 1[0-9]{3},
i ret = -11, buf = 0x7ffc
- ret = -11, buf = 0x7FFC[0-9A-F]*0 }
i (?:app:send|irq_handler_exit).*(?:ret = 1|signal = 1)
i vpid = [0-9]+, vtid
i rocket.\S*, \w+_tid = 3500
i ^\S+ \S+ host1
i no such thing'
SHARED_PATTERNS='i _
i ^\[[0-9:]{8}\.[0-9]*[13579]\]
i \(\+0\.0000[0-9]
i = [0-9]{3}\b
- [A-Z]{2}
i zzqqxx nowhere'

# check_search DESC DIR FLAG PATTERN [OPTIONS]: search PATTERN, next,
# next, then bottom and prev, print the event each time; the same lines
# as grep over the dump ($TMPDIR_TEST/dump).
check_search() {
	desc=$1 dir=$2 flag=$3 re=$4 opts=$5
	case $flag in i) gi=-i ;; *) gi= ;; esac
	grep -a -n -P $gi -- "$re" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/hits" 2>/dev/null
	hits=$(wc -l < "$TMPDIR_TEST/hits")
	total=$(wc -l < "$TMPDIR_TEST/dump")
	if [ "$hits" -eq 0 ]; then
		"$TRACENAV" $opts --batch "search $re; print 1" "$dir" \
			> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
		status=$?
		if [ "$status" = 1 ] && [ ! -s "$TMPDIR_TEST/got" ] &&
		   grep -q -F "Pattern not found: $re" "$TMPDIR_TEST/err"; then
			ok "$desc: /$re/ finds nothing, as grep"
		else
			not_ok "$desc: /$re/ finds nothing, as grep"
			diag "exit $status; $(head -2 "$TMPDIR_TEST/err")"
		fi
		return
	fi
	n=$((hits < 3 ? hits : 3))
	script="search $re; print 1"
	i=1
	while [ $i -lt $n ]; do
		script="$script; next; print 1"
		i=$((i + 1))
	done
	head -n "$n" "$TMPDIR_TEST/hits" | cut -d: -f2- > "$TMPDIR_TEST/want"
	# prev from the last event: the last match before it, or (wrapping)
	# the last event itself.
	last=$(tail -1 "$TMPDIR_TEST/hits" | cut -d: -f1)
	if [ "$last" -eq "$total" ] && [ "$hits" -gt 1 ]; then
		tail -2 "$TMPDIR_TEST/hits" | head -1 | cut -d: -f2- >> "$TMPDIR_TEST/want"
	else
		tail -1 "$TMPDIR_TEST/hits" | cut -d: -f2- >> "$TMPDIR_TEST/want"
	fi
	script="$script; bottom; prev; print 1"
	"$TRACENAV" $opts --batch "$script" "$dir" > "$TMPDIR_TEST/got" \
		2> "$TMPDIR_TEST/err"
	if cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
		ok "$desc: /$re/ ($hits of $total lines): the first $n matches and the last, as grep -P${gi:+ -i}"
	else
		not_ok "$desc: /$re/ ($hits of $total lines): the first $n matches and the last, as grep -P${gi:+ -i}"
		diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -6 |
			cut -c1-160 | sed 's/^/# /'
		head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# check_patterns DESC DIR PATTERNS [OPTIONS]: every pattern.
check_patterns() {
	echo "$3" | while read -r flag re; do
		check_search "$1" "$2" "$flag" "$re" "$4"
	done > "$TMPDIR_TEST/results"
	while read -r line; do
		case $line in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) not_ok "${line#not ok * - }" ;;
		*) echo "$line" ;;
		esac
	done < "$TMPDIR_TEST/results"
}

generated() {
	name=$1
	shift
	dir="$TMPDIR_TEST/$name"
	"$GEN_TRACE" "$@" "$dir" >/dev/null
	"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
	check_patterns "$name" "$dir" "$GENERATED_PATTERNS" --no-cache
	# With the index (built first, then cached): slices by event
	# numbers.
	"$TRACENAV" --cache-dir "$TMPDIR_TEST/cache" --batch index "$dir" \
		>/dev/null 2>&1
	check_patterns "$name, indexed" "$dir" "$GENERATED_PATTERNS" \
		"--cache-dir $TMPDIR_TEST/cache"
}

generated kernel --events 60000 --cpus 4 --packet-size 8192 --ties 4 \
	--lost-every 5 --seed 7
generated hosts --events 30000 --cpus 2 --traces 2 --domain both \
	--mix mixed --packet-size 8192
generated no-times --events 20000 --cpus 3 --no-packet-times

# With a filter, only the events that pass it are searched.
dir="$TMPDIR_TEST/kernel"
"$TRACENAV" --dump "$dir" 2>/dev/null |
	grep -a -P '^\[[^]]*\] \([^)]*\) \S+ sched_switch: ' \
	> "$TMPDIR_TEST/kept"
grep -a -n -P -i 'prev_tid = 1[0-9]{3},' "$TMPDIR_TEST/kept" \
	> "$TMPDIR_TEST/hits"
head -3 "$TMPDIR_TEST/hits" | cut -d: -f2- > "$TMPDIR_TEST/want"
# prev from the last kept event: the last match before it.
if [ "$(tail -1 "$TMPDIR_TEST/hits" | cut -d: -f1)" = \
     "$(wc -l < "$TMPDIR_TEST/kept")" ]; then
	tail -2 "$TMPDIR_TEST/hits" | head -1
else
	tail -1 "$TMPDIR_TEST/hits"
fi | cut -d: -f2- >> "$TMPDIR_TEST/want"
"$TRACENAV" --no-cache --batch 'filter name == "sched_switch"
search prev_tid = 1[0-9]{3},; print 1; next; print 1; next; print 1
bottom; prev; print 1' "$dir" > "$TMPDIR_TEST/got" 2>/dev/null
check "with a filter: the matches among the events that pass it" \
	sh -c "test \$(wc -l < '$TMPDIR_TEST/hits') -gt 4 &&
		cmp -s '$TMPDIR_TEST/got' '$TMPDIR_TEST/want'"

# Errors: a bad regex names its column, nothing found says so; exit 1.
dir="$TMPDIR_TEST/kernel"
"$TRACENAV" --no-cache --batch "down 10; search sched_(switch; print 1" \
	"$dir" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
status=$?
check "bad regex: exit 1, nothing printed" \
	test "$status" = 1 -a ! -s "$TMPDIR_TEST/got"
check "bad regex: the message names the column" grep -q -F \
	'"search sched_(switch": bad regex: column 14: missing closing parenthesis' \
	"$TMPDIR_TEST/err"
"$TRACENAV" --no-cache --batch "next" "$dir" > /dev/null 2> "$TMPDIR_TEST/err"
status=$?
check "next without a search: exit 1 and says how to start one" \
	sh -c "test $status = 1 && grep -q 'no previous search: /REGEX or search REGEX starts one' '$TMPDIR_TEST/err'"
# A search that finds nothing stops the script (as a failing grep).
"$TRACENAV" --no-cache --batch "down 10; search nowhere at all; print 1" \
	"$dir" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
status=$?
check "nothing found: the script stops there (exit 1, nothing printed)" \
	test "$status" = 1 -a ! -s "$TMPDIR_TEST/got"
check "nothing found: says so" grep -q -F \
	'"search nowhere at all": Pattern not found: nowhere at all' \
	"$TMPDIR_TEST/err"
# Quotes and backslashes belong to the pattern (in a script, quotes
# must pair up: ';' inside them does not end the command).
"$TRACENAV" --dump "$dir" 2>/dev/null |
	grep -a -m1 -P 'next_comm = "back\\\\slash"' > "$TMPDIR_TEST/want"
"$TRACENAV" --no-cache --batch \
	'search next_comm = "back\\\\slash"; print 1' "$dir" \
	> "$TMPDIR_TEST/got" 2>/dev/null
check "quotes and backslashes are the pattern's" \
	sh -c "test -s '$TMPDIR_TEST/want' && cmp -s '$TMPDIR_TEST/got' '$TMPDIR_TEST/want'"

# The shared corpus: every trace that tracenav reads.
if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata | LC_ALL=C sort |
		sed 's|/metadata$||' | corpus_share > "$TMPDIR_TEST/dirs"
	echo "$SHARED_TRACES/babeltrace2/succeed/multi-domains" >> "$TMPDIR_TEST/dirs"
	read_count=0
	while read -r dir; do
		"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null ||
			continue
		[ -s "$TMPDIR_TEST/dump" ] || continue
		read_count=$((read_count + 1))
		check_patterns "${dir#"$SHARED_TRACES"/}" "$dir" \
			"$SHARED_PATTERNS" --no-cache
	done < "$TMPDIR_TEST/dirs"
	check "the shared corpus: traces searched ($read_count)" \
		test "$read_count" -gt 10
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
