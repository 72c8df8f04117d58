#!/bin/sh
# test-layers.sh - the layers stay layers: no circle of files that call or
# include each other inside the core (src/core), the TUI (src/tui), the
# commands (src/cmd), the session's services (src/service) or the front
# ends' own files (src: the session, the command table, --batch), as
# tools/file-circles finds them in this build's objects.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

if ! command -v python3 >/dev/null || ! command -v nm >/dev/null; then
	skip "python3 and nm are needed"
	tap_done
	exit
fi
if [ -z "$(find "$top_builddir/src/core" -name '*.o' 2>/dev/null | head -1)" ]
then
	skip "no object files in $top_builddir/src (an install, not a build)"
	tap_done
	exit
fi

circles=$TMPDIR_TEST/circles
python3 "$top_srcdir/tools/file-circles" --verbose "$top_builddir" \
	"$top_srcdir" >"$circles" 2>"$TMPDIR_TEST/err"
check "tools/file-circles reads the build" [ $? = 0 ]

# inside DIR: the circles with a file in DIR (their lines, and what
# makes each edge, as diagnostics).
for dir in src/core src/tui src/cmd src/service src; do
	found=$(grep -v '^ ' "$circles" | grep -cE " $dir/[^/ ]+\.c( |\$)")
	if [ "$found" = 0 ]; then
		ok "no circle of files in $dir"
	else
		not_ok "no circle of files in $dir: $found"
		awk -v d=" $dir/" '/^[0-9]/ { keep = index($0, d) > 0 }
			keep' "$circles" | head -40 | sed 's/^/# /'
	fi
done

# The services know nothing of the session that holds them: none
# includes its header (what ties them together is session.c's).
found=$(grep -l '#include ".*session\.h"' "$top_srcdir"/src/service/*.[ch] \
	2>/dev/null)
check "no service includes session.h${found:+: $found}" [ -z "$found" ]

# The check itself: a circle made on purpose is found.
mkdir -p "$TMPDIR_TEST/b/src/x" "$TMPDIR_TEST/s/src/x"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$TMPDIR_TEST/s/src/x/a.c"
printf 'int a(void);\nint b(void) { return a() + 1; }\n' \
	>"$TMPDIR_TEST/s/src/x/b.c"
printf 'int c(void) { return 1; }\n' >"$TMPDIR_TEST/s/src/x/c.c"
built=true
for f in a b c; do
	cc -c -o "$TMPDIR_TEST/b/src/x/$f.o" "$TMPDIR_TEST/s/src/x/$f.c" ||
		built=false
done
if $built; then
	python3 "$top_srcdir/tools/file-circles" "$TMPDIR_TEST/b" \
		"$TMPDIR_TEST/s" >"$TMPDIR_TEST/made"
	check "a circle of two files that call each other is found" \
		grep -qx '2 src/x/a.c src/x/b.c' "$TMPDIR_TEST/made"
else
	skip "no C compiler to make a circle with"
fi

grep -v '^ ' "$circles" | grep -v -e ' src/core/' -e ' src/tui/' \
	-e ' src/cmd/' | sed 's/^/# left: /'
tap_done
