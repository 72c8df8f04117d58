#!/bin/sh
# state [GLOB] in --batch: the current thread of each CPU at random
# events is the next_tid of the last sched_switch on that CPU up to the
# event, computed from the --dump text with awk; the whole state at
# random events is the same without the cache, with a cached index but
# no snapshots, and with the snapshots in the cache (after `index`,
# which waits for the state pass); a glob that matches nothing and a
# trace without a provider say so (exit 1).  On a generated kernel trace
# and on the kernel traces of the shared corpus (when it is there).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

# expected_threads DUMP NUMBERS: for each event number, the lines
# "CPUs/N/Current_thread = TID" of the CPUs that switched by then.
expected_threads() {
	awk -v numbers="$2" '
	BEGIN {
		n = split(numbers, want, " ")
		k = 1
	}
	function report(   c, count, order, i, j, t) {
		count = 0
		for (c in tid)
			order[++count] = c + 0
		for (i = 2; i <= count; i++) {	# insertion sort, by number
			t = order[i]
			for (j = i - 1; j >= 1 && order[j] > t; j--)
				order[j + 1] = order[j]
			order[j + 1] = t
		}
		for (i = 1; i <= count; i++)
			print "CPUs/" order[i] "/Current_thread = " tid[order[i]]
	}
	/^\[[^]]*\] \([^)]*\) [^ ]+ sched_switch: \{ cpu_id = [0-9]+ \}/ {
		match($0, /cpu_id = [0-9]+/)
		cpu = substr($0, RSTART + 9, RLENGTH - 9)
		if (match($0, /next_tid = -?[0-9]+, next_prio = -?[0-9]+ \}$/)) {
			s = substr($0, RSTART + 11)
			sub(/,.*/, "", s)
			tid[cpu] = s
		}
	}
	{
		while (k <= n && want[k] == NR) {
			report()
			k++
		}
	}' "$1"
}

# batch_script NUMBERS COMMAND: "goto #K; COMMAND" for each K.
batch_script() {
	for k in $1; do
		printf 'goto #%s; %s; ' "$k" "$2"
	done
}

# check_threads DESC TRACE NUMBERS [OPTIONS]: the current threads at
# those events, against the dump.
check_threads() {
	desc=$1 trace=$2 numbers=$3
	shift 3
	"$TRACENAV" --dump "$trace" > "$TMPDIR_TEST/dump" 2>/dev/null
	expected_threads "$TMPDIR_TEST/dump" "$numbers" > "$TMPDIR_TEST/want"
	"$TRACENAV" "$@" --batch "$(batch_script "$numbers" \
		'state CPUs/*/Current_thread')" "$trace" \
		> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
	status=$?
	if [ "$status" = 0 ] && [ -s "$TMPDIR_TEST/want" ] &&
	   cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $status: $(head -3 "$TMPDIR_TEST/err")"
		diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -10 |
			while IFS= read -r line; do diag "$line"; done
	fi
}

