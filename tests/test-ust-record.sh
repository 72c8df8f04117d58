#!/bin/sh
# A fresh recording of the LTTng-UST test traces (tools/record-ust-traces)
# checked as test-ust-real.sh checks the recorded ones
# (tests/ust-checks.sh).  It needs lttng-tools, liblttng-ust-dev, a C
# compiler and a session daemon (or root to start one).  It records
# through the machine's own session daemon (as tools/record-ust-traces
# does, to set the traces' hostname), which anything else on the box may
# use or stop meanwhile, and it failed on a loaded machine: it runs only
# when TRACENAV_TEST_LTTNG=1 and skips, saying why, otherwise.
# (test-ust-live.sh, with a daemon of its own, runs whenever the tools
# are there.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if [ "${TRACENAV_TEST_LTTNG:-}" != 1 ]; then
	skip "recording with LTTng: set TRACENAV_TEST_LTTNG=1 to run it"
	tap_done
	exit
fi
for tool in lttng lttng-sessiond "${CC:-cc}"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip "no $tool to record with"
		tap_done
		exit
	fi
done
if [ "$(id -u)" != 0 ] && ! lttng list >/dev/null 2>&1; then
	skip "no LTTng session daemon running (and not root to start one)"
	tap_done
	exit
fi
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8
. "$top_srcdir/tests/ust-checks.sh"

data=$TMPDIR_TEST/data
if ! "$top_srcdir/tools/record-ust-traces" "$data" \
		> "$TMPDIR_TEST/record.log" 2>&1; then
	skip "tools/record-ust-traces failed: $(tail -1 "$TMPDIR_TEST/record.log")"
	tap_done
	exit
fi
diag "$(cat "$TMPDIR_TEST/record.log")"

check_recordings "$data"

tap_done
