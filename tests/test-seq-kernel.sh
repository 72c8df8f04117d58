#!/bin/sh
# The sequence diagram's kernel loader against awk over --dump: every
# wake-up is a message from the thread that the last sched_switch on
# the waking event's CPU switched in (its next_tid) to the thread the
# event names (its tid field), at the event's time; a wake-up on a CPU
# that no sched_switch named yet is no message.  When the trace has
# sched_waking, that is the send, and the next sched_wakeup of the same
# tid the receive; otherwise each sched_wakeup (and sched_wakeup_new) is
# a whole message.  On generated kernel traces (where a fork also marks
# the creation of a lifeline in the drawing) and on every kernel trace
# of the shared corpus (skipped when it is not there).
#
# The messages come from seqdiag-list at the first event (so the loader
# reads from the trace's start, as awk does): its lines are
# SEND RECEIVE KIND FROM TO SIGNAL, separated by tabs, lifelines named
# "name-tid".  Both sides are compared as sorted lists of
# "time sender-tid receiver-tid" (and "time receiver-tid" for the
# receives), so that events of equal times compare whatever their order.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C

# awk over --dump: the wake-ups' ends, in want.send and want.recv.
expected() {
	"$TRACENAV" --dump "$1" | awk -v send="$2.send" -v recv="$2.recv" \
		-v has_waking="$3" '
	# The value of the last "key = N" of the line (the payload comes
	# after the contexts), "" when there is none.
	function value(key,    rest, v) {
		v = ""
		rest = $0
		while (match(rest, "[{,] " key " = -?[0-9]+")) {
			v = substr(rest, RSTART, RLENGTH)
			rest = substr(rest, RSTART + RLENGTH)
		}
		sub(/.* = /, "", v)
		return v
	}
	{
		name = $4
		sub(/:$/, "", name)
		if (name !~ /^sched_(switch|waking|wakeup|wakeup_new)$/)
			next
		time = $1
		cpu = value("cpu_id")
		if (name == "sched_switch") {
			current[cpu] = value("next_tid")
			next
		}
		tid = value("tid")
		if (name == "sched_waking") {
			if (cpu in current) {
				print time, current[cpu], tid > send
				pending[tid] = 1
			} else
				delete pending[tid]
			next
		}
		if (name == "sched_wakeup" && has_waking) {
			if (tid in pending) {
				print time, tid > recv
				delete pending[tid]
			}
			next
		}
		if (cpu in current) {
			print time, current[cpu], tid > send
			print time, tid > recv
		}
	}'
	sort -o "$2.send" "$2.send"
	sort -o "$2.recv" "$2.recv"
}

# seqdiag-list's messages, as the same lists in got.send and got.recv.
listed() {
	"$TRACENAV" --batch "seqdiag-list 1000000" "$1" > "$2.list" \
		2> "$2.err" || return 1
	awk -F '\t' -v send="$2.send" -v recv="$2.recv" '
	function tid(name) { sub(/.*-/, "", name); return name }
	$6 ~ /^wakeup/ {
		if ($1 != "-")
			print $1, tid($4), tid($5) > send
		if ($2 != "-")
			print $2, tid($5) > recv
	}' "$2.list"
	touch "$2.send" "$2.recv"
	sort -o "$2.send" "$2.send"
	sort -o "$2.recv" "$2.recv"
}

# compare DESC TRACE: the lists of seqdiag-list and of awk are equal.
compare() {
	# The loader pairs when the metadata declares sched_waking.
	has_waking=0
	if grep -aq sched_waking "$2/metadata"; then
		has_waking=1
	fi
	rm -f "$TMPDIR_TEST/want.send" "$TMPDIR_TEST/want.recv"
	: > "$TMPDIR_TEST/want.send"
	: > "$TMPDIR_TEST/want.recv"
	expected "$2" "$TMPDIR_TEST/want" "$has_waking"
	rm -f "$TMPDIR_TEST/got.send" "$TMPDIR_TEST/got.recv"
	if ! listed "$2" "$TMPDIR_TEST/got"; then
		not_ok "$1: seqdiag-list failed"
		diag "$(head -3 "$TMPDIR_TEST/got.err")"
		return
	fi
	sends=$(wc -l < "$TMPDIR_TEST/want.send")
	recvs=$(wc -l < "$TMPDIR_TEST/want.recv")
	if [ "$sends" -gt 0 ] &&
	   cmp -s "$TMPDIR_TEST/want.send" "$TMPDIR_TEST/got.send" &&
	   cmp -s "$TMPDIR_TEST/want.recv" "$TMPDIR_TEST/got.recv"; then
		ok "$1: $sends wake-ups' senders and receivers, $recvs receives"
	else
		not_ok "$1: wake-up messages as awk computes them"
		diag "want $sends sends, $recvs receives; got" \
			"$(wc -l < "$TMPDIR_TEST/got.send") sends," \
			"$(wc -l < "$TMPDIR_TEST/got.recv") receives"
		diff "$TMPDIR_TEST/want.send" "$TMPDIR_TEST/got.send" |
			head -6 | sed 's/^/# /'
		diff "$TMPDIR_TEST/want.recv" "$TMPDIR_TEST/got.recv" |
			head -4 | sed 's/^/# /'
	fi
}

# ---- generated kernel traces ----

for seed in 1 7; do
	dir="$TMPDIR_TEST/kernel-$seed"
	"$GEN_TRACE" --events 20000 --cpus 4 --seed "$seed" "$dir" >/dev/null
	compare "generated kernel trace (seed $seed)" "$dir"
done

# A fork in the page drawn around it: its child's lifeline starts with
# a '*' on the fork's line.
dir="$TMPDIR_TEST/kernel-1"
fork=$("$TRACENAV" --dump "$dir" | grep -n -m 5 ' sched_process_fork: ' |
	tail -1 | cut -d: -f1)
"$TRACENAV" --batch "goto #$fork; seqdiag 2000" "$dir" > "$TMPDIR_TEST/fork"
check "the fork of event #$fork: a lifeline created in the page ('*')" \
	grep -q '^[ >][0-9:.]* .*\*' "$TMPDIR_TEST/fork"

# The loader needs the state: a list from the middle of a longer trace
# (its window starts from the state there: restored from a snapshot of
# the state pass once `index` ran, replayed from the window's start
# without) has the messages of the whole list, senders included.
dir="$TMPDIR_TEST/kernel-long"
"$GEN_TRACE" --events 300000 --cpus 4 --seed 3 "$dir" >/dev/null
"$TRACENAV" --no-cache --batch "seqdiag-list 1000000" "$dir" \
	> "$TMPDIR_TEST/all"
for script in "goto 50%" "index; goto 50%" "index; goto 83%"; do
	"$TRACENAV" --no-cache --batch "$script; seqdiag-list 20" "$dir" \
		> "$TMPDIR_TEST/mid" 2>/dev/null
	n=$(wc -l < "$TMPDIR_TEST/mid")
	found=$(grep -cxFf "$TMPDIR_TEST/all" "$TMPDIR_TEST/mid")
	check "$script; seqdiag-list 20: $found of $n as the whole list has them" \
		[ "$n" -eq 20 ] && [ "$found" -eq 20 ]
done

# ---- the shared corpus's kernel traces ----

shared_wakeup_traces compare

tap_done
