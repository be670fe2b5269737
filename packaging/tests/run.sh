#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The package tests' harness (make check-packages): runs each test script
# given, its output in packaging-tests/NAME.log; a test exits 0 (pass), 77
# (skip: what it tests is not built here, the reason on its last line) or
# anything else (fail). Prints automake's lines (PASS: NAME, SKIP: NAME
# (why), FAIL: NAME) and writes packaging-tests/test-suite.log with the
# counts as automake writes them ("# PASS:  N"). Exit status 1 if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=packaging-tests
rm -rf "$out"
mkdir -p "$out"
pass=0 fail=0 skip=0
for t in "$@"; do
    name=packaging/tests/$t
    log=$out/${t%.sh}.log
    sh "$here/$t" >"$log" 2>&1
    rc=$?
    case $rc in
    0) pass=$((pass + 1)); echo "PASS: $name" ;;
    77) skip=$((skip + 1)); echo "SKIP: $name ($(tail -n 1 "$log"))" ;;
    *) fail=$((fail + 1)); echo "FAIL: $name (exit $rc)"
       echo "--- $log:"; tail -n 40 "$log" ;;
    esac
done
{
    echo "# TOTAL: $((pass + fail + skip))"
    echo "# PASS:  $pass"
    echo "# SKIP:  $skip"
    echo "# FAIL:  $fail"
} >"$out/test-suite.log"
echo "package tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
