#!/bin/sh
# --batch runs the commands of the event list without a terminal; what
# `print` prints must be the matching lines of --dump, with the same
# deltas, wherever the commands moved the cursor.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

dir="$TMPDIR_TEST/trace"
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 4096 --lost-every 7 \
	--seed 23 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
total=$(wc -l < "$TMPDIR_TEST/dump")

# lines FROM COUNT: lines FROM.. of the dump (1-based).
lines() {
	sed -n "$1,$(($1 + $2 - 1))p" "$TMPDIR_TEST/dump"
}

# batch_is DESC SCRIPT FROM COUNT: the script prints dump lines FROM...
batch_is() {
	"$TRACENAV" --batch "$2" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
	lines "$3" "$4" > "$TMPDIR_TEST/want"
	if cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
		head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

batch_is "print from the start" "print 5" 1 5
batch_is "down then print" "down 100; print 3" 101 3
batch_is "down and up" "down 500; up 123; print 2" 378 2
batch_is "pgdn three times (20-row pages)" "pgdn; pgdn; pgdn; print 1" 61 1
batch_is "up at the start stays on the first event" "up 5; print 1" 1 1
batch_is "bottom" "bottom; print 5" "$total" 1
batch_is "bottom then up" "bottom; up 10; print 11" $((total - 10)) 11
batch_is "down past the end stops at the last event" "down 999999; print 1" "$total" 1
batch_is "top after bottom" "bottom; top; print 2" 1 2
batch_is "goto 0%" "goto 0%; print 1" 1 1
batch_is "goto 100%" "goto 100%; print 1" "$total" 1
batch_is "aliases j and k" "j 10; k 3; p 1" 8 1

# goto TIME lands on the first event at that time (ties included),
# with the delta of the event before it: times from babeltrace2.
if have_babeltrace2; then
	babeltrace2 --clock-seconds "$dir" 2>/dev/null |
		sed 's/^\[\([^]]*\)\].*/\1/' > "$TMPDIR_TEST/secs"
	for k in 2 777 5000 9999 12345 15000 19990 "$total"; do
		t=$(sed -n "${k}p" "$TMPDIR_TEST/secs")
		first=$(grep -n -m1 -xF "$t" "$TMPDIR_TEST/secs" | cut -d: -f1)
		count=5
		[ $((first + count - 1)) -gt "$total" ] && count=$((total - first + 1))
		batch_is "goto SEC.NS of event $k, print $count" "goto $t; print 5" "$first" "$count"
		batch_is "goto event $k, pgup" "goto $t; pgup; print 1" \
			$(( first > 20 ? first - 20 : 1 )) 1
	done
	# A time of day in UTC (the trace starts on 2023-11-14).
	tod=$(sed -n '10000s/^\[\([^]]*\)\].*/\1/p' "$TMPDIR_TEST/dump")
	first=$(grep -n -m1 "^\[$tod\]" "$TMPDIR_TEST/dump" | cut -d: -f1)
	batch_is "goto HH:MM:SS.NS" "goto $tod; print 2" "$first" 2
	# A date and a time: two words, the rest of the line, with or
	# without quotes.
	batch_is "goto YYYY-MM-DD HH:MM:SS.NS (unquoted)" \
		"goto 2023-11-14 $tod; print 2" "$first" 2
	batch_is "goto \"YYYY-MM-DD HH:MM:SS.NS\"" \
		"goto \"2023-11-14 $tod\"; print 2" "$first" 2
	batch_is "goto 'YYYY-MM-DD HH:MM:SS.NS'" \
		"goto '2023-11-14 $tod'; print 2" "$first" 2
else
	skip "babeltrace2 CLI not installed"
fi

# Event numbers: the index is built on demand and saved in the cache.
batch_is "goto #1" "goto #1; print 2" 1 2
for k in 2 4096 4097 8193 12345 "$total"; do
	batch_is "goto #$k" "goto #$k; print 1" "$k" 1
done
batch_is "goto past the last number" "goto #$((total + 5)); print 1" "$total" 1
batch_is "goto #K then moves" "goto #9000; up 10; pgdn; print 1" 9010 1
"$TRACENAV" --batch "goto #777; where; bottom; where; goto 50%; where" "$dir" \
	> "$TMPDIR_TEST/got" 2>/dev/null
check "where: event numbers after goto #, bottom" \
	grep -q "^event 777 of $total at" "$TMPDIR_TEST/got"
check "where: the last event" grep -q "^event $total of $total at" "$TMPDIR_TEST/got"
check "where: a time jump gets its event number" \
	test "$(grep -c "^event [0-9]* of $total at" "$TMPDIR_TEST/got")" = 3
cachefile=$(ls "$XDG_CACHE_HOME"/tracenav/*.index 2>/dev/null | head -1)
check "the index was saved in the cache" test -n "$cachefile"
"$TRACENAV" --batch "index" "$dir" > /dev/null 2> "$TMPDIR_TEST/err"
check "index: says how many events" grep -q "^$total events indexed" "$TMPDIR_TEST/err"
if [ -n "$cachefile" ]; then
	# Damage the cache file: it is detected, removed and rebuilt.
	printf 'XX' | dd of="$cachefile" bs=1 seek=100 conv=notrunc 2>/dev/null
	"$TRACENAV" --batch "goto #4097; print 1" "$dir" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
	check "a damaged cache file is reported" grep -q "indexing again" "$TMPDIR_TEST/err"
	lines 4097 1 > "$TMPDIR_TEST/want"
	check "and the index is rebuilt right" cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
fi
"$TRACENAV" --no-cache --batch "goto #3; print 1" "$dir" > "$TMPDIR_TEST/got" 2>&1
lines 3 1 > "$TMPDIR_TEST/want"
check "--no-cache still indexes in memory" cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
"$TRACENAV" --batch "goto #0" "$dir" > /dev/null 2> "$TMPDIR_TEST/err"
check "goto #0 is an error" grep -q "not an event number" "$TMPDIR_TEST/err"
: > "$TMPDIR_TEST/file"
"$TRACENAV" --cache-dir "$TMPDIR_TEST/file/sub" --batch "goto #3; print 1" "$dir" \
	> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
check "an unwritable cache dir: the index stays in memory, said once" \
	test "$(grep -c "stays in memory" "$TMPDIR_TEST/err")" = 1
check "an unwritable cache dir: the command still works" \
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"

# A trace without packet indexes: no sliced seeks, the slow path must
# give the same events.
if have_babeltrace2; then
	noindex="$TMPDIR_TEST/noindex"
	"$GEN_TRACE" --events 6000 --cpus 3 --packet-size 4096 --no-index --seed 29 \
		"$noindex" >/dev/null
	"$TRACENAV" --dump "$noindex" > "$TMPDIR_TEST/ndump" 2>/dev/null
	TZ=UTC babeltrace2 --clock-seconds "$noindex" 2>/dev/null |
		sed -n '4000s/^\[\([^]]*\)\].*/\1/p' > "$TMPDIR_TEST/nsec"
	t=$(cat "$TMPDIR_TEST/nsec")
	"$TRACENAV" --batch "goto $t; pgup; print 2; goto #5000; print 1; bottom; up 25; print 1" \
		"$noindex" > "$TMPDIR_TEST/got" 2>&1
	first=$(TZ=UTC babeltrace2 --clock-seconds "$noindex" 2>/dev/null |
		grep -n -m1 "^\[$t\]" | cut -d: -f1)
	{ sed -n "$((first - 20)),$((first - 19))p" "$TMPDIR_TEST/ndump"
	  sed -n '5000p' "$TMPDIR_TEST/ndump"; sed -n '5975p' "$TMPDIR_TEST/ndump"; } > "$TMPDIR_TEST/want"
	check "no packet index: goto, pgup, goto #K, bottom read the same events" \
		cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
else
	skip "babeltrace2 CLI not installed"
fi

# Packets without times (as DPDK writes them): no packet time range,
# no packet index, and libbabeltrace2's trimmer crashes on them.  goto
# TIME lands on the first event at or after TIME, NN% waits for the
# events' span (the index), and --dump --begin/--end cuts by time
# itself: the same lines as babeltrace2's full output cut by time.
if have_babeltrace2; then
	np="$TMPDIR_TEST/no-packet-times"
	"$GEN_TRACE" --events 12000 --cpus 3 --packet-size 4096 --no-packet-times \
		--lost-every 6 --seed 31 --plan "$TMPDIR_TEST/np.plan" "$np" >/dev/null
	"$TRACENAV" --dump "$np" > "$TMPDIR_TEST/npdump" 2>/dev/null
	babeltrace2 "$np" > "$TMPDIR_TEST/npfull" 2>/dev/null
	babeltrace2 --clock-seconds "$np" 2>/dev/null |
		sed 's/^\[\([^]]*\)\].*/\1/' > "$TMPDIR_TEST/npsecs"
	np_total=$(wc -l < "$TMPDIR_TEST/npdump")
	check "no-packet-times: --dump reads every event" \
		test "$np_total" = 12000
	# np_is DESC SCRIPT FROM COUNT: the script prints dump lines FROM...
	np_is() {
		"$TRACENAV" --batch "$2" "$np" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
		np_status=$?
		sed -n "$3,$(($3 + $4 - 1))p" "$TMPDIR_TEST/npdump" > "$TMPDIR_TEST/want"
		if [ "$np_status" = 0 ] && cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
			ok "$1"
		else
			not_ok "$1"
			diag "exit $np_status"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
			head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
		fi
	}
	# first_at SEC.NS: the line of the first event at or after it (the
	# times have one width: they compare as strings).
	first_at() {
		awk -v t="$1" '$1 "" >= t "" { print NR; exit }' "$TMPDIR_TEST/npsecs"
	}
	for k in 2 1234 6000 11990; do
		t=$(sed -n "${k}p" "$TMPDIR_TEST/npsecs")
		first=$(first_at "$t")
		np_is "no-packet-times: goto SEC.NS of event $k" "goto $t; print 3" \
			"$first" 3
		np_is "no-packet-times: goto event $k, pgup" "goto $t; pgup; print 1" \
			$(( first > 20 ? first - 20 : 1 )) 1
	done
	tod=$(sed -n '7000s/^\[\([^]]*\)\].*/\1/p' "$TMPDIR_TEST/npdump")
	first=$(grep -n -m1 "^\[$tod\]" "$TMPDIR_TEST/npdump" | cut -d: -f1)
	np_is "no-packet-times: goto HH:MM:SS.NS (on the first event's date)" \
		"goto $tod; print 2" "$first" 2
	t=$(sed -n '7000p' "$TMPDIR_TEST/npsecs")
	ns=$(( $(echo "$t" | tr -d .) + 1 ))
	t=$(printf '%d.%09d' $((ns / 1000000000)) $((ns % 1000000000)))
	np_is "no-packet-times: goto 1 ns after an event" "goto $t; print 1" \
		"$(first_at "$t")" 1
	"$TRACENAV" --batch "goto $tod; where" "$np" > "$TMPDIR_TEST/got" 2>&1
	check "no-packet-times: where (no index): the time" \
		grep -q "^at 2023-11-14 $tod\$" "$TMPDIR_TEST/got"
	"$TRACENAV" --batch "goto 50%" "$np" > /dev/null 2> "$TMPDIR_TEST/err"
	np_status=$?
	check "no-packet-times: NN% before the index: exit 1" test "$np_status" = 1
	check "no-packet-times: NN% before the index: time range not known yet" \
		grep -q "goto 50%.*time range not known yet.*index" "$TMPDIR_TEST/err"
	"$TRACENAV" --batch "index; goto $tod; where; goto #4321; where" "$np" \
		> "$TMPDIR_TEST/got" 2>/dev/null
	check "no-packet-times: where (indexed): the event number" \
		grep -q "^event $first of 12000 at 2023-11-14 $tod\$" "$TMPDIR_TEST/got"
	check "no-packet-times: goto #K, where" \
		grep -q "^event 4321 of 12000 at " "$TMPDIR_TEST/got"
	np_is "no-packet-times: goto #K (indexed)" "index; goto #4321; print 1" 4321 1
	first_ns=$(sed -n 's/^first_ns //p' "$TMPDIR_TEST/np.plan")
	last_ns=$(sed -n 's/^last_ns //p' "$TMPDIR_TEST/np.plan")
	for pc in 25 50 90; do
		mid=$((first_ns + (last_ns - first_ns) * pc / 100))
		t=$(printf '%d.%09d' $((mid / 1000000000)) $((mid % 1000000000)))
		np_is "no-packet-times: goto $pc% (indexed): the events' span" \
			"index; goto $pc%; print 1" "$(first_at "$t")" 1
	done
	np_is "no-packet-times: goto 100% (indexed)" "index; goto 100%; print 1" 12000 1
	np_is "no-packet-times: bottom, up" "bottom; up 30; print 2" 11970 2
	# --dump --begin/--end: babeltrace2's full output cut by time (the
	# first line's delta is unknown when cut, as with babeltrace2
	# --begin on other traces).
	ta=$(sed -n '3000p' "$TMPDIR_TEST/npsecs")
	tb=$(sed -n '8000p' "$TMPDIR_TEST/npsecs")
	cut_by_time() {
		paste -d '\t' "$TMPDIR_TEST/npsecs" "$TMPDIR_TEST/npfull" |
			awk -F '\t' -v a="$1" -v b="$2" \
			'(a == "" || $1 "" >= a "") && (b == "" || $1 "" <= b "") { print $2 }' |
			sed '1s/(+[0-9]*\.[0-9]*)/(+?.?????????)/'
	}
	for bounds in "$ta|$tb" "$ta|" "|$tb"; do
		a=${bounds%|*}
		b=${bounds#*|}
		cut_by_time "$a" "$b" > "$TMPDIR_TEST/want"
		"$TRACENAV" --dump ${a:+--begin "$a"} ${b:+--end "$b"} "$np" \
			> "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
		np_status=$?
		what="no-packet-times: --dump ${a:+--begin }${b:+--end }= babeltrace2's output cut by time"
		if [ "$np_status" = 0 ] && [ -s "$TMPDIR_TEST/want" ] &&
		   cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
			ok "$what"
		else
			not_ok "$what"
			diag "exit $np_status"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
			head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
		fi
	done
	tod_b=$(sed -n '9000s/^\[\([^]]*\)\].*/\1/p' "$TMPDIR_TEST/npdump")
	"$TRACENAV" --dump --begin "$tod" --end "$tod_b" "$np" > "$TMPDIR_TEST/got" 2>/dev/null
	np_status=$?
	check "no-packet-times: --dump --begin/--end HH:MM:SS.NS: no crash, the events between" \
		test "$np_status" = 0 -a "$(wc -l < "$TMPDIR_TEST/got")" = \
		"$(( $(grep -n "^\[$tod_b\]" "$TMPDIR_TEST/npdump" | tail -1 | cut -d: -f1) - first + 1 ))"
else
	skip "babeltrace2 CLI not installed"
fi

# Errors: a message naming the command, exit 1, the output so far kept.
"$TRACENAV" --batch "print 1; goto yesterday; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
status=$?
check "bad time: exit 1" test "$status" = 1
check "bad time: message names the command" grep -q 'goto yesterday.*invalid time' "$TMPDIR_TEST/err"
check "bad time: what ran before it printed" test "$(wc -l < "$TMPDIR_TEST/got")" = 1
"$TRACENAV" --batch "frobnicate" "$dir" 2>"$TMPDIR_TEST/err" >/dev/null
check "unknown command: exit 1 and says so" \
	grep -q 'unknown command "frobnicate"' "$TMPDIR_TEST/err"
"$TRACENAV" --batch "down 1 2" "$dir" 2>"$TMPDIR_TEST/err" >/dev/null
check "too many arguments: usage" grep -q 'usage: down \[N\]' "$TMPDIR_TEST/err"
"$TRACENAV" --batch "help" "$dir" > "$TMPDIR_TEST/got" 2>&1
for cmd in goto down up pgdn pgup top bottom print detail where index help quit; do
	check "help lists $cmd" grep -q "^$cmd " "$TMPDIR_TEST/got"
done
"$TRACENAV" --batch "help goto; help q" "$dir" > "$TMPDIR_TEST/got" 2>&1
check "help COMMAND: its usage" grep -q "^goto TIME" "$TMPDIR_TEST/got"
check "help COMMAND: its help line" \
	grep -q "^go to the first event at or after" "$TMPDIR_TEST/got"
check "help ALIAS: the command it names" grep -q "^quit (q)$" "$TMPDIR_TEST/got"
"$TRACENAV" --batch "help nope" "$dir" > "$TMPDIR_TEST/got" 2>&1
status=$?
check "help of an unknown command: exit 1" test "$status" = 1
check "help of an unknown command: says so" \
	grep -q "no command 'nope'" "$TMPDIR_TEST/got"
"$TRACENAV" --batch "down 3; detail" "$dir" > "$TMPDIR_TEST/got" 2>&1
name=$(sed -n '4s/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\): .*/\1/p' "$TMPDIR_TEST/dump")
check "detail shows the event's name" grep -q "^name: $name\$" "$TMPDIR_TEST/got"
check "detail shows its payload" grep -q "^payload:" "$TMPDIR_TEST/got"

# An event whose payload has no field at all (gen-trace's app:flush, as
# LTTng-UST's lttng_ust_statedump:start): detail shows its contexts but
# no "payload:" heading; the next app:send still has one.
ust="$TMPDIR_TEST/ust"
"$GEN_TRACE" --events 3000 --cpus 2 --domain ust --seed 37 \
	--plan "$TMPDIR_TEST/ust.plan" "$ust" >/dev/null
"$TRACENAV" --dump "$ust" > "$TMPDIR_TEST/udump" 2>/dev/null
flushes=$(sed -n 's/^event_count app:flush //p' "$TMPDIR_TEST/ust.plan")
check "userspace trace: the plan counts app:flush events (${flushes:-none})" \
	test "${flushes:-0}" -gt 0
k=$(grep -n -m1 '^[^ ]* ([^)]*) [^ ]* app:flush: ' "$TMPDIR_TEST/udump" | cut -d: -f1)
k2=$(sed -n "$((${k:-0} + 1)),\$p" "$TMPDIR_TEST/udump" |
	grep -n -m1 '^[^ ]* ([^)]*) [^ ]* app:send: ' | cut -d: -f1)
if [ -n "$k" ] && [ -n "$k2" ]; then
	k2=$((k + k2))
	"$TRACENAV" --batch "goto #$k; print 1" "$ust" > "$TMPDIR_TEST/got" 2>&1
	sed -n "${k}p" "$TMPDIR_TEST/udump" > "$TMPDIR_TEST/want"
	check "goto #$k: the first app:flush, its --dump line" \
		cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
	"$TRACENAV" --batch "goto #$k; detail" "$ust" > "$TMPDIR_TEST/got" 2>&1
	check "detail of app:flush: its name" grep -q '^name: app:flush$' "$TMPDIR_TEST/got"
	check "detail of app:flush: its context" \
		grep -q '^  procname = ' "$TMPDIR_TEST/got"
	check "detail of app:flush: no payload heading (an empty payload)" \
		test -z "$(grep '^payload' "$TMPDIR_TEST/got")"
	"$TRACENAV" --batch "goto #$k2; detail" "$ust" > "$TMPDIR_TEST/got" 2>&1
	check "detail of the next app:send (#$k2): its name" \
		grep -q '^name: app:send$' "$TMPDIR_TEST/got"
	check "detail of the next app:send: a payload heading" \
		grep -q '^payload:$' "$TMPDIR_TEST/got"
	check "detail of the next app:send: its sender under it" \
		grep -q '^  sender = ' "$TMPDIR_TEST/got"
else
	not_ok "userspace trace: an app:flush then an app:send in --dump"
fi
"$TRACENAV" --batch "print 1; quit; print 1" "$dir" > "$TMPDIR_TEST/got" 2>&1
check "quit stops the script" test "$(wc -l < "$TMPDIR_TEST/got")" = 1

# --batch-file: the same commands from a file (or standard input), run
# as read; failures named with their line; --keep-going goes past them.
script="$TMPDIR_TEST/script"
printf 'print 2\ndown 10; print 1\necho one\n' > "$script"
"$TRACENAV" --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" 2>&1
{ lines 1 2; lines 11 1; echo one; } > "$TMPDIR_TEST/want"
check "--batch-file: the file's commands, ';' too, echo among them" \
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
"$TRACENAV" --batch-file - "$dir" < "$script" > "$TMPDIR_TEST/got" 2>&1
check "--batch-file -: from standard input" \
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
printf "echo 'a\nb'\nprint 1" > "$script"
"$TRACENAV" --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" 2>&1
{ printf 'a\nb\n'; lines 1 1; } > "$TMPDIR_TEST/want"
check "--batch-file: a quote across lines, a last line without newline" \
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
printf 'print 1\n\nsearch zq_nothing\nprint 1\n' > "$script"
"$TRACENAV" --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" \
	2> "$TMPDIR_TEST/err"
status=$?
check "--batch-file: a failure stops the script (exit $status)" \
	test "$status" = 1 -a "$(wc -l < "$TMPDIR_TEST/got")" = 1
check "--batch-file: the failure names the file and its line" \
	grep -q -F "tracenav: $script:3: \"search zq_nothing\": Pattern not found" \
	"$TMPDIR_TEST/err"
printf 'print 1\nsearch zq_nothing\nnosuch\ndown 1; print 1\n' > "$script"
"$TRACENAV" --keep-going --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" \
	2> "$TMPDIR_TEST/err"
status=$?
lines 1 2 > "$TMPDIR_TEST/want"
check "--keep-going: the commands after the failures run (exit $status)" \
	test "$status" = 1 -a "$(cmp "$TMPDIR_TEST/got" "$TMPDIR_TEST/want" && echo same)" = same
check "--keep-going: each failure, then their count" \
	test "$(grep -c -e ':2: "search' -e ':3: "nosuch"' "$TMPDIR_TEST/err")" = 2 \
	-a "$(tail -1 "$TMPDIR_TEST/err")" = "tracenav: 2 commands failed"
"$TRACENAV" --keep-going --batch 'search zq_nothing; print 1' "$dir" \
	> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
check "--keep-going with --batch too" \
	test "$(wc -l < "$TMPDIR_TEST/got")" = 1 -a \
	"$(tail -1 "$TMPDIR_TEST/err")" = "tracenav: 1 command failed"
"$TRACENAV" --keep-going --batch 'print 1' "$dir" > /dev/null \
	2> "$TMPDIR_TEST/err"
check "--keep-going: nothing failed, exit 0 and no count" \
	test $? = 0 -a ! -s "$TMPDIR_TEST/err"
printf 'print 1\nquit\nprint 1\n' > "$script"
"$TRACENAV" --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" 2>&1
check "--batch-file: quit stops reading" \
	test $? = 0 -a "$(wc -l < "$TMPDIR_TEST/got")" = 1
printf 'print 1\nprint\0 1\nprint 1\n' > "$script"
"$TRACENAV" --keep-going --batch-file "$script" "$dir" > "$TMPDIR_TEST/got" \
	2> "$TMPDIR_TEST/err"
check "--batch-file: a NUL byte stops the script, named with its line" \
	test $? = 1 -a "$(wc -l < "$TMPDIR_TEST/got")" = 1 -a \
	"$(grep -c ":2: a NUL byte" "$TMPDIR_TEST/err")" = 1
"$TRACENAV" --batch-file "$TMPDIR_TEST/nosuch" "$dir" > "$TMPDIR_TEST/got" \
	2> "$TMPDIR_TEST/err"
check "--batch-file: a missing file is bad usage (exit 2), said" \
	test $? = 2 -a ! -s "$TMPDIR_TEST/got" -a \
	"$(grep -c "cannot open $TMPDIR_TEST/nosuch" "$TMPDIR_TEST/err")" = 1
"$TRACENAV" --batch 'print 1' --batch-file "$script" "$dir" > /dev/null \
	2> "$TMPDIR_TEST/err"
check "--batch and --batch-file together: bad usage (exit 2)" \
	test $? = 2 -a "$(grep -c "one script only" "$TMPDIR_TEST/err")" = 1

# Every trace of the shared corpus that babeltrace2 reads: start, end,
# middle and a walk up from the end, against --dump.
if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -type d | LC_ALL=C sort | corpus_share \
		> "$TMPDIR_TEST/dirs"
	while read -r d; do
		"$TRACENAV" --dump "$d" > "$TMPDIR_TEST/d" 2>/dev/null || continue
		n=$(wc -l < "$TMPDIR_TEST/d")
		[ "$n" -gt 0 ] || continue
		half=$((n / 2))
		"$TRACENAV" --no-cache --batch "print 5; bottom; up 3; print 4; top; down $half; print 3; bottom; up $((n - 1)); print 2; goto #$((half + 1)); print 1" \
			"$d" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
		{ head -5 "$TMPDIR_TEST/d"; tail -"$((n < 4 ? n : 4))" "$TMPDIR_TEST/d"
		  sed -n "$((half + 1)),$((half + 3))p" "$TMPDIR_TEST/d"
		  head -2 "$TMPDIR_TEST/d"; sed -n "$((half + 1))p" "$TMPDIR_TEST/d"; } > "$TMPDIR_TEST/want"
		if cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
			ok "corpus ${d#"$SHARED_TRACES"/}: $n events, moves and goto # match --dump"
		else
			not_ok "corpus ${d#"$SHARED_TRACES"/}: $n events, moves and goto # match --dump"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
			head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
		fi
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
