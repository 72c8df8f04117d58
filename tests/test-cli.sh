#!/bin/sh
# The command line as users meet it: every option documented in --help
# and in the man page, exit status 2 when the event list has no terminal,
# --info naming each trace's directory, lost events in the quick start's
# demo trace.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# todo DESC COMMAND...: a check of something not done yet (TAP "# TODO":
# the driver counts a failure as expected and a pass as a failure, so
# that whoever makes it pass removes the TODO).
todo() {
	what=$1
	shift
	tap_count=$((tap_count + 1))
	if "$@"; then
		echo "ok $tap_count - $what # TODO"
	else
		echo "not ok $tap_count - $what # TODO"
	fi
}

# --- Every option of src/main.c's getopt table is documented. --------
main_c="$top_srcdir/src/main.c"
man="$top_srcdir/doc/tracenav.1"
# "NAME X" for each entry of the table: X is the short option, or - for none.
sed -n '/struct option options\[\]/,/{ NULL/p' "$main_c" |
	sed -n -e "s/^[[:space:]]*{ \"\([a-z-]*\)\",.*, '\(.\)' },.*/\1 \2/p" \
		-e 's/^[[:space:]]*{ "\([a-z-]*\)",.*/\1 -/p' > "$TMPDIR_TEST/long"
shorts=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$main_c" |
	tr -d ':')
check "main.c: the getopt table has options" test -s "$TMPDIR_TEST/long"
check "main.c: the short options are found" test -n "$shorts"

"$TRACENAV" --help > "$TMPDIR_TEST/help"
check "--help exits 0" test $? = 0
# The man page as text: \- is -, font changes go.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man" > "$TMPDIR_TEST/man"
# section NAME: the lines of a man page section.
section() {
	sed -n "/^\.SH $1\$/,/^\.SH /p" "$TMPDIR_TEST/man"
}
section SYNOPSIS > "$TMPDIR_TEST/synopsis"
{ section MODES; section OPTIONS; } > "$TMPDIR_TEST/options"

while read -r name letter; do
	check "--$name is in --help" grep -q -e "--$name\\b" "$TMPDIR_TEST/help"
	# The synopsis may give the short form.
	short="--$name\\b"
	[ "$letter" = - ] || short="[[ ]-$letter\\b"
	check "--$name is in the man page's SYNOPSIS" \
		grep -q -e "--$name\\b" -e "$short" "$TMPDIR_TEST/synopsis"
	check "--$name is described in the man page" \
		grep -q -e "^\.B[IR]* .*--$name\\b" "$TMPDIR_TEST/options"
done < "$TMPDIR_TEST/long"
for letter in $(echo "$shorts" | sed 's/./& /g'); do
	check "-$letter is in --help" grep -q -e "^  -$letter, --" "$TMPDIR_TEST/help"
	check "-$letter is described in the man page" \
		grep -q -e "^\.BR -$letter \", \" --" "$TMPDIR_TEST/options"
done

# --- The event list without a terminal: a usage error. ---------------
trace="$TMPDIR_TEST/trace"
"$GEN_TRACE" --events 1000 --cpus 2 "$trace" >/dev/null
"$TRACENAV" --no-index "$trace" </dev/null >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err"
status=$?
check "event list without a terminal: exit status 2 (got $status)" test "$status" = 2
check "event list without a terminal: says so" \
	grep -q "the event list needs a terminal" "$TMPDIR_TEST/err"
check "event list without a terminal: nothing on stdout" \
	test ! -s "$TMPDIR_TEST/out"
# A terminal whose TERM terminfo does not know.
if command -v python3 >/dev/null 2>&1; then
	TERM=no-such-terminal python3 -c '
import os, pty, sys
sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))
' "$TRACENAV" --no-index "$trace" </dev/null >"$TMPDIR_TEST/out" 2>&1
	status=$?
	check "unknown TERM: exit status 2 (got $status)" test "$status" = 2
	check "unknown TERM: says so" \
		grep -q "cannot use the terminal type 'no-such-terminal'" \
		"$TMPDIR_TEST/out"
else
	skip "python3 is not installed (unknown TERM)"
fi

# --- --info names the directory of each trace. -----------------------
hosts="$TMPDIR_TEST/hosts"
"$GEN_TRACE" --events 4000 --cpus 2 --traces 2 --domain both \
	--plan "$TMPDIR_TEST/hosts.plan" "$hosts" >/dev/null
