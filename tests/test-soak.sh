#!/bin/sh
# The soak test: one long tracenav --batch session of random commands
# (tools/gen-script: moves near and far, searches, filters, state,
# sequence diagram, marks, ranges, statistics) over a generated kernel +
# userspace trace, with probes (where; print N; count) at random points.
#
#   - every probe's lines are --dump's (itself held to babeltrace2), and
#     where a move was followed, the move landed where --dump says
#     (tests/soak-check.awk);
#   - every command that failed failed for a reason the script can
#     cause (a regex that matches nothing, filters that hide every
#     event...), nothing else on stderr, exit status 0 or 1;
#   - its RSS, sampled every second, stays flat after the warm-up (the
#     build without sanitizers), its open files and private trees (the
#     sliced indexes of its seeks) stay bounded, and none is left after
#     its exit;
#   - in a sanitizer build, no sanitizer report: LeakSanitizer's leak
#     check at exit, AddressSanitizer, UBSan, ThreadSanitizer.
#
# 100 000 commands in the default build, 10 000 under the sanitizers
# (they run 5 to 10 times slower); TRACENAV_SOAK_COUNT and
# TRACENAV_SOAK_SEED run another length and another script,
# TRACENAV_SOAK_KINDS only some kinds of commands (gen-script --kinds).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC
# grep and awk work on bytes; tracenav runs in a UTF-8 locale when there
# is one (the diagram's --unicode measures wide characters in it).
LC_ALL=C
export LC_ALL
run_locale=C
if locale -a 2>/dev/null | grep -q -i -x 'c\.utf-*8'; then
	run_locale=C.UTF-8
fi

GEN_SCRIPT="$top_builddir/tools/gen-script"
if nm "$TRACENAV" 2>/dev/null | grep -q __tsan_init; then
	build=tsan
	count=${TRACENAV_SOAK_COUNT:-10000}
elif nm "$TRACENAV" 2>/dev/null | grep -q __asan_init; then
	build=asan
	count=${TRACENAV_SOAK_COUNT:-10000}
else
	build=default
	count=${TRACENAV_SOAK_COUNT:-100000}
fi
seed=${TRACENAV_SOAK_SEED:-1}
kinds=${TRACENAV_SOAK_KINDS:+, kinds $TRACENAV_SOAK_KINDS}
diag "$build build: $count commands, seed $seed, locale $run_locale$kinds"

trace="$TMPDIR_TEST/trace"
"$GEN_TRACE" --events 20000 --domain both --mix mixed --cpus 4 \
	--packet-size 16384 --lost-every 9 --seed 7 --plan "$TMPDIR_TEST/plan" \
	"$trace" >/dev/null
LC_ALL=$run_locale "$TRACENAV" --dump "$trace" > "$TMPDIR_TEST/dump" \
	2>/dev/null
sed -E 's/^(\[[^]]*\]) \(\+[^)]*\)/\1/' "$TMPDIR_TEST/dump" \
	> "$TMPDIR_TEST/nodelta"
total=$(wc -l < "$TMPDIR_TEST/dump")
check "the trace has its 20000 events" test "$total" = 20000
if have_babeltrace2; then
	babeltrace2 "$trace" > "$TMPDIR_TEST/bt" 2>/dev/null
	check "--dump, the probes' reference, is babeltrace2's output" \
		cmp -s "$TMPDIR_TEST/bt" "$TMPDIR_TEST/dump"
else
	skip "babeltrace2 CLI not installed"
fi

"$GEN_SCRIPT" --plan "$TMPDIR_TEST/plan" --count "$count" --seed "$seed" \
	${TRACENAV_SOAK_KINDS:+--kinds "$TRACENAV_SOAK_KINDS"} \
	--expect "$TMPDIR_TEST/expect" > "$TMPDIR_TEST/script"
check "gen-script wrote $count commands" \
	test "$(wc -l < "$TMPDIR_TEST/script")" -ge "$count"

# ---- the session, sampled every second ----
# Its private trees (the sliced packet indexes of its seeks) go to a
# runtime directory of its own, so that they can be counted.
runtime="$TMPDIR_TEST/runtime"
mkdir -m 700 "$runtime"
XDG_RUNTIME_DIR=$runtime LC_ALL=$run_locale "$TRACENAV" --keep-going \
	--batch-file "$TMPDIR_TEST/script" "$trace" \
	> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err" &
pid=$!
started=$(date +%s)
# script_pos PID: how far process PID has read the script (its file
# offset: tracenav reads it a few KiB ahead of the command it runs), or
# nothing before it opened it.
script_pos() {
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$TMPDIR_TEST/script" ] ||
			continue
		sed -n 's/^pos:[[:space:]]*//p' "/proc/$1/fdinfo/${fd##*/}" \
			2>/dev/null
		return
	done
}

