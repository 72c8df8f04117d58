# lttng-user.sh - recording with LTTng in a test (sourced after lib.sh):
# a user and a HOME of the test's own for the session daemon, and
# tests/ust/ticker built (tnticker:tick events numbered 0, 1, 2...).

# lttng_user_setup TOOL...: skips the whole test, saying why, without
# one of the TOOLs, without a C compiler that builds tests/ust/ticker
# with liblttng-ust, or, as root, without setpriv; then sets $work (the
# test's directory, which the recording user reaches), $home (that
# user's HOME, under it) and builds $work/ticker.  L COMMAND... then
# runs COMMAND as that user (uid 65534 when run as root, so that the
# daemon meets no other; the test's own user otherwise).
lttng_user_setup() {
	for tool in "$@" "${CC:-cc}"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			skip "no $tool to record with (tools/install-deps installs it)"
			tap_done
			exit
		fi
	done
	make_tmpdir
	chmod 711 "$TMPDIR_TEST"
	work=$TMPDIR_TEST/live
	home=$work/home
	mkdir -p "$work" "$home"
	if ! ${CC:-cc} -O1 -I"$top_srcdir/tests/ust" -o "$work/ticker" \
			"$top_srcdir/tests/ust/ticker.c" \
			"$top_srcdir/tests/ust/ticker-tp.c" -llttng-ust -ldl \
			-lpthread 2>"$work/cc.log"; then
		skip "cannot build tests/ust/ticker (liblttng-ust-dev?): $(head -1 "$work/cc.log")"
		tap_done
		exit
	fi
	chmod -R a+rX "$work"
	AS=
	if [ "$(id -u)" = 0 ]; then
		if ! command -v setpriv >/dev/null 2>&1; then
			skip "root without setpriv: no user to record as"
			tap_done
			exit
		fi
		AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chown 65534:65534 "$home" "$work"
	fi
}

L() {
	$AS env HOME="$home" LTTNG_HOME="$home" "$@"
}

# lttng_record SESSION OUTPUT: a session daemon of the test's own (its
# pid in $sessiond_pid), then SESSION recording tnticker:* events into
# OUTPUT, in a channel of 4096-byte packets that blocks rather than
# loses events, it and the metadata flushed every 100 ms.  Skips the
# whole test, saying why, when either cannot be done.
lttng_record() {
	if ! L lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1; then
		skip "cannot start a session daemon: $(tail -1 "$work/sessiond.log")"
		tap_done
		exit
	fi
	sessiond_pid=$(cat "$home/.lttng/lttng-sessiond.pid" 2>/dev/null)
	if ! { L lttng create "$1" --output "$2" &&
	       L lttng enable-channel -u metadata --switch-timer 100000 &&
	       L lttng enable-channel -u --subbuf-size 4096 --num-subbuf 8 \
			--switch-timer 100000 --blocking-timeout=inf chan &&
	       L lttng enable-event -u -c chan 'tnticker:*' &&
	       L lttng start; } >"$work/lttng.log" 2>&1; then
		skip "lttng cannot record: $(tail -1 "$work/lttng.log")"
		tap_done
		exit
	fi
}
