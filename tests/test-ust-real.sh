#!/bin/sh
# The LTTng-UST traces recorded by tools/record-ust-traces from the
# programs of tests/ust/ (tests/data): --dump against babeltrace2; the
# sequence diagram of ust-messages (seqdiag-list, seqdiag-find) against
# awk's pairing of its send and receive events; the state of ust-calls
# and ust-messages (process and thread names, call stacks from the
# cyg-profile events, with and without --symbols and the program's nm
# file) against awk over the dump (tests/stacks.awk).  The checks are
# in tests/ust-checks.sh.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8
. "$top_srcdir/tests/ust-checks.sh"

data=$top_srcdir/tests/data

check_recordings "$data"

tap_done