# "RSS_KB OPEN_FDS PRIVATE_TREES SCRIPT_POS" a line, of the process that
# runs the commands: --batch runs them in a child process (the one
# tracenav waits for), once it has forked it.
worker=$pid
pos=0
while kill -0 "$pid" 2>/dev/null; do
	child=$(cut -d' ' -f1 "/proc/$pid/task/$pid/children" 2>/dev/null)
	[ -n "$child" ] && worker=$child && echo "$worker" > "$TMPDIR_TEST/worker"
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' \
		"/proc/$worker/status" 2>/dev/null)
	fds=$(ls "/proc/$worker/fd" 2>/dev/null | wc -l)
	trees=$(ls "$runtime/tracenav" 2>/dev/null | wc -l)
	at=$(script_pos "$worker")
	[ -n "$at" ] && pos=$at
	[ -n "$rss" ] && echo "$rss $fds $trees $pos"
	sleep 1
done > "$TMPDIR_TEST/samples"
wait "$pid"
status=$?
seconds=$(($(date +%s) - started))
diag "$count commands in $seconds s, RSS samples (kB): $(cut -d' ' -f1 \
	< "$TMPDIR_TEST/samples" | tr '\n' ' ' | cut -c1-300)"
diag "open files: $(cut -d' ' -f2 < "$TMPDIR_TEST/samples" | sort -n -u |
	tr '\n' ' ' | cut -c1-100)(distinct values); private trees at" \
	"once: at most $(cut -d' ' -f3 < "$TMPDIR_TEST/samples" | sort -n |
	tail -1)"

# 1: some command failed (a search that finds nothing...); a signal, or
# a sanitizer's exit code, is something else.
check "tracenav exits 0 or 1 (got $status)" test "$status" -le 1

# ---- stderr: only failures the script can cause ----
# A command's failure: "tracenav: FILE:LINE: "COMMAND": MESSAGE".
failures="$TMPDIR_TEST/failures"
grep -a '^tracenav: .*:[0-9]*: "' "$TMPDIR_TEST/err" > "$failures"
# What the random script makes fail, by design.
expected='Pattern not found: |: no event passes the filters|no message matches: '
expected="$expected|no attribute matches |is not marked|: no marks "
expected="$expected|no hide pattern is "
grep -a -v -E "$expected" "$failures" > "$TMPDIR_TEST/unexpected"
check "no command failed for another reason" \
	test ! -s "$TMPDIR_TEST/unexpected"
head -5 "$TMPDIR_TEST/unexpected" | cut -c1-200 |
	while IFS= read -r line; do diag "$line"; done
failed=$(wc -l < "$failures")
if [ "$failed" -gt 0 ]; then
	check "the last line counts the $failed failures" \
		grep -q -x "tracenav: $failed commands* failed" "$TMPDIR_TEST/err"
else
	check "no failure: no count of failures, exit status 0" \
		test "$status" = 0 -a \
		"$(grep -c 'commands* failed$' "$TMPDIR_TEST/err")" = 0
fi
# Nothing else that says something broke: sanitizers, GLib's criticals
# and warnings, a fallback from a fast seek (a checkpoint that does not
# hold), an assertion.
bad='Sanitizer|runtime error|GLib|CRITICAL|did not land|Assertion'
grep -a -E "$bad" "$TMPDIR_TEST/err" > "$TMPDIR_TEST/bad"
check "no sanitizer report, GLib warning or seek fallback on stderr" \
	test ! -s "$TMPDIR_TEST/bad"
head -5 "$TMPDIR_TEST/bad" | cut -c1-200 |
	while IFS= read -r line; do diag "$line"; done
if [ "$build" = tsan ]; then
	# The build's ThreadSanitizer reports go to files (Makefile.am).
	worker=$(cat "$TMPDIR_TEST/worker" 2>/dev/null)
	reports=$(ls "$top_builddir/tsan-reports/report.$pid" \
		${worker:+"$top_builddir/tsan-reports/report.$worker"} 2>/dev/null)
	check "no ThreadSanitizer report" test -z "$reports"
fi

# ---- the probes, against --dump ----
# A mask of the dump's lines (1: matches) for each regex: the filters'
# (over the lines without their deltas) and the searches'.
awk -F '\t' '
	$1 == "probe" { for (i = 5; i < NF; i += 2) print "f\t" $(i + 1) }
	$1 == "move" && $3 ~ /^search / { print "s\t" substr($3, 8) }
	$1 == "move" && $3 ~ /^(next|prev) / {
		split($3, w, " ")
		print "s\t" substr($3, length(w[1]) + length(w[2]) + 3)
	}' "$TMPDIR_TEST/expect" | sort -u > "$TMPDIR_TEST/regexes"
tab=$(printf '\t')
while IFS="$tab" read -r kind re; do
	file="$TMPDIR_TEST/dump"
	[ "$kind" = f ] && file="$TMPDIR_TEST/nodelta"
	# Smart case, as tracenav: exact with an upper-case letter that is
	# not an escape's.
	opts=-Pi
	if printf '%s' "$re" | sed 's/\\.//g' | grep -q '[[:upper:]]'; then
		opts=-P
	fi
	printf '%s %s\t' "$kind" "$re"
	grep -a -n "$opts" -e "$re" "$file" | cut -d: -f1 |
		awk -v total="$total" '{ m[$1] } END {
			for (i = 1; i <= total; i++) printf "%s", (i in m) ? 1 : 0
			print "" }'
