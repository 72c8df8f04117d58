#!/bin/sh
# Other sources than CTF traces, through --dump --component: a dmesg log
# (src.text.dmesg, lines without a timestamp among them) and
# tools/bt_plugin_tnlog.py, the example of a Python source plugin, each
# against babeltrace2 --component on the same input, with the events the
# inputs were written with; --params as babeltrace2 takes them; --count;
# the errors (a class that is not installed, a malformed class name or
# --params, a missing file, the other modes).  The Python plugin's
# checks are skipped without python3-bt2 and
# libbabeltrace2-python-plugin-provider (tools/install-deps installs
# them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed"
	tap_done
	exit
fi
make_tmpdir
export TZ=UTC
work=$TMPDIR_TEST

cat >"$work/dmesg.txt" <<'EOF'
[    0.000000] Linux version 6.1.0-13-amd64 (debian-kernel@lists.debian.org)
[    0.000000] Command line: BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64 ro quiet
a line without a timestamp
[    0.004123] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
[    1.250000] usb 1-1: new high-speed USB device number 2 using xhci_hcd
[   12.500001] EXT4-fs (sda1): mounted filesystem with ordered data mode
EOF
lines=$(wc -l <"$work/dmesg.txt" | tr -d ' ')

# same WHAT TRACENAV-ARGS -- BABELTRACE2-ARGS: both print the same.
same() {
	what=$1
	shift
	tn_args=
	while [ "$1" != -- ]; do
		tn_args="$tn_args '$1'"
		shift
	done
	shift
	eval "\"\$TRACENAV\" --dump $tn_args" >"$work/tn" 2>"$work/tn.err"
	tn_status=$?
	babeltrace2 "$@" >"$work/bt" 2>/dev/null
	check "$what ($(grep -c . "$work/tn") lines, exit $tn_status)" \
		eval '[ $tn_status = 0 ] && [ -s "$work/bt" ] && cmp -s "$work/tn" "$work/bt"'
	diff "$work/tn" "$work/bt" | head -4 | sed 's/^/# /'
}

same "src.text.dmesg: --dump = babeltrace2 --component" \
	--component=src.text.dmesg "$work/dmesg.txt" -- \
	--component=src.text.dmesg --params="path=\"$work/dmesg.txt\""
check "src.text.dmesg: every line an event, the one without a timestamp too" \
	eval '[ "$(grep -c . "$work/tn")" = $lines ] &&
	      grep -q "str = \"a line without a timestamp\"" "$work/tn" &&
	      grep -q "^\[00:00:12.500001000\] .*EXT4-fs" "$work/tn"'
# A line without a timestamp after timed ones: src.text.dmesg gives it
# the time 0, which stops babeltrace2's muxer; tracenav reads on.
printf '[    1.500000] one\nno timestamp\n[    2.000000] two\n' \
	>"$work/late.txt"
"$TRACENAV" --dump --component=src.text.dmesg "$work/late.txt" \
	>"$work/tn" 2>"$work/tn.err"
status=$?
check "a line without a timestamp after timed ones does not stop the read (exit $status)" \
	eval '[ $status = 0 ] && [ "$(grep -c . "$work/tn")" = 3 ] &&
	      tail -1 "$work/tn" | grep -q "str = \"two\"" && ! grep -q . "$work/tn.err"'
check "its time goes back: printed with its negative delta" \
	grep -q '^\[00:00:00.000000000\] (-1.500000000) string: { str = "no timestamp" }' \
	"$work/tn"
# The same in --batch (the component's events written as a CTF trace
# first: its stream's time goes back, read on): the index counts all
# three, and the lines are --dump's.
"$TRACENAV" --batch 'index; print 3' --component=src.text.dmesg \
	"$work/late.txt" >"$work/batch" 2>"$work/batch.err"
status=$?
check "--batch: the converted trace read whole, the index counts 3 events, --dump's lines (exit $status)" \
	eval '[ $status = 0 ] && cmp -s "$work/batch" "$work/tn" &&
	      grep -q "^3 events indexed$" "$work/batch.err"'
same "--params (a boolean): no-extract-timestamp=yes = babeltrace2's" \
	--component=src.text.dmesg --params=no-extract-timestamp=yes \
	"$work/dmesg.txt" -- --component=src.text.dmesg \
	--params="path=\"$work/dmesg.txt\",no-extract-timestamp=yes"
check "--params: the whole line, timestamp included" \
	grep -q 'str = "\[    1.250000\] usb 1-1' "$work/tn"
same "the path given in --params instead" \
	--component=src.text.dmesg --params="path=\"$work/dmesg.txt\"" -- \
	--component=src.text.dmesg --params="path=\"$work/dmesg.txt\""
"$TRACENAV" --dump --count 2 --component=src.text.dmesg "$work/dmesg.txt" \
	>"$work/tn" 2>&1
check "--count 2: two events" test "$(grep -c . "$work/tn")" = 2

# err_check WHAT STATUS PATTERN ARGS...: tracenav ARGS exits STATUS and
# says PATTERN in one line.
err_check() {
	what=$1 want=$2 pattern=$3
	shift 3
	"$TRACENAV" "$@" >/dev/null 2>"$work/err" </dev/null
	status=$?
	check "$what: exit $status, one line" eval \
		'[ $status = $want ] && head -1 "$work/err" | grep -q -- "$pattern"'
	head -1 "$work/err" | sed 's/^/# /'
}
err_check "a class name of another form" 1 "write src.PLUGIN.CLASS" \
	--dump --component=text.dmesg "$work/dmesg.txt"
