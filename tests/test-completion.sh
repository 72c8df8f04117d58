#!/bin/sh
# The bash completion of tracenav's options (doc/tracenav.bash, installed
# with it): every long option that --help lists is offered for `--<Tab>`,
# and only those; a prefix narrows them; the options that take a file or
# a directory complete one; the trace is a directory.  Skipped without
# bash.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! command -v bash >/dev/null 2>&1; then
	skip "no bash"
	tap_done
	exit
fi
make_tmpdir
mkdir -p "$TMPDIR_TEST/dir/trace-a" "$TMPDIR_TEST/dir/trace-b"
: >"$TMPDIR_TEST/dir/rules"

# complete WORD...: what _tracenav offers for the last word of
# `tracenav WORD...`, one a line, sorted.
complete_words() {
	(cd "$TMPDIR_TEST/dir" && bash -c '
		. "$1"
		shift
		COMP_WORDS=(tracenav "$@")
		COMP_CWORD=$#
		_tracenav
		printf "%s\n" "${COMPREPLY[@]}"' sh \
		"$top_srcdir/doc/tracenav.bash" "$@") | sed '/^$/d' | sort
}

"$TRACENAV" --help | grep -o -e '--[a-z][a-z-]*' | sort -u \
	>"$TMPDIR_TEST/help"
complete_words -- >"$TMPDIR_TEST/offered"
check "--<Tab>: every long option of --help, and only those ($(wc -l <"$TMPDIR_TEST/offered" | tr -d ' '))" \
	cmp -s "$TMPDIR_TEST/help" "$TMPDIR_TEST/offered"
diff "$TMPDIR_TEST/help" "$TMPDIR_TEST/offered" | sed 's/^/# /'
check "--no-<Tab>: the four --no- options" \
	test "$(complete_words --no- | tr '\n' ' ')" = \
		"--no-cache --no-index --no-mouse --no-seq-index "
check "--du<Tab>: --dump" test "$(complete_words --du)" = "--dump"
check "a trace: the directories" \
	test "$(complete_words --dump tr | tr '\n' ' ')" = "trace-a trace-b "
check "--seq-rules <Tab>: files too" \
	eval 'complete_words --seq-rules r | grep -qx rules'
check "--seq-rules=<Tab> (one word for bash's split at =): files too" \
	eval 'complete_words --seq-rules = r | grep -qx rules'
check "--cache-dir <Tab>: directories only" \
	test "$(complete_words --cache-dir "" | tr '\n' ' ')" = "trace-a trace-b "
check "--batch <Tab>: nothing (a script)" \
	test -z "$(complete_words --batch "")"

tap_done
