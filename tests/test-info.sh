#!/bin/sh
# test-info.sh - `--info` reads a plain trace without a reader (its env,
# uuid and clock from tracenav's reading of the metadata, its streams
# and range from src.ctf.fs's trace-infos query: trace-info.c), and says
# exactly what `--info -v` says through a reader (the probe), with the
# same exit status: on generated traces of each kind (packets without
# times: no range) and on every directory of the shared corpus.  The
# reader-less path opens the metadata file once (strace, in the main
# process).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# same_info DESC DIR: --info and --info -v print the same stdout and
# exit with the same status.
same_info() {
	"$TRACENAV" --info "$2" >"$TMPDIR_TEST/lite.out" 2>"$TMPDIR_TEST/lite.err"
	lite=$?
	"$TRACENAV" --info -v "$2" >"$TMPDIR_TEST/probe.out" 2>/dev/null
	probe=$?
	if [ "$lite" = "$probe" ] &&
	   cmp -s "$TMPDIR_TEST/lite.out" "$TMPDIR_TEST/probe.out"; then
		ok "$1 (exit $lite)"
	else
		not_ok "$1"
		diag "exit $lite without a reader, $probe through one"
		diff "$TMPDIR_TEST/probe.out" "$TMPDIR_TEST/lite.out" | head -6 |
			cut -c1-200 | sed 's/^/# /'
		head -3 "$TMPDIR_TEST/lite.err" | cut -c1-200 | sed 's/^/# /'
	fi
}

# metadata_opens DIR: how many times `--info DIR` opens a file named
# metadata in its own process (not in the query's child).
metadata_opens() {
	strace -o "$TMPDIR_TEST/strace" -e trace=open,openat "$TRACENAV" \
		--info "$1" >/dev/null 2>&1
	grep -c '/metadata"' "$TMPDIR_TEST/strace"
}

g="$TMPDIR_TEST/gen"
mkdir -p "$g"
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 16384 \
	--extra-event-classes 200 --tracer-version 2.8.0 \
	--packetized-metadata "$g/kernel-2.8" >/dev/null
"$GEN_TRACE" --events 20000 --cpus 2 "$g/kernel" >/dev/null
"$GEN_TRACE" --events 20000 --domain ust --hostname box-7 "$g/ust" >/dev/null
"$GEN_TRACE" --events 20000 --cpus 2 --no-index "$g/no-index" >/dev/null
"$GEN_TRACE" --events 3000 --cpus 2 --no-packet-times "$g/no-times" >/dev/null
"$GEN_TRACE" --events 20000 --cpus 2 --lost-every 3 "$g/lost" >/dev/null
"$GEN_TRACE" --events 6000 --cpus 2 --traces 3 "$g/hosts" >/dev/null
mkdir -p "$g/below"
"$GEN_TRACE" --events 3000 --cpus 2 "$g/below/one" >/dev/null
for t in kernel-2.8 kernel ust no-index no-times lost hosts below/one below; do
	same_info "generated $t: the same --info with and without a reader" \
		"$g/$t"
done
# A trace below the path given: named after its hostname and its
# directory (as src.ctf.fs names it when babeltrace2's CLI gives it a
# trace name); the reader-less path is the one taken, the metadata
# opened once.
check "generated below: the trace named after its hostname and directory" \
	grep -q '^trace 0: [^ ]*/one$' "$TMPDIR_TEST/lite.out"
if command -v strace >/dev/null 2>&1; then
	check "generated kernel-2.8: --info opens the metadata once" \
		test "$(metadata_opens "$g/kernel-2.8")" = 1
	check "generated kernel-2.8: --info -v (a reader) opens it twice" \
		test "$(strace -o "$TMPDIR_TEST/strace" -e trace=open,openat \
			"$TRACENAV" --info -v "$g/kernel-2.8" >/dev/null 2>&1;
			grep -c '/metadata"' "$TMPDIR_TEST/strace")" = 2
else
	skip "strace not installed (apt-get install strace)"
fi

if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata -exec dirname {} \; |
		LC_ALL=C sort | corpus_share > "$TMPDIR_TEST/dirs"
	while read -r dir; do
		same_info "${dir#"$SHARED_TRACES"/}" "$dir"
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi
tap_done
