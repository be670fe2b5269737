#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device memory between streams on the GPU (issue 30): PyTorch's side-stream
# backward natively and under syncguard (device_races=1), then the dv_, k_learn_
# and correct-program drv cases and the framework py cases of run.sh with
# device_races=1 in SYNCGUARD_OPTIONS.
#
#   bash tests/gpu/devmem.sh      (SYNCGUARD_LIB, SYNCGUARD_LIBDIR, OUT as for run.sh)
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) && cd "$ROOT" || exit 2
OUT=${OUT:-$(mktemp -d)}
export OUT
export SG_GPU_BUDGET=300
start=$SECONDS
source tests/gpu/carried-libs.sh
P=tests/gpu/py/torch_side_stream_backward.py
for m in race ok; do
  echo "== torch side-stream backward $m native"
  timeout 100 env -u LD_PRELOAD python3 $P $m > "$OUT/tsb-$m.native" 2>&1; echo "rc=$?" >> "$OUT/tsb-$m.native"; tail -3 "$OUT/tsb-$m.native"
  echo "== torch side-stream backward $m syncguard"
  s=$SECONDS
  SYNCGUARD_OPTIONS=device_races=1:verbosity=1:log_path=stderr LD_PRELOAD=$SYNCGUARD_LIB LD_LIBRARY_PATH=$SYNCGUARD_LIBDIR timeout 150 python3 $P $m > "$OUT/tsb-$m.sg" 2>&1; echo "rc=$? $((SECONDS-s))s" >> "$OUT/tsb-$m.sg"
  grep -E '^SUMMARY|WARNING: syncguard|check:|steps|rc=' "$OUT/tsb-$m.sg" | sort | uniq -c | head -12
done
echo "== elapsed $((SECONDS-start))"
SG_RUN_OPTIONS=device_races=1 SG_DEFAULT_DEVICE_RACES=1 bash tests/gpu/run.sh '^(drv-(dv_|k_learn_|k_.*_ok|m_.*_ok$|m_stream|m_event|m_legacy|d2h_)|torch|numba|cupy|jax)' 2>&1 | tail -45
echo "== elapsed $((SECONDS-start))"
cd "$OUT" && tar czf logs.tgz *.log *.native *.sg 2>/dev/null; ls