err_check "a plugin that is not installed" 1 \
	'plugin "nosuch" is not installed (`babeltrace2 list-plugins`' \
	--dump --component=src.nosuch.source "$work/dmesg.txt"
err_check "a class that the plugin has not" 1 \
	"has no component class source.text.nosuch" \
	--dump --component=src.text.nosuch "$work/dmesg.txt"
err_check "malformed --params: where" 1 \
	"--params: expected a value at column 22 of" \
	--dump --component=src.text.dmesg --params=no-extract-timestamp= \
	"$work/dmesg.txt"
err_check "a parameter the component refuses: its words" 1 \
	"unexpected key .colour." \
	--dump --component=src.text.dmesg --params=colour=red "$work/dmesg.txt"
err_check "a file that is not there" 1 "$work/none.txt: No such file" \
	--dump --component=src.text.dmesg "$work/none.txt"
err_check "--params without --component" 2 "give it too" \
	--dump --params=a=1 "$work/dmesg.txt"

# Each form of --params value reaches the component as its type: what
# src.text.dmesg's check of a boolean parameter says it got.
for pair in '"x"|STRING' 'word|STRING' '-12|SIGNED_INTEGER' \
		'0x1f|SIGNED_INTEGER' '+12|UNSIGNED_INTEGER' '1.5|REAL' \
		'-2e3|REAL' '[1, "a b", [2]]|ARRAY' '{a=1, b={c=[]}}|MAP' \
		'null|NULL'; do
	value=${pair%|*} type=${pair##*|}
	"$TRACENAV" --dump --component=src.text.dmesg \
		--params="no-extract-timestamp=$value" "$work/dmesg.txt" \
		>/dev/null 2>"$work/err"
	check "--params value $value: a $type" \
		grep -q "expected-type=BOOL, actual-type=$type" "$work/err"
done

# --batch and --info: the events written as a CTF trace first.
"$TRACENAV" --batch 'count; goto end; where; search EXT4; print 1; cputop' \
	--component=src.text.dmesg "$work/dmesg.txt" >"$work/batch" \
	2>"$work/batch.err"
status=$?
check "--batch on a dmesg log: count, jumps, search (exit $status)" \
	eval '[ $status = 0 ] && [ "$(sed -n 1p "$work/batch")" = "$lines events" ] &&
	      sed -n 2p "$work/batch" | grep -q "^at 1970-01-01 00:00:12.500001000" &&
	      sed -n 3p "$work/batch" | grep -q "EXT4-fs (sda1)"'
check "--batch: an analysis of it says it needs a kernel trace" \
	grep -q "^cputop: the analyses read the events of an LTTng kernel trace, which this one is not" \
		"$work/batch.err"
"$TRACENAV" --info --component=src.text.dmesg "$work/dmesg.txt" \
	>"$work/info" 2>&1
check "--info on a dmesg log: its one stream" \
	grep -q "^streams: *1$" "$work/info"

# The Python plugin of tools/.
plugins=$top_srcdir/tools
if ! babeltrace2 --plugin-path="$plugins" list-plugins 2>/dev/null |
		grep -q "source.tnlog.log"; then
	skip "libbabeltrace2 loads no Python plugin here (python3-bt2 and libbabeltrace2-python-plugin-provider: tools/install-deps)"
	tap_done
	exit
fi
cat >"$work/app.log" <<'EOF'
2026-12-06T10:15:02.123456789 INFO connected to 10.0.0.2
2026-12-06T10:15:02.2 WARN retrying "now"
  a continuation line
2026-12-06T10:15:03 ERROR gave up
2026-12-06T10:15:01 INFO an earlier time, taken as the last one
EOF
same "tools/bt_plugin_tnlog.py: --dump = babeltrace2 --component" \
	--plugin-path="$plugins" --component=src.tnlog.log "$work/app.log" -- \
	--plugin-path="$plugins" --component=src.tnlog.log \
	--params="path=\"$work/app.log\""
cat >"$work/want" <<'EOF'
[10:15:02.123456789] (+?.?????????) INFO: { level = "INFO", message = "connected to 10.0.0.2" }
[10:15:02.200000000] (+0.076543211) WARN: { level = "WARN", message = "retrying \"now\"" }
[10:15:02.200000000] (+0.000000000) line: { level = "", message = "  a continuation line" }
[10:15:03.000000000] (+0.800000000) ERROR: { level = "ERROR", message = "gave up" }
[10:15:03.000000000] (+0.000000000) INFO: { level = "INFO", message = "an earlier time, taken as the last one" }
EOF
check "tools/bt_plugin_tnlog.py: the events the log was written with" \
	cmp -s "$work/tn" "$work/want"
diff "$work/tn" "$work/want" | head -4 | sed 's/^/# /'
BABELTRACE_PLUGIN_PATH=$plugins "$TRACENAV" --dump \
	--component=src.tnlog.log "$work/app.log" >"$work/env" 2>&1
check "the plugin found through BABELTRACE_PLUGIN_PATH too" \
	cmp -s "$work/env" "$work/want"

tap_done