"$TRACENAV" --info "$hosts" > "$TMPDIR_TEST/info"
check "--info exits 0" test $? = 0
# The block of each "trace N:" (up to the next blank line) must name the
# directory whose metadata has its UUID (the plan's "trace DIR HOST UUID").
names_its_dir() {
	awk -v uuid="$2" -v dir="$hosts/$1" '
		function end_block() {
			if (index(block, uuid) && index(block, dir))
				found = 1
			block = ""
		}
		/^trace [0-9]+:/ { end_block(); inside = 1 }
		/^$/ { end_block(); inside = 0 }
		inside { block = block "\n" $0 }
		END { end_block(); exit !found }' "$TMPDIR_TEST/info"
}
sed -n 's/^trace //p' "$TMPDIR_TEST/hosts.plan" > "$TMPDIR_TEST/traces"
while read -r dir host uuid; do
	check "--info: the trace of $dir ($host) names its directory" \
		names_its_dir "$dir" "$uuid"
done < "$TMPDIR_TEST/traces"

# --- The README's set-up commands are the ones CI runs, in order. ----
# Those of the Quick start section (indented "sh tools/..." lines) and
# those .ci/run runs (its lines that are not comments).
sed -n '/^Quick start$/,/^Using it$/s/^    \(sh tools\/.*\)$/\1/p' \
	"$top_srcdir/README" > "$TMPDIR_TEST/readme.cmds"
sed -e '/^[[:space:]]*#/d' "$top_srcdir/.ci/run" |
	grep -o 'sh tools/[a-z-]*\( --[a-z-]*\)*' > "$TMPDIR_TEST/ci.cmds"
check "README: quick start, test command and full sweep ($(wc -l < "$TMPDIR_TEST/readme.cmds") commands)" \
	test "$(cat "$TMPDIR_TEST/readme.cmds")" = "sh tools/quickstart
sh tools/test-all
sh tools/test-all --full"
check "README's set-up commands are .ci/run's, in that order" \
	cmp -s "$TMPDIR_TEST/readme.cmds" "$TMPDIR_TEST/ci.cmds"

# --- The quick start's demo trace has lost events. -------------------
demo_options=$(sed -n 's/^demo_options="\(.*\)"$/\1/p' \
	"$top_srcdir/tools/quickstart")
check "tools/quickstart: demo_options found" test -n "$demo_options"
demo="$TMPDIR_TEST/demo"
# shellcheck disable=SC2086
"$GEN_TRACE" $demo_options --plan "$TMPDIR_TEST/demo.plan" "$demo" >/dev/null
lost=$(sed -n 's/^discarded_events //p' "$TMPDIR_TEST/demo.plan")
check "demo trace: the plan has discarded events ($lost)" test "${lost:-0}" -gt 0
"$TRACENAV" --dump "$demo" 2>&1 >/dev/null |
	grep "^WARNING: Tracer discarded" > "$TMPDIR_TEST/tn.warn"
check "demo trace: tracenav --dump warns of lost events" \
	test -s "$TMPDIR_TEST/tn.warn"
reported=$(grep -o "discarded [0-9]* event" "$TMPDIR_TEST/tn.warn" |
	awk '{ n += $2 } END { print n + 0 }')
check "demo trace: $reported discarded events reported, plan says $lost" \
	test "$reported" = "$lost"
if have_babeltrace2; then
	babeltrace2 "$demo" 2>&1 >/dev/null |
		grep "^WARNING: Tracer discarded" > "$TMPDIR_TEST/bt.warn"
	# babeltrace2 names the traces "host/kernel" and "host/ust" (its
	# src.ctf.fs gets trace-name=kernel, ust: the directory under PATH),
	# tracenav "host".
	check "demo trace: the same warnings from babeltrace2 (trace names)" \
		cmp -s "$TMPDIR_TEST/bt.warn" "$TMPDIR_TEST/tn.warn"
	# Apart from the trace names, the same warnings.
	sed 's/ in trace "[^"]*" / /' "$TMPDIR_TEST/bt.warn" > "$TMPDIR_TEST/bt.warn2"
	sed 's/ in trace "[^"]*" / /' "$TMPDIR_TEST/tn.warn" > "$TMPDIR_TEST/tn.warn2"
	check "demo trace: the same warnings from babeltrace2, but the trace names" \
		cmp -s "$TMPDIR_TEST/bt.warn2" "$TMPDIR_TEST/tn.warn2"
else
	skip "babeltrace2 CLI not installed"
fi

tap_done