# check_same_state DESC TRACE NUMBERS GROWTH: the whole state at those
# events is the same without the cache, with a cached index but no
# snapshots, and with the snapshots cached; the cache file grew by at
# least GROWTH bytes with them (60: an empty section, for a trace
# shorter than the least gap between snapshots).
check_same_state() {
	desc=$1 trace=$2 numbers=$3 growth=$4
	cache=$TMPDIR_TEST/cache-$(basename "$trace")
	script=$(batch_script "$numbers" 'state')
	rm -rf "$cache"
	"$TRACENAV" --no-cache --batch "$script" "$trace" \
		> "$TMPDIR_TEST/nocache" 2> "$TMPDIR_TEST/err"
	s1=$?
	# goto #K builds the index and saves it; the state pass that
	# starts then is cancelled at the exit: no snapshots.
	"$TRACENAV" --cache-dir "$cache" --batch 'goto #1' "$trace" \
		> /dev/null 2>&1
	"$TRACENAV" --cache-dir "$cache" --batch "$script" "$trace" \
		> "$TMPDIR_TEST/index-only" 2>> "$TMPDIR_TEST/err"
	s2=$?
	size_before=$(cat "$cache"/*.index | wc -c)
	# index waits for the state pass, and saves the snapshots.
	"$TRACENAV" --cache-dir "$cache" --batch index "$trace" \
		> /dev/null 2>> "$TMPDIR_TEST/err"
	size_after=$(cat "$cache"/*.index | wc -c)
	"$TRACENAV" --cache-dir "$cache" --batch "$script" "$trace" \
		> "$TMPDIR_TEST/snapshots" 2>> "$TMPDIR_TEST/err"
	s3=$?
	if [ "$s1$s2$s3" = 000 ] && [ -s "$TMPDIR_TEST/nocache" ] &&
	   cmp -s "$TMPDIR_TEST/nocache" "$TMPDIR_TEST/index-only" &&
	   cmp -s "$TMPDIR_TEST/nocache" "$TMPDIR_TEST/snapshots"; then
		ok "$desc: $(wc -l < "$TMPDIR_TEST/nocache") lines, the same without the cache, with the index only and with the snapshots"
	else
		not_ok "$desc: the same state with and without the cache and snapshots"
		diag "exit $s1 $s2 $s3: $(head -3 "$TMPDIR_TEST/err")"
		diff "$TMPDIR_TEST/nocache" "$TMPDIR_TEST/snapshots" | head -6 |
			while IFS= read -r line; do diag "$line"; done
	fi
	if [ "$size_after" -ge $((size_before + growth)) ]; then
		ok "$desc: index saves the snapshots ($size_before -> $size_after bytes)"
	else
		not_ok "$desc: index saves the snapshots ($size_before -> $size_after bytes)"
	fi
}

# ---- a generated kernel trace ----
trace=$TMPDIR_TEST/kernel
"$GEN_TRACE" --events 150000 --cpus 4 --packet-size 16384 "$trace" >/dev/null
numbers=$(pick 25 2000 150000 7 | tr '\n' ' ')
check_threads "generated: CPUs/*/Current_thread at 25 events = next_tid of the last sched_switch" \
	"$trace" "$numbers" --no-cache
check_same_state "generated" "$trace" "$(pick 6 1 150000 3 | tr '\n' ' ')" 10000

# The lines: PATH = VALUE, sorted as the tree (numbers by value), no
# null value.
"$TRACENAV" --no-cache --batch 'goto 50%; state' "$trace" \
	> "$TMPDIR_TEST/all" 2>/dev/null
if grep -v -q -E '^[^ ]+ = .+$' "$TMPDIR_TEST/all" ||
   grep -q ' = null$' "$TMPDIR_TEST/all"; then
	not_ok "state: PATH = VALUE lines, no null value"
else
	ok "state: PATH = VALUE lines, no null value"
fi
cut -d' ' -f1 "$TMPDIR_TEST/all" > "$TMPDIR_TEST/paths"
tr '/' ' ' < "$TMPDIR_TEST/paths" | awk '{
	key = ""
	for (i = 1; i <= NF; i++)
		key = key sprintf($i ~ /^[0-9]+$/ ? "%020d/" : "%s/", $i)
	print key
}' > "$TMPDIR_TEST/keys"
if LC_ALL=C sort -c "$TMPDIR_TEST/keys" 2>/dev/null; then
	ok "state: sorted by path, numbers by value"
else
	not_ok "state: sorted by path, numbers by value"
fi
"$TRACENAV" --no-cache --batch 'goto 50%; state Threads/*/Exec_name' \
	"$trace" > "$TMPDIR_TEST/names" 2>/dev/null
if [ -s "$TMPDIR_TEST/names" ] &&
   [ "$(grep -c '^Threads/[^/]*/Exec_name = ' "$TMPDIR_TEST/all")" = \
     "$(wc -l < "$TMPDIR_TEST/names")" ] &&
   ! grep -q -v '^Threads/[^/]*/Exec_name = ' "$TMPDIR_TEST/names"; then
	ok "state GLOB: only the matching attributes, all of them"
else
	not_ok "state GLOB: only the matching attributes, all of them"
fi
"$TRACENAV" --no-cache --batch 'goto 50%; state CPUs/**' "$trace" \
	> "$TMPDIR_TEST/cpus" 2>/dev/null
if [ "$(grep -c '^CPUs/' "$TMPDIR_TEST/all")" = \
     "$(wc -l < "$TMPDIR_TEST/cpus")" ]; then
	ok "state CPUs/**: every attribute under CPUs"
else
	not_ok "state CPUs/**: every attribute under CPUs"
fi
"$TRACENAV" --no-cache --batch 'goto 50%; state No/*/Such' "$trace" \
	> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
status=$?
if [ "$status" = 1 ] && [ ! -s "$TMPDIR_TEST/got" ] &&
   grep -q 'no attribute matches No/\*/Such in the state at' "$TMPDIR_TEST/err"; then
	ok "state GLOB matching nothing: a message, exit 1"
else
	not_ok "state GLOB matching nothing: a message, exit 1 (got $status)"
	diag "$(cat "$TMPDIR_TEST/err")"
fi

# ---- the shared corpus ----
if [ -d "$SHARED_TRACES" ]; then
	for d in tracecompass/bug446190 tracecompass/flipping-endianness \
	         babeltrace2/succeed/lttng-tracefile-rotation/kernel; do
		trace=$SHARED_TRACES/$d
		[ -d "$trace" ] || { skip "no $d in the corpus"; continue; }
		total=$("$TRACENAV" --dump "$trace" 2>/dev/null | wc -l)
		numbers=$(pick 15 1 "$total" 5 | tr '\n' ' ')
		# The first events may precede every sched_switch: a
		# glob that matches nothing stops the script.
		first=$("$TRACENAV" --dump "$trace" 2>/dev/null |
			grep -n -m1 ' sched_switch: ' | cut -d: -f1)
		numbers=$(for k in $numbers; do
			[ "$k" -ge "$first" ] && echo "$k"; done | tr '\n' ' ')
		check_threads "$d: CPUs/*/Current_thread at random events = next_tid of the last sched_switch" \
			"$trace" "$numbers" --no-cache
		check_same_state "$d" "$trace" \
			"$(pick 4 1 "$total" 9 | tr '\n' ' ')" 60
	done
	trace=$SHARED_TRACES/babeltrace2/succeed/succeed1
	if [ -d "$trace" ]; then
		"$TRACENAV" --no-cache --batch state "$trace" \
			> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
		status=$?
		if [ "$status" = 1 ] && [ ! -s "$TMPDIR_TEST/got" ] &&
		   grep -q 'no state: the trace has no events that a state provider knows' "$TMPDIR_TEST/err"; then
			ok "a trace without a state provider: says so, exit 1"
		else
			not_ok "a trace without a state provider: says so, exit 1 (got $status)"
		fi
	fi
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
