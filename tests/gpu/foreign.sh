#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Programs nobody here wrote, natively and under syncguard with the default
# options, interleaved: each must be clean (no report, its own success line)
# and its time under syncguard is shown as a ratio to native (issue 27:
# cuda-samples cudaGraphsPerfScaling and UnifiedMemoryPerf, a JAX training
# step).
#
#   bash tests/gpu/foreign.sh [REPS]
#
# SG_SAMPLES: a folder holding the cuda-samples sources (NVIDIA/cuda-samples,
# not in this repository) and a build.sh that makes ./cudaGraphsPerfScaling
# and ./UnifiedMemoryPerf there; skipped when unset or missing. SYNCGUARD_LIB,
# SYNCGUARD_LIBDIR and PYTHON as for run.sh; SG_FOREIGN_OPTIONS: options for
# the syncguard runs (default none). Prints one line per run, then per
# program "PASS name: native T s, syncguard T s (ratio x)" or "FAIL name:
# why"; the last line is "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) && cd "$ROOT" || exit 2
REPS=${1:-3}
LIB=${SYNCGUARD_LIB:-$ROOT/src/.libs/libsyncguard.so}
LIBDIR=${SYNCGUARD_LIBDIR:-$ROOT/.carry/lib}
PYTHON=${PYTHON:-python3}
OUTDIR=${OUT:-$(mktemp -d)}
mkdir -p "$OUTDIR"
LOG=$OUTDIR/foreign.log
: >"$LOG"
npass=0 nfail=0

# run_once MODE NAME CMD...: one timed run; sets secs, reports, rc.
run_once() {
  local mode=$1 name=$2 out=$OUTDIR/$2.$1.out t0 t1
  shift 2
  t0=$(date +%s.%N)
  if [ "$mode" = native ]; then
    env -u LD_PRELOAD -u SYNCGUARD_OPTIONS timeout 300 "$@" >"$out" 2>&1
  else
    env LD_PRELOAD="$LIB" LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      SYNCGUARD_OPTIONS="${SG_FOREIGN_OPTIONS:-}" timeout 300 "$@" >"$out" 2>&1
  fi
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")
  reports=$(grep -c '^SUMMARY: syncguard:' "$out")
  echo "--- $name $mode: rc=$rc ${secs}s reports=$reports" | tee -a "$LOG"
  { grep -E 'WARNING: syncguard|^SUMMARY|Kernel .* launched|syncguard: stats' "$out" | head -n 20
    tail -n 5 "$out"; } >>"$LOG"
}

# program NAME SUCCESS-REGEX CMD...: REPS interleaved pairs, then the verdict.
program() {
  local name=$1 ok=$2 i nat=0 sg=0 why=""
  shift 2
  for ((i = 0; i < REPS; i++)); do
    run_once native "$name" "$@"
    [ "$rc" = 0 ] || why="native exit $rc"
    nat=$(awk "BEGIN { print $nat + $secs }")
    run_once syncguard "$name" "$@"
    [ "$rc" = 0 ] || why="${why:+$why; }exit $rc under syncguard"
    [ "$reports" = 0 ] || why="${why:+$why; }$reports reports under syncguard"
    grep -Eq "$ok" "$OUTDIR/$name.syncguard.out" || why="${why:+$why; }no line matching '$ok'"
    sg=$(awk "BEGIN { print $sg + $secs }")
  done
  local ratio
  ratio=$(awk "BEGIN { printf \"%.3f\", $sg / $nat }")
  if [ -z "$why" ]; then
    npass=$((npass + 1))
    echo "PASS $name: native $(awk "BEGIN { printf \"%.2f\", $nat / $REPS }") s, syncguard $(awk "BEGIN { printf \"%.2f\", $sg / $REPS }") s (ratio $ratio)"
  else
    nfail=$((nfail + 1))
    echo "FAIL $name: $why (ratio $ratio)"
  fi
}

SAMPLES=${SG_SAMPLES:-}
if [ -n "$SAMPLES" ] && [ -f "$SAMPLES/build.sh" ]; then
  if [ ! -x "$SAMPLES/cudaGraphsPerfScaling" ] || [ ! -x "$SAMPLES/UnifiedMemoryPerf" ]; then
    (cd "$SAMPLES" && sh build.sh) >>"$LOG" 2>&1 || echo "FAIL samples: build.sh failed (see foreign.log)"
  fi
  [ -x "$SAMPLES/cudaGraphsPerfScaling" ] &&
    program cudaGraphsPerfScaling "${SG_GRAPHS_OK:-.}" "$SAMPLES/cudaGraphsPerfScaling" ${SG_GRAPHS_ARGS:-}
  [ -x "$SAMPLES/UnifiedMemoryPerf" ] &&
    program UnifiedMemoryPerf "${SG_UMP_OK:-.}" "$SAMPLES/UnifiedMemoryPerf" ${SG_UMP_ARGS:-}
else
  echo "SKIP samples: SG_SAMPLES is not a folder with build.sh"
fi
if "$PYTHON" -c 'import jax' 2>/dev/null; then
  program jax-train 'check: ok' "$PYTHON" tests/gpu/py/jax_train.py 300
else
  echo "SKIP jax-train: jax not importable"
fi
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
