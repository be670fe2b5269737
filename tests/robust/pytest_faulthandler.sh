#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pytest_faulthandler.sh: syncguard under pytest, whose faulthandler plugin
# installs Python's SIGSEGV handler after syncguard's.  Runs
# test_faulthandler_race.py (next to this script) with libsyncguard.so
# preloaded into pytest, against the CPU emulator of the driver:
#   - the racy early read of a pinned buffer through ctypes is syncguard's
#     fault: its report is in the output, the data are right, the test
#     passes, faulthandler does not kill the process;
#   - a genuine invalid read in a child Python still reaches the child's
#     faulthandler, which dies of SIGSEGV.
# The process exits with syncguard's exitcode (66: it reported the race),
# so pytest's verdict is read from its summary line.
# Needs a python3 with pytest (python3, then /usr/bin/python3; Debian:
# python3-pytest); none: skip (77).  Emulator only (SG_ON_GPU=1: skip).
# Environment (make check sets them): SYNCGUARD_LIB, SG_LIBCUDA.
# Exit: 0 pass, 1 fail, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
lib=${SYNCGUARD_LIB:-$here/../../src/.libs/libsyncguard.so}
SG_LIBCUDA=${SG_LIBCUDA:-$PWD/emu/.libs/libcuda.so.1}
export SG_LIBCUDA

if [ "${SG_ON_GPU:-0}" = 1 ]; then
    echo "SKIP pytest_faulthandler: emulator only"; exit 77
fi
py=
for cand in python3 /usr/bin/python3; do
    if "$cand" -m pytest --version >/dev/null 2>&1; then py=$cand; break; fi
done
[ -n "$py" ] || { echo "SKIP pytest_faulthandler: no python3 with pytest"; exit 77; }
[ -f "$lib" ] || { echo "FAIL pytest_faulthandler: no library $lib (build first)"; exit 1; }
[ -f "$SG_LIBCUDA" ] || { echo "FAIL pytest_faulthandler: no emulator $SG_LIBCUDA"; exit 1; }

# A private directory: no rootdir, ini file, conftest or cache of the tree.
work=$(mktemp -d) || exit 1
out=$work/out
trap 'rm -rf "$work"' EXIT
cp "$here/test_faulthandler_race.py" "$here/../lib/sgcuda.py" "$work/"
(cd "$work" && SYNCGUARD_OPTIONS='' LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" \
    "$py" -m pytest -s -p no:cacheprovider -o faulthandler_timeout=0 \
    test_faulthandler_race.py) >"$out" 2>&1
status=$?
cat "$out"

fail() { echo "FAIL pytest_faulthandler: $*"; exit 1; }
[ "$status" = 66 ] || fail "exit status $status, expected 66 (syncguard's exitcode after a report)"
grep -q "^SUMMARY: syncguard: early-host-read " "$out" || fail "no early-host-read report"
grep -q "^check: ok" "$out" || fail "the early read did not see the copied data"
grep -q "Fatal Python error" "$out" && fail "faulthandler caught syncguard's fault"
grep -Eq "(^|[^0-9])2 passed" "$out" || fail "pytest did not pass both tests"
grep -Eq "[0-9]+ (failed|error)" "$out" && fail "pytest reports failures"
echo "PASS pytest_faulthandler ($py)"
exit 0
