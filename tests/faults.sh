# faults.sh - sourced by the fault tests (test-faults.sh,
# e2e/test-tui-faults.sh) after lib.sh: the private runtime directories
# go to the test's own directory, and the checks made after a process
# that a signal or a fault ended.  The test sets $dir (the trace) and
# $cache (its cache directory).
CACHE_CHECK="$top_builddir/tests/cache-check"
XDG_RUNTIME_DIR="$TMPDIR_TEST/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
export XDG_RUNTIME_DIR

# private_gone: no private directory left in the runtime directory.
private_gone() {
	left=$(ls -A "$XDG_RUNTIME_DIR/tracenav" 2>/dev/null)
	[ -z "$left" ] && return 0
	diag "left in the runtime directory: $left"
	return 1
}

# cache_sound [DIR]: the index and marks files of $dir in DIR ($cache by
# default) load and pass their checks (or are absent), no temporary
# file is left.
cache_sound() {
	"$CACHE_CHECK" "$dir" "${1:-$cache}" > "$TMPDIR_TEST/check" 2>&1 &&
		return 0
	sed 's/^/# /' "$TMPDIR_TEST/check"
	return 1
}
