#!/bin/sh
# tracenav --dump on traces made by tools/gen-trace: the same output as the
# babeltrace2 CLI, and the known answers of the generator's plan (event
# counts per name, first and last time, lost events); the awkward
# contents (bidirectional controls, empty payloads) printed the same.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# plan_value PLAN KEY: the value of "KEY VALUE" in a plan file.
plan_value() {
	sed -n "s/^$2 //p" "$1" | head -1
}

# ns_of_line: the ns from origin of the first "[SEC.NS]" of stdin.
ns_of_line() {
	sed -n 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/\1\2/p' | sed 's/^0*//'
}

# check_trace NAME GEN-OPTIONS...: generate, then compare.
check_trace() {
	name=$1
	shift
	dir="$TMPDIR_TEST/$name"
	plan="$TMPDIR_TEST/$name.plan"
	if ! "$GEN_TRACE" "$@" --plan "$plan" "$dir" >/dev/null 2>"$TMPDIR_TEST/gen.err"; then
		not_ok "$name: gen-trace $*"
		head -3 "$TMPDIR_TEST/gen.err" | sed 's/^/# /'
		return
	fi
	"$TRACENAV" --dump "$dir" >"$TMPDIR_TEST/tn.out" 2>"$TMPDIR_TEST/tn.err"
	check "$name: dump succeeds" test $? = 0

	if have_babeltrace2; then
		same_output "$name: same as babeltrace2" "$dir"
		# babeltrace2 writes the lost-event warnings on stderr too.
		babeltrace2 "$dir" 2>&1 >/dev/null | grep WARNING > "$TMPDIR_TEST/bt.warn"
		grep WARNING "$TMPDIR_TEST/tn.err" > "$TMPDIR_TEST/tn.warn"
		check "$name: same discarded warnings as babeltrace2" \
			cmp -s "$TMPDIR_TEST/bt.warn" "$TMPDIR_TEST/tn.warn"
	else
		skip "babeltrace2 CLI not installed"
	fi

	events=$(wc -l < "$TMPDIR_TEST/tn.out")
	check "$name: $events events, plan says $(plan_value "$plan" events)" \
		test "$events" = "$(plan_value "$plan" events)"

	sed -n 's/^event_count \([^ ]*\) \([0-9]*\)$/\1 \2/p' "$plan" |
		LC_ALL=C sort > "$TMPDIR_TEST/plan.names"
	sed 's/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\): .*/\1/' "$TMPDIR_TEST/tn.out" |
		LC_ALL=C sort | uniq -c | awk '{ print $2, $1 }' > "$TMPDIR_TEST/tn.names"
	check "$name: event counts per name match the plan" \
		cmp -s "$TMPDIR_TEST/plan.names" "$TMPDIR_TEST/tn.names"

	first=$(TZ=UTC "$TRACENAV" --dump --count 1 "$dir" 2>/dev/null | head -1)
	first_ns=$(plan_value "$plan" first_ns)
	# The line's time of day must be the plan's first_ns, in UTC.
	want=$(TZ=UTC date -u -d "@$((first_ns / 1000000000))" +%H:%M:%S).$(printf %09d $((first_ns % 1000000000)))
	check "$name: first event at the plan's first_ns" \
		test "${first#\[}" != "$first" -a "$(echo "$first" | cut -c2-19)" = "$want"

	warnings=$(grep -c "WARNING: Tracer discarded" "$TMPDIR_TEST/tn.err")
	lost=$(grep -o "discarded [0-9]* event" "$TMPDIR_TEST/tn.err" |
		awk '{ n += $2 } END { print n + 0 }')
	check "$name: $lost discarded events reported, plan says $(plan_value "$plan" discarded_events)" \
		test "$lost" = "$(plan_value "$plan" discarded_events)"
	: "$warnings"
}

check_trace kernel --events 20000 --cpus 4 --packet-size 4096 --seed 7
check_trace ust --events 20000 --cpus 3 --domain ust --seed 3
check_trace messages --events 5000 --cpus 2 --mix messages --seed 11
check_trace mixed-both --events 30000 --cpus 4 --mix mixed --domain both --seed 5
check_trace hosts --events 30000 --cpus 2 --traces 3 --seed 9
check_trace lost --events 40000 --cpus 4 --packet-size 4096 --lost-every 5 --seed 13
check_trace noindex --events 10000 --cpus 4 --no-index --seed 17
check_trace one-cpu --events 3000 --cpus 1 --seed 19
# Packets without timestamp_begin/end (as DPDK writes them), with lost
# events: babeltrace2 says "(unknown time range)".  Only full dumps: on
# such traces babeltrace2 --begin crashes in libbabeltrace2's trimmer.
check_trace no-packet-times --events 20000 --cpus 4 --packet-size 4096 \
	--no-packet-times --lost-every 5 --seed 23

