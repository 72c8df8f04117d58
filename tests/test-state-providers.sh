#!/bin/sh
# The state providers through `state` in --batch.  On generated kernel
# traces: at every sample of gen-trace --state-plan (goto #K, the last
# event at or before the sample's time), the thread on each CPU, what
# each CPU and each live thread does are the generator's own, and no
# other thread is alive.  On the cyg-profile traces of the shared corpus
# (when it is there): the call stack of each thread at random events,
# its depth and top, is what its func_entry and func_exit lines in the
# --dump text push and pop (awk).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

# ---- generated kernel traces against the generator's plan ----

# plan_lines PLAN: what state prints of the plan's attributes at each
# sample (the unknown, null, it leaves out), as "#K<tab>LINE".
plan_lines() {
	awk -v q='"' '
	$3 == "events" { k = $4; next }
	$3 == "CPU" && $6 != "?" {
		print "#" k "\tCPUs/" $4 "/Current_thread = " $6
	}
	$3 == "CPU" && $8 == "tied" { print "#" k "\ttied CPUs/" $4 }
	$3 == "CPU" && $8 != "?" && $8 != "tied" {
		print "#" k "\tCPUs/" $4 "/Status = " q $8 q
	}
	$3 == "thread" && $6 == "tied" { print "#" k "\ttied Threads/" $4 }
	$3 == "thread" && $6 != "tied" {
		print "#" k "\tThreads/" $4 "/Status = " q $6 q
	}
	' "$1"
}

# untie WANT GOT: leave out of GOT the status of the threads and CPUs
# that the plan says are tied (what the order of events of one time
# decides), and the plan's "tied" lines out of WANT.
untie() {
	awk -F '\t' '
	FNR == NR {
		if ($2 ~ /^tied /)
			tied[$1 "\t" substr($2, 6) "/Status"] = 1
		else
			print > (FILENAME ".untied")
		next
	}
	{
		path = substr($2, 1, index($2, " = ") - 1)
		if (!(($1 "\t" path) in tied))
			print > (FILENAME ".untied")
	}' "$1" "$2"
	mv "$1.untied" "$1"
	mv "$2.untied" "$2"
}

# state_lines OUTPUT: the same attributes in the output of
# "goto #K; where; state" lines.
state_lines() {
	awk '
	/^event [0-9]+ of [0-9]+ at / { k = $2; next }
	/^CPUs\/[0-9]+\/(Current_thread|Status) = / ||
	/^Threads\/[0-9]+\/Status = / { print "#" k "\t" $0 }
	' "$1"
}

check_generated() {
	name=$1
	shift
	trace=$TMPDIR_TEST/$name
	"$GEN_TRACE" "$@" --state-plan "$trace.plan" "$trace" >/dev/null
	plan_lines "$trace.plan" > "$TMPDIR_TEST/want"
	script=$(awk '$3 == "events" {
		printf "goto #%s; where; state; ", $4 }' "$trace.plan")
	"$TRACENAV" --no-cache --batch "$script" "$trace" \
		> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
	status=$?
	state_lines "$TMPDIR_TEST/out" > "$TMPDIR_TEST/got"
	untie "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"
	same_lines "$name ($*): the state at $(grep -c ' events ' \
		"$trace.plan") samples is the generator's" \
		"$TMPDIR_TEST/want" "$TMPDIR_TEST/got" "$status"
}

check_generated k4 --events 30000 --cpus 4 --seed 21
check_generated ties --events 20000 --cpus 8 --ties 2 --seed 22
check_generated both --events 20000 --domain both --seed 23

# ---- call stacks of the shared cyg-profile traces ----

# stack_lines DUMP NUMBERS: at each event number, each thread's call
# stack depth and top, as state prints them ("#K<tab>LINE").
stack_lines() {
	awk -v numbers="$2" -v top=1 -f "$top_srcdir/tests/stacks.awk" "$1"
}

# got_stacks OUTPUT: the depth and top of each Call_stack in the output
# of "goto #K; where; state Processes/**" lines.
got_stacks() {
	awk '
	function flush(   p) {
		for (p in depth) {
			print "#" k "\t" p " = " depth[p]
			print "#" k "\t" p "/" depth[p] " = " child[p "/" depth[p]]
		}
		split("", depth)
		split("", child)
	}
	/^event [0-9]+ of [0-9]+ at / { flush(); k = $2; next }
	/\/Call_stack = / {
		i = index($0, " = ")
		depth[substr($0, 1, i - 1)] = substr($0, i + 3)
	}
	/\/Call_stack\/[0-9]+ = / {
		i = index($0, " = ")
		child[substr($0, 1, i - 1)] = substr($0, i + 3)
	}
	END { flush() }
	' "$1"
}

if [ -d "$SHARED_TRACES" ]; then
	for d in tracecompass/cyg-profile/glxgears-cyg-profile \
	         tracecompass/cyg-profile/glxgears-cyg-profile-fast \
	         tracecompass/context-switches-ust; do
		trace=$SHARED_TRACES/$d
		[ -d "$trace" ] || { skip "no $d in the corpus"; continue; }
		"$TRACENAV" --dump "$trace" > "$TMPDIR_TEST/dump" 2>/dev/null
		total=$(wc -l < "$TMPDIR_TEST/dump")
		numbers=$( (pick 30 1 "$total" 13; echo "$total") |
			sort -n -u | tr '\n' ' ')
		stack_lines "$TMPDIR_TEST/dump" "$numbers" > "$TMPDIR_TEST/want"
		script=$(for k in $numbers; do
			printf 'goto #%s; where; state Processes/**; ' "$k"; done)
		"$TRACENAV" --no-cache --batch "$script" "$trace" \
			> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
		status=$?
		got_stacks "$TMPDIR_TEST/out" > "$TMPDIR_TEST/got"
		same_lines "$d: call stacks at $(echo "$numbers" | wc -w) events = the dump's func_entry/func_exit" \
			"$TMPDIR_TEST/want" "$TMPDIR_TEST/got" "$status"
	done
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
