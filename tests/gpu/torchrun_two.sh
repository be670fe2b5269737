#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two GPUs, one process per GPU (torchrun --nproc_per_node=2) under
# syncguard: one log per rank (log_path with %r), rank 0 racy and reported,
# rank 1 correct and silent. Run on the two-GPU machine from the repo root,
# after `. tests/gpu/carried-libs.sh`. Prints PASS/FAIL lines and
# "N passed, N failed".
set -u
logs=$(mktemp -d)
export SYNCGUARD_OPTIONS="log_path=$logs/syncguard.rank%r.pid%p"
LD_PRELOAD=$SYNCGUARD_LIB LD_LIBRARY_PATH=${SYNCGUARD_LIBDIR:-}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    PYTHONUNBUFFERED=1 timeout 300 torchrun --nproc_per_node=2 tests/gpu/py/ddp_ranks.py \
    >"$logs/out" 2>&1
status=$?
pass=0 fail=0
verdict() { if [ "$1" = ok ]; then echo "PASS $2"; pass=$((pass + 1)); else echo "FAIL $2: $1"; fail=$((fail + 1)); fi; }
r0=$(ls "$logs"/syncguard.rank0.* 2>/dev/null | head -n 1)
r1=$(ls "$logs"/syncguard.rank1.* 2>/dev/null | head -n 1)
[ -n "$r0" ] && grep -q "^SUMMARY: syncguard: early-host-read" "$r0" && verdict ok "rank 0 racy: reported in its own log" ||
    verdict "no report in a rank-0 log" "rank 0 racy: reported in its own log"
[ -z "$r1" ] && verdict ok "rank 1 correct: silent, no log" ||
    verdict "rank 1 wrote a log: $(head -c 300 "$r1")" "rank 1 correct: silent, no log"
[ "$(grep -c '^check: ok' "$logs/out")" = 2 ] && verdict ok "both ranks read the right data" ||
    verdict "$(grep check: "$logs/out" | tr '\n' ' ')" "both ranks read the right data"
echo "--- torchrun exit status $status (non-zero: rank 0 exits 66); logs:"
ls "$logs"; cat "$logs"/syncguard.rank0.* 2>/dev/null | head -n 40; tail -n 20 "$logs/out"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