# The awkward contents are in the traces compared above, so --dump
# prints them as babeltrace2 does: Unicode bidirectional controls raw
# (U+202E RIGHT-TO-LEFT OVERRIDE in an openat file name, the isolates
# U+2066..U+2069 in an exec file name, the task name it gives, and a
# signal), and app:flush events whose payload has no field.
rlo=$(printf '\342\200\256')
lri=$(printf '\342\201\246')
rli=$(printf '\342\201\247')
fsi=$(printf '\342\201\250')
pdi=$(printf '\342\201\251')
"$TRACENAV" --dump "$TMPDIR_TEST/kernel" > "$TMPDIR_TEST/kernel.out" 2>/dev/null
"$TRACENAV" --dump "$TMPDIR_TEST/messages" > "$TMPDIR_TEST/messages.out" 2>/dev/null
"$TRACENAV" --dump "$TMPDIR_TEST/ust" > "$TMPDIR_TEST/ust.out" 2>/dev/null
# dump_has NAME TEXT: the dump of trace NAME holds TEXT (bytes, no regex).
dump_has() {
	LC_ALL=C grep -q -F -- "$2" "$TMPDIR_TEST/$1.out"
}
check "kernel: U+202E raw in an openat file name" \
	dump_has kernel "{ dfd = -100, filename = \"/tmp/${rlo}exe.txt\", flags = "
check "kernel: U+2067, U+2069 raw in an exec file name" \
	dump_has kernel "filename = \"/usr/bin/${rli}run${pdi}\", tid = "
check "kernel: and in the task name it gives (a char array)" \
	dump_has kernel "prev_comm = \"${rli}run${pdi}\""
check "messages: U+2066..U+2069 raw in a signal" \
	dump_has messages "signal = \"${lri}ltr${pdi} ${rli}rtl${pdi} ${fsi}auto${pdi}\", seq = "
# No field: babeltrace2 prints the empty payload as "{ }" after the
# contexts (on real LTTng-UST traces too: lttng_ust_statedump:start).
check "ust: app:flush events, nothing in their payload" \
	env LC_ALL=C grep -q -E \
	'^\[[^]]*\] \([^)]*\) host app:flush: \{ cpu_id = [0-9]+ \}, \{ vpid = [0-9]+, vtid = [0-9]+, procname = ".*" \}, \{ \}$' \
	"$TMPDIR_TEST/ust.out"
check "ust: as many app:flush as the plan says" test \
	"$(grep -c ' app:flush: ' "$TMPDIR_TEST/ust.out")" = \
	"$(plan_value "$TMPDIR_TEST/ust.plan" "event_count app:flush")"
check "messages (kernel domain): app:flush with an empty payload" \
	env LC_ALL=C grep -q -E '^\[[^]]*\] \([^)]*\) host app:flush: \{ cpu_id = [0-9]+ \}, \{ \}$' \
	"$TMPDIR_TEST/messages.out"

check "no-packet-times: no timestamp_begin in the packet context" \
	test -z "$(grep timestamp_begin "$TMPDIR_TEST/no-packet-times/metadata")"
check "no-packet-times: no index/ (--no-packet-times implies --no-index)" \
	test ! -e "$TMPDIR_TEST/no-packet-times/index"

# --begin/--end/--count on a generated trace, against babeltrace2.
if have_babeltrace2; then
	dir="$TMPDIR_TEST/kernel"
	TZ=UTC "$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/all"
	mid=$(sed -n '10000p' "$TMPDIR_TEST/all" | cut -c2-19)
	late=$(sed -n '15000p' "$TMPDIR_TEST/all" | cut -c2-19)
	export TZ=UTC
	same_output "generated: --begin time of day" "$dir" --begin "$mid"
	same_output "generated: --begin/--end" "$dir" --begin "$mid" --end "$late"
	unset TZ
	"$TRACENAV" --dump --count 123 "$dir" > "$TMPDIR_TEST/count"
	"$TRACENAV" --dump "$dir" | head -123 > "$TMPDIR_TEST/head"
	check "generated: --count 123 is the first 123 lines" \
		cmp -s "$TMPDIR_TEST/count" "$TMPDIR_TEST/head"
fi

tap_done