done < "$TMPDIR_TEST/regexes" > "$TMPDIR_TEST/masks"

awk -f "$top_srcdir/tests/soak-check.awk" "$TMPDIR_TEST/masks" \
	"$TMPDIR_TEST/dump" "$TMPDIR_TEST/expect" "$TMPDIR_TEST/out" \
	> "$TMPDIR_TEST/checked"
result=$(tail -1 "$TMPDIR_TEST/checked")
case $result in
ok\ *)
	set -- $result
	ok "every probe agrees with --dump: $2 probes, $3 moves followed"
	tail -3 "$TMPDIR_TEST/checked" | head -2 |
		while IFS= read -r line; do diag "$line"; done
	;;
*)
	not_ok "every probe agrees with --dump ($result)"
	head -40 "$TMPDIR_TEST/checked" | cut -c1-300 |
		while IFS= read -r line; do diag "$line"; done
	;;
esac

# ---- what the session holds: bounded ----
# Open files and private trees come and go with each command (a search
# opens a graph per slice, each with the trace's files): about 30 files
# and 3 trees at most at once.  Never more than 128 files or 16 trees;
# in a run long enough for every kind of command to come in its first
# half (50 000 commands), the highest counts of the second half no more
# than 8 above those of the first (a file or tree leaked every thousand
# commands gives 50 more); and no tree left once tracenav exited.
bounds=$(awk -v long="$((count >= 50000))" '
	{ n++; fds[n] = $2; trees[n] = $3 }
	END {
		for (i = 1; i <= n; i++)
			if (i <= n / 2) {
				if (fds[i] > f1) f1 = fds[i]
				if (trees[i] > t1) t1 = trees[i]
			} else {
				if (fds[i] > f2) f2 = fds[i]
				if (trees[i] > t2) t2 = trees[i]
			}
		grows = f1 > 128 || f2 > 128 || t1 > 16 || t2 > 16 ||
			(long && (f2 > f1 + 8 || t2 > t1 + 8))
		printf "%s: open files %d then %d, private trees %d then %d\n",
			grows ? "grow" : "bounded", f1, f2, t1, t2
	}' "$TMPDIR_TEST/samples")
case $bounds in
bounded*) ok "open files and private trees $bounds" ;;
*) not_ok "open files and private trees $bounds" ;;
esac
check "no private tree left after the exit" \
	test "$(ls "$runtime/tracenav" 2>/dev/null | wc -l)" = 0

# ---- the RSS: flat after the warm-up ----
# Without sanitizers only (their allocators keep freed memory aside).
# The first quarter of the commands is the warm-up: the index, the state
# snapshots and the diagram's pages are loaded, and the heap reaches its
# high-water mark (what is in use moves between 4 and 11 MB from one
# command to the next, and the allocator keeps what a peak took: RSS
# climbs in steps of a few MB for the first 10 000 to 25 000 commands,
# hence 50 000 commands at least).  After it, the highest RSS of the
# last half may not exceed the highest of the second quarter by more
# than 2 MB + 10%: a leak of 200 bytes a command grows it by 10 MB over
# the last 50 000 of 100 000 commands, while the allocator's
# fragmentation alone adds up to 4 MB (heaptrack, 20 000 against 80 000
# commands: the live heap grows by 14 bytes a command, its peak by
# 2.7 MB; LeakSanitizer, in the sanitizer builds, finds what is lost).
# Quarters of the commands, not of the time: a sample's place is how far
# tracenav has read the script (on a loaded machine the first seconds
# run fewer commands, and a quarter of the time was less than the
# warm-up).
if [ "$build" = default ]; then
	samples=$(wc -l < "$TMPDIR_TEST/samples")
	size=$(wc -c < "$TMPDIR_TEST/script")
	if [ "$count" -lt 50000 ] || [ "$samples" -lt 8 ]; then
		skip "RSS: $count commands, $samples samples (50 000 commands" \
			"and 8 s needed for a warm-up)"
	else
		verdict=$(awk -v size="$size" '
			$4 > size / 4 && $4 <= size / 2 {
				n2++
				if ($1 > early)
					early = $1
			}
			$4 > size / 2 {
				n34++
				if ($1 > late)
					late = $1
			}
			END {
				limit = early * 1.10 + 2048
				printf "%s %d kB then %d kB (limit %d kB; %d and " \
					"%d samples)\n",
					late <= limit ? "flat" : "grows",
					early, late, limit, n2, n34
			}' "$TMPDIR_TEST/samples")
		case $verdict in
		flat*) ok "RSS flat after the warm-up: $verdict" ;;
		*) not_ok "RSS flat after the warm-up: $verdict" ;;
		esac
	fi
fi

tap_done
