# lib.sh - helpers for the TAP shell tests (sourced, POSIX sh).
#
# Each check prints "ok N - what" or "not ok N - what"; tap_done prints
# the plan.  The automake TAP driver counts every check as one test.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
TRACENAV="$top_builddir/tracenav"
GEN_TRACE="$top_builddir/tools/gen-trace"
# Real traces live beside the repository, never in it.
: "${TRACENAV_SHARED_TRACES:=$top_srcdir/../shared/traces}"
SHARED_TRACES="$TRACENAV_SHARED_TRACES"

tap_count=0
tap_failed=0

# sanitized: whether tracenav was built with AddressSanitizer or
# ThreadSanitizer (5 to 20 times slower): tests that repeat one check
# over many points of a trace check fewer of them there.
sanitized() {
	nm "$TRACENAV" 2>/dev/null | grep -q -e __tsan_init -e __asan_init
}

ok() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $*"
}

not_ok() {
	tap_count=$((tap_count + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_count - $*"
}

# check DESCRIPTION COMMAND...: one check that passes if COMMAND succeeds.
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

skip() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count # SKIP $*"
}

# Print a diagnostic (indented so the driver shows it in the log).
diag() {
	echo "$*" | sed 's/^/# /'
}

tap_done() {
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
}

# wait_until TENTHS COMMAND...: run COMMAND every tenth of a second
# until it succeeds, TENTHS times at most; its last status.
wait_until() {
	tenths=$1
	shift
	i=1
	while [ $i -lt "$tenths" ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	"$@"
}

# shared_trace NAME OPTIONS...: the path of a trace named NAME (the last
# part of the path, which tracenav shows) that tools/gen-trace made with
# OPTIONS, generated once per build and shared by the tests that ask for
# the same one (multi-million-event traces: each test generating its own
# copy costs disk and time).  The traces live in the build's
# tests/trace-cache, under a checksum of the name, the options and the
# generator itself; read-only for the tests.  Two tests asking at once
# each generate, and the first rename wins.
shared_trace() {
	st_cache="${TRACENAV_TEST_TRACE_CACHE:-$top_builddir/tests/trace-cache}"
	st_key=$({ printf '%s\n' "$@"; cksum <"$GEN_TRACE"; } | cksum | tr ' ' -)
	st_name=$1
	shift
	if [ ! -d "$st_cache/$st_key" ]; then
		mkdir -p "$st_cache" || return 1
		st_new=$(mktemp -d "$st_cache/new.XXXXXX") || return 1
		"$GEN_TRACE" "$@" "$st_new/$st_name" >/dev/null &&
			mv -T "$st_new" "$st_cache/$st_key" 2>/dev/null
		rm -rf "$st_new"
	fi
	[ -d "$st_cache/$st_key/$st_name" ] && echo "$st_cache/$st_key/$st_name"
}

# corpus_share: the lines of stdin (traces of the shared corpus) that
# this test goes through: all of them, but in the sanitizer builds (5 to
# 20 times slower, and looking for memory errors and races rather than
# wrong output) a third, a different third for each test (chosen by its
# name), so that the tests together still cover the corpus there.
# test-dump-shared.sh reads every trace in every build.
corpus_share() {
	if sanitized; then
		awk -v salt="$(basename "$0" | cksum | cut -d' ' -f1)" \
			'(NR + salt) % 3 == 0'
	else
		cat
	fi
}

# A private temporary directory, removed on exit.
make_tmpdir() {
	TMPDIR_TEST=$(mktemp -d "${TMPDIR:-/tmp}/tracenav-test.XXXXXX")
	trap 'rm -rf "$TMPDIR_TEST"' EXIT INT TERM
	# Checkpoint indexes (and marks) go to the test's own cache, and
	# the prompt's history to its own state directory, not the user's.
	XDG_CACHE_HOME="$TMPDIR_TEST/cache"
	XDG_STATE_HOME="$TMPDIR_TEST/state"
	# Nor the user's sequence diagram rules.
	XDG_CONFIG_HOME="$TMPDIR_TEST/config"
	export XDG_CACHE_HOME XDG_STATE_HOME XDG_CONFIG_HOME
}

have_babeltrace2() {
	command -v babeltrace2 >/dev/null 2>&1
}

# same_output DESC PATH [OPTIONS...]: tracenav --dump and babeltrace2
# print the same stdout and exit with the same status.
same_output() {
	desc=$1
	path=$2
	shift 2
	babeltrace2 "$@" "$path" >"$TMPDIR_TEST/bt.out" 2>"$TMPDIR_TEST/bt.err"
	bt_status=$?
	"$TRACENAV" --dump "$@" "$path" >"$TMPDIR_TEST/tn.out" 2>"$TMPDIR_TEST/tn.err"
	tn_status=$?
	if [ "$bt_status" = "$tn_status" ] &&
	   cmp -s "$TMPDIR_TEST/bt.out" "$TMPDIR_TEST/tn.out"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "babeltrace2 exit $bt_status, tracenav exit $tn_status"
		diff "$TMPDIR_TEST/bt.out" "$TMPDIR_TEST/tn.out" | head -5 |
			cut -c1-200 | sed 's/^/# /'
		head -3 "$TMPDIR_TEST/tn.err" | cut -c1-200 | sed 's/^/# /'
	fi
}

# pick N FIRST LAST SEED: N event numbers in FIRST..LAST, sorted, each
# once (so maybe fewer than N).
pick() {
	awk -v n="$1" -v lo="$2" -v hi="$3" -v seed="$4" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			print lo + int(rand() * (hi - lo + 1))
	}' | sort -n -u
}

# same_lines DESC WANT GOT STATUS: one check, WANT and GOT equal once
# sorted (and not empty), STATUS (the exit status of what wrote GOT) 0;
# else the differences, and the start of $TMPDIR_TEST/err.
same_lines() {
	sort "$2" > "$2.sorted"
	sort "$3" > "$3.sorted"
	if [ "$4" = 0 ] && [ -s "$2.sorted" ] &&
	   cmp -s "$2.sorted" "$3.sorted"; then
		ok "$1: $(wc -l < "$2.sorted") lines agree"
	else
		not_ok "$1"
		diag "exit $4: $(head -3 "$TMPDIR_TEST/err" 2>/dev/null)"
		diff "$2.sorted" "$3.sorted" | head -10 | cut -c1-200 |
			while IFS= read -r line; do diag "$line"; done
	fi
}

# shared_wakeup_traces FUNCTION: run `FUNCTION NAME TRACE` for each
# kernel trace of the shared corpus (outside fail/) that tracenav reads
# and that has wake-up events, its --dump output in
# $TMPDIR_TEST/shared.dump meanwhile; a skip for each other kernel
# trace, or one when the corpus is not there.  Needs make_tmpdir.
shared_wakeup_traces() {
	if [ ! -d "$SHARED_TRACES" ]; then
		skip "no shared trace corpus at $SHARED_TRACES"
		return
	fi
	for metadata in $(find "$SHARED_TRACES" -name metadata -path '*/*' |
			grep -v '/fail/' | sort); do
		grep -q sched_switch "$metadata" || continue
		trace=$(dirname "$metadata")
		name=${trace#"$SHARED_TRACES"/}
		if ! "$TRACENAV" --dump "$trace" \
				> "$TMPDIR_TEST/shared.dump" 2>/dev/null; then
			skip "$name: tracenav cannot read it"
			continue
		fi
		if ! grep -q ' sched_wak[a-z_]*: ' "$TMPDIR_TEST/shared.dump"
		then
			skip "$name: no wake-up event"
			continue
		fi
		"$1" "$name" "$trace"
	done
}

# repaired_copy SRC ERR DEST: make DEST a copy of the trace (or
# collection) SRC as tracenav read it, from the lines it printed on
# stderr (file ERR): the traces it left out removed, the stream files it
# read in part cut where it stopped ("FILE: read up to byte N of ..."),
# those it skipped removed with their packet index.  What babeltrace2
# prints of DEST is then what tracenav printed of SRC.  Sets
# repaired_changes to what it did ("" when nothing: then tracenav said
# nothing of SRC but maybe that an index was ignored).
repaired_copy() {
	rc_src=$1
	rc_dest=$3
	repaired_changes=
	rm -rf "$rc_dest"
	# Nothing to copy when tracenav left nothing out.
	grep -q -E ': (left out: |read up to byte |skipped, its events are missing: )' \
		"$2" || return 0
	mkdir -p "$(dirname "$rc_dest")"
	cp -R "$rc_src" "$rc_dest"
	chmod -R u+w "$rc_dest"
	rc_left=0
	rc_cut=0
	rc_skipped=0
	while IFS= read -r rc_line; do
		rc_path=${rc_line#tracenav: }
		# A file's line starts with the file alone (an error
		# quoting one of these lines names its trace first).
		case ${rc_path%%: *} in
		*/*) ;;
		*) continue ;;
		esac
		case ${rc_line#tracenav: "${rc_path%%: *}": } in
		"left out: "* | "read up to byte "* | "skipped, its events are missing: "*) ;;
		*) continue ;;
		esac
		case $rc_line in
		"tracenav: $rc_src"*": left out: "*)
			rc_path=${rc_path%%: left out: *}
			rm -rf "$rc_dest${rc_path#"$rc_src"}"
			rc_left=$((rc_left + 1)) ;;
		"tracenav: $rc_src"*": read up to byte "*)
			rc_bytes=${rc_line#*: read up to byte }
			rc_bytes=${rc_bytes%% of *}
			rc_path=${rc_path%%: read up to byte *}
			truncate -s "$rc_bytes" "$rc_dest${rc_path#"$rc_src"}"
			rc_cut=$((rc_cut + 1)) ;;
		"tracenav: $rc_src"*": skipped, its events are missing: "*)
			rc_path=${rc_path%%: skipped, its events are missing: *}
			rc_path=$rc_dest${rc_path#"$rc_src"}
			rm -rf "$rc_path" \
				"$(dirname "$rc_path")/index/$(basename "$rc_path").idx"
			rc_skipped=$((rc_skipped + 1)) ;;
		esac
	done < "$2"
	[ "$rc_left" = 0 ] || repaired_changes="$rc_left traces left out"
	[ "$rc_cut" = 0 ] ||
		repaired_changes="${repaired_changes:+$repaired_changes, }$rc_cut files read in part"
	[ "$rc_skipped" = 0 ] ||
		repaired_changes="${repaired_changes:+$repaired_changes, }$rc_skipped files skipped"
}

# write_growing WHOLE DIR PERCENT: DIR (a copy of WHOLE, a generated
# trace of 4096-byte packets) as a trace being written: each stream file
# holds PERCENT % of its bytes and 500 more (inside a packet), its index
# the entries of the whole packets but the last (written after its
# packet).
write_growing() {
	for wg_file in "$1"/channel0_*; do
		wg_name=${wg_file##*/}
		wg_size=$(stat -c %s "$wg_file")
		wg_cut=$((wg_size * $3 / 100 + 500))
		head -c "$wg_cut" "$wg_file" > "$2/$wg_name"
		wg_entries=$((wg_cut / 4096 - 1))
		head -c $((16 + 72 * wg_entries)) "$1/index/$wg_name.idx" \
			> "$2/index/$wg_name.idx"
	done
}
