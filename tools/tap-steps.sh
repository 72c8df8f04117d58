# tap-steps.sh - checks of a step of the full sweep that is not an
# automake test (tools/test-package, tools/test-cross), sourced: each
# check prints a TAP line, and finish writes LOG (set by the caller) with
# automake's lines, which tools/test-all counts and whose failed checks
# it names.

passed=0 failed=0 skipped=0 n=0
results=

# result ok|fail|skip WHAT: one check.
result() {
	n=$((n + 1))
	case $1 in
	ok)
		echo "ok $n - $2"
		passed=$((passed + 1))
		results="${results}PASS: $step_name $n - $2
"
		;;
	skip)
		echo "ok $n # SKIP $2"
		skipped=$((skipped + 1))
		results="${results}SKIP: $step_name $n # SKIP $2
"
		;;
	*)
		echo "not ok $n - $2"
		failed=$((failed + 1))
		results="${results}FAIL: $step_name $n - $2
not ok $n - $2
"
		;;
	esac
}

# check WHAT COMMAND...: passes if COMMAND succeeds.
check() {
	what=$1
	shift
	if "$@"; then result ok "$what"; else result fail "$what"; fi
}

# finish: the log, the plan, the exit (0 when no check failed).
finish() {
	{
		printf '%s' "$results"
		printf '# PASS: %s\n# FAIL: %s\n# SKIP: %s\n' "$passed" \
			"$failed" "$skipped"
	} >"$LOG"
	echo "1..$n"
	[ "$failed" = 0 ]
	exit
}
