#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-launcher.sh: the syncguard launcher (tools/syncguard, made by configure
# from tools/syncguard.in) maps its flags onto SYNCGUARD_OPTIONS, preloads
# the library, and refuses what it cannot run with the documented status:
# 2 for a usage error, 1 for an option the library rejects, 127 for a
# library that cannot be loaded. A racy driver-API program run through it
# is reported and exits 66.
# Environment (make check sets them): SG_LAUNCHER (the launcher),
# SYNCGUARD_LIB, SG_DRV_DIR (the built test programs).
# Exit: 0 pass, 1 fail.
set -u
launcher=${SG_LAUNCHER:?SG_LAUNCHER: the launcher to test}
lib=${SYNCGUARD_LIB:?}
drv=${SG_DRV_DIR:-$PWD/drv}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run WANT_STATUS ARGS...: the launcher with ARGS, output into $out
run() {
    want=$1
    shift
    "$launcher" "$@" >"$out" 2>&1
    got=$?
    [ "$got" = "$want" ] || fail "syncguard $*: exit $got, want $want: $(head -c 300 "$out")"
}
# has REGEX WHAT: the last run's output matches REGEX
has() { grep -q -- "$1" "$out" || fail "$2: no line matching '$1' in: $(head -c 300 "$out")"; }
# Prints the options and preload the command sees (one line each).
show='printf "opts=%s\npreload=%s\n" "${SYNCGUARD_OPTIONS-}" "${LD_PRELOAD-}"'

# ---- help, version, usage errors (2)
run 0 --help
has '^Usage: syncguard' "--help"
run 0 --version
has '^syncguard [0-9]' "--version"
run 2
has 'no command given' "no command"
run 2 --frobnicate true
has "unknown option '--frobnicate'" "unknown option"
run 2 --mode
has "option '--mode' needs a value" "--mode without value"
run 2 --log-path=a:b true
has "cannot contain" "a value with ':'"
run 2 -o nokey true
has "expected KEY=VALUE" "-o without '='"

# ---- flags become SYNCGUARD_OPTIONS items, after the environment's
SYNCGUARD_OPTIONS=color=never run 0 --abort --log-path=stdout --json-path /tmp/sgj \
    --exitcode=7 --halt-on-error --no-latent -o page_steps=3 -mreport -- sh -c "$show"
has "^opts=color=never:mode=abort:log_path=stdout:json_path=/tmp/sgj:exitcode=7:halt_on_error=1:report_latent=0:page_steps=3:mode=report$" "flags"
run 0 --sync --suppressions=/dev/null --color always sh -c "$show"
has "^opts=mode=sync:suppressions=/dev/null:color=always$" "--sync, --suppressions, --color VALUE"
run 0 -m sync --exitcode 5 --mode=abort sh -c "$show"
has "^opts=mode=sync:exitcode=5:mode=abort$" "-m VALUE, --exitcode VALUE"
SYNCGUARD_OPTIONS=verbosity=1 run 0 -vv sh -c "$show"
has "^opts=verbosity=1:verbosity=2:verbosity=3$" "-vv raises the environment's verbosity"

# ---- LD_PRELOAD: the library first, the program's own entries kept once
# (even when the environment named the library after libc, which would
# hide syncguard's own definitions of libc functions)
LD_PRELOAD="libc.so.6 $lib" run 0 sh -c "$show"
has "^preload=$lib:libc.so.6$" "LD_PRELOAD"

# ---- options the library rejects (1), libraries it cannot use (127)
run 1 --mode=fast true
has "^syncguard: .*mode" "a bad mode named by the library"
run 1 -o no_such_option=1 true
has "no_such_option" "an unknown library option named"
SYNCGUARD_LIB=/nonexistent/libsyncguard.so run 127 true
has "cannot load /nonexistent/libsyncguard.so: no such file" "missing library"
SYNCGUARD_LIB=/bin/sh run 127 true
has "not libsyncguard.so" "a file that is not the library"

# ---- --help-options without a command: the library's list, exit 0
run 0 --help-options
has "page_steps" "--help-options lists the options"

# ---- end to end: a racy program under the launcher is reported (exit 66)
if [ -x "$drv/d2h_async_read_race" ]; then
    run 66 "$drv/d2h_async_read_race"
    has "^SUMMARY: syncguard: early-host-read " "the racy program's report"
    run 0 --sync "$drv/d2h_async_read_race"
    ! grep -q "SUMMARY: syncguard" "$out" || fail "--sync: a report was printed"
    has "^check: ok" "--sync: the program's data"
    # Without the launcher, the library after libc: it still works, and
    # says that its order is wrong.
    LD_PRELOAD="libc.so.6:$lib" "$drv/d2h_async_read_race" >"$out" 2>&1
    got=$?
    [ "$got" = 66 ] || fail "libc.so.6 first in LD_PRELOAD: exit $got, want 66"
    has "WARNING: syncguard: libsyncguard.so comes after a library that defines dlsym" \
        "libc.so.6 first: the order warning"
    has "^SUMMARY: syncguard: early-host-read " "libc.so.6 first: the report"
else
    fail "no test program $drv/d2h_async_read_race (build the tests first)"
fi

[ "$failures" -eq 0 ] && echo "PASS t-launcher" && exit 0
echo "FAIL t-launcher: $failures failures"
exit 1
