#!/bin/sh
# Bad input gets one clear message on stderr and a known exit status:
# 1 for a trace that cannot be read, 2 for bad usage; never a signal.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# expect_error DESC STATUS PATTERN ARGS...: tracenav ARGS exits with
# STATUS, prints nothing on stdout... (except events read before a
# failure) and one stderr line matching PATTERN (a grep -E regex).
expect_error() {
	desc=$1
	want=$2
	pattern=$3
	shift 3
	"$TRACENAV" "$@" >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err"
	status=$?
	lines=$(wc -l < "$TMPDIR_TEST/err")
	if [ "$status" = "$want" ] && grep -Eq -- "$pattern" "$TMPDIR_TEST/err" &&
	   { [ "$want" = 2 ] || [ "$lines" = 1 ]; }; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $status (want $want), $lines stderr lines:"
		head -3 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# Bad usage.
expect_error "no argument" 2 "no trace given"
expect_error "unknown option" 2 "unknown option '--frobnicate'" --frobnicate x
expect_error "two paths" 2 "one trace path only" --dump a b
expect_error "missing option argument" 2 "needs an argument" --dump x --begin
expect_error "bad --count" 2 "--count wants a number" --dump --count=abc x

# Paths that are not traces.
expect_error "missing path" 1 "^tracenav: $TMPDIR_TEST/nope: No such file" \
	--dump "$TMPDIR_TEST/nope"
mkdir "$TMPDIR_TEST/empty"
expect_error "directory without trace" 1 "no CTF trace found" \
	--dump "$TMPDIR_TEST/empty"
echo hello > "$TMPDIR_TEST/file"
expect_error "a plain file" 1 "not a directory" --dump "$TMPDIR_TEST/file"
mkdir "$TMPDIR_TEST/garbage"
printf 'this is not TSDL {{{\n' > "$TMPDIR_TEST/garbage/metadata"
expect_error "garbage metadata" 1 "garbage: cannot read the trace metadata: not CTF metadata: .*signature .* missing" \
	--dump "$TMPDIR_TEST/garbage"
mkdir "$TMPDIR_TEST/unreadable"
: > "$TMPDIR_TEST/unreadable/metadata"
expect_error "empty metadata" 1 "unreadable: cannot read the trace metadata: the .metadata. file is empty" \
	--dump "$TMPDIR_TEST/unreadable"

# A good generated trace, then damaged copies of it.
"$GEN_TRACE" --events 2000 --cpus 2 --packet-size 4096 "$TMPDIR_TEST/good" \
	>/dev/null 2>&1
"$TRACENAV" --dump --count 1 "$TMPDIR_TEST/good" >/dev/null 2>&1
check "generated trace reads" test $? = 0

# Bad times keep to usage errors and name the option.
expect_error "bad --begin" 2 "^tracenav: --begin: invalid time \"yesterday\"" \
	--dump --begin yesterday "$TMPDIR_TEST/good"
expect_error "bad --end" 2 "^tracenav: --end: " \
	--dump --end 12:3 "$TMPDIR_TEST/good"
expect_error "--begin after --end" 2 "is after --end" \
	--dump --begin 20 --end 10 "$TMPDIR_TEST/good"

# A stream file cut inside a packet (4096 bytes each): its whole
# packets are read, the rest left out, said on one line naming the file
# (tests/test-robustness.sh has many more kinds of damage).
cp -r "$TMPDIR_TEST/good" "$TMPDIR_TEST/truncated"
stream=$(ls "$TMPDIR_TEST/truncated" | grep -v -e metadata -e index | head -1)
truncate -s 6000 "$TMPDIR_TEST/truncated/$stream"
expect_error "truncated stream file" 1 \
	"^tracenav: $TMPDIR_TEST/truncated/$stream: read up to byte 4096 of 6000: " \
	--dump "$TMPDIR_TEST/truncated"
check "truncated stream file: the other events are printed" \
	test -s "$TMPDIR_TEST/out"

cp -r "$TMPDIR_TEST/good" "$TMPDIR_TEST/noindex-truncated"
rm -r "$TMPDIR_TEST/noindex-truncated/index"
truncate -s 6000 "$TMPDIR_TEST/noindex-truncated/$stream"
expect_error "truncated stream file without index" 1 \
	"^tracenav: $TMPDIR_TEST/noindex-truncated/$stream: read up to byte 4096 of 6000: " \
	--dump "$TMPDIR_TEST/noindex-truncated"

cp -r "$TMPDIR_TEST/good" "$TMPDIR_TEST/scribbled"
# Overwrite the magic number of the second packet (packets are 4096
# bytes): the first packet's events come out, then the error.
printf 'XXXX' | dd of="$TMPDIR_TEST/scribbled/$stream" bs=1 seek=4096 \
	conv=notrunc 2>/dev/null
expect_error "scribbled stream file" 1 \
	"scribbled: cannot read stream file $TMPDIR_TEST/scribbled/$stream: Invalid CTF magic number" \
	--dump "$TMPDIR_TEST/scribbled"
check "scribbled stream: events before the damage are printed" \
	test -s "$TMPDIR_TEST/out"

# The corpus's corrupt traces: exit 1 and one line naming the trace.
if [ -d "$SHARED_TRACES/babeltrace2/fail" ]; then
	for dir in "$SHARED_TRACES"/babeltrace2/fail/*/; do
		dir=${dir%/}
		name=${dir##*/}
		expect_error "corrupt trace $name" 1 \
			"^tracenav: $dir(/[^:]*)?: cannot read" --dump "$dir"
	done
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
