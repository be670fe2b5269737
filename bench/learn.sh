#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What learning kernels' accesses costs (issue 29), on the GPU machine, side
# by side in one run: bench/train.py's training loop natively, under
# syncguard with an empty cache (a first run: every kernel learnt), and with
# the cache a first run left (a warm one), REPS interleaved repetitions; then
# bench/micro.cu's launch cases natively, under syncguard with learning off
# and with learning on and the cache warm (the launch path with a cached
# table).
#
#   bash bench/learn.sh [REPS [STEPS]]      (default 3 repetitions, 200 steps)
#
# SYNCGUARD_LIB, SYNCGUARD_LIBDIR as for tests/gpu/run.sh; OUT: where
# learn-bench.csv and the logs go. Prints each run, then per configuration
# the mean time and its ratio to native, the kernels learnt in a first run
# and the learning cost per distinct kernel (first run minus warm run, over
# the kernels).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) && cd "$ROOT" || exit 2
REPS=${1:-3}
STEPS=${2:-200}
LIB=${SYNCGUARD_LIB:-$ROOT/src/.libs/libsyncguard.so}
LIBDIR=${SYNCGUARD_LIBDIR:-$ROOT/.carry/lib}
PYTHON=${PYTHON:-python3}
OUTDIR=${OUT:-$(mktemp -d)}
mkdir -p "$OUTDIR"
CSV=$OUTDIR/learn-bench.csv
TMP=$(mktemp -d) && trap 'rm -rf "$TMP"' EXIT
echo "workload,config,rep,wall_s,us_per_step,kernels_instrumented,kernels_from_cache,reports" >"$CSV"

# one WORKLOAD CONFIG REP CMD...: one timed run, a CSV line.
one() {
  local w=$1 cfg=$2 rep=$3 out=$TMP/$1.$2.$3 t0 t1 opts pre=()
  shift 3
  case $cfg in
    native) pre=(env -u LD_PRELOAD -u SYNCGUARD_OPTIONS) ;;
    nolearn) opts=learn_kernels=0 ;;
    cold) rm -rf "$TMP/cache.cold"; opts="cache_dir=$TMP/cache.cold:verbosity=2" ;;
    warm) opts="cache_dir=$TMP/cache.warm:verbosity=2" ;;
  esac
  [ "$cfg" = native ] ||
    pre=(env "LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
         "SYNCGUARD_OPTIONS=log_path=stderr:$opts")
  t0=$(date +%s.%N)
  timeout 600 "${pre[@]}" "$@" >"$out" 2>&1
  t1=$(date +%s.%N)
  local wall inst cached reports name iters us
  wall=$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")
  inst=$(grep -c 'learnt kernel .*(instrumented here' "$out")
  cached=$(grep -c 'learnt kernel .*(from the cache' "$out")
  reports=$(grep -c '^SUMMARY: syncguard:' "$out")
  # one line per "case,iterations,us" the program printed
  while IFS=, read -r name iters us; do
    echo "$w:$name,$cfg,$rep,$wall,$us,$inst,$cached,$reports" | tee -a "$CSV"
  done < <(grep -E '^[a-z_0-9]+,[0-9]+,[0-9.]+$' "$out")
  grep -qE '^[a-z_0-9]+,[0-9]+,[0-9.]+$' "$out" ||
    echo "$w,$cfg,$rep,$wall,,$inst,$cached,$reports (no result: $(tail -n1 "$out"))" | tee -a "$CSV"
  cat "$out" >>"$OUTDIR/learn-bench.log"
}

# The warm cache: what one first run leaves.
env "LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "SYNCGUARD_OPTIONS=cache_dir=$TMP/cache.warm" timeout 600 "$PYTHON" bench/train.py "$STEPS" 30 \
  >"$TMP/prime.out" 2>&1 || { echo "priming run failed:"; tail -5 "$TMP/prime.out"; }

for ((r = 0; r < REPS; r++)); do
  for cfg in native cold warm; do
    one train "$cfg" "$r" "$PYTHON" bench/train.py "$STEPS" 30
  done
done

MICRO=$TMP/micro
if nvcc -O2 -arch=sm_90 bench/micro.cu -o "$MICRO" >"$TMP/micro.build" 2>&1; then
  for ((r = 0; r < REPS; r++)); do
    for cfg in native nolearn warm; do
      one micro "$cfg" "$r" "$MICRO" 1 launch_6args_nopinned launch_6args launch_mapped_sync
    done
  done
else
  echo "micro.cu did not build:"; tail -5 "$TMP/micro.build"
fi

# The summary: mean wall time (and us/step where printed) per configuration,
# its ratio to native; learning's cost per kernel.
awk -F, 'NR > 1 { k = $1 "," $2; n[k]++; wall[k] += $4; us[k] += $5; inst[k] += $6; rep[k] += $8 }
END {
  for (k in n) { split(k, p, ","); m[p[1]] = 1 }
  for (w in m) {
    nat = w ",native"
    if (!(nat in n)) continue
    for (k in n) {
      split(k, p, ","); if (p[1] != w) continue
      printf "%s %-8s wall %.3f s (%.3fx native)", w, p[2], wall[k] / n[k], wall[k] / n[k] / (wall[nat] / n[nat])
      if (us[k] > 0) printf ", %.1f us/step (%.3fx)", us[k] / n[k], us[k] / n[k] / (us[nat] / n[nat])
      printf ", kernels instrumented %.0f, reports %d\n", inst[k] / n[k], rep[k]
    }
    cold = w ",cold"; warm = w ",warm"
    if ((cold in n) && (warm in n) && inst[cold] > 0)
      printf "%s learning cost: %.1f ms per distinct kernel (%.0f kernels, first run minus warm run)\n", w,
             1000 * (wall[cold] / n[cold] - wall[warm] / n[warm]) / (inst[cold] / n[cold]), inst[cold] / n[cold]
  }
}' "$CSV"
