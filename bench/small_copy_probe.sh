#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# What a guarded small copy costs, build against build, and where the time
# goes (issue 17's small-copy regression). Run on the GPU machine from the
# repository root:
#
#   PROBE_LIBS="eb36e36=/path/a.so 308fc80=/path/b.so ..." \
#   SYNCGUARD_LIB=src/.libs/libsyncguard.so SYNCGUARD_LIBDIR=.carry/lib \
#   PROBE_OUT=$OUT bash bench/small_copy_probe.sh
#
# 1. micro's small cases (d2h/h2d pinned 4 KiB, pageable 4 KiB, a launch,
#    an event record and query) natively and under each build, builds
#    alternating within each of PROBE_REPS repetitions; medians per build.
# 2. bench/sgprof.c profiles of the current build (SYNCGUARD_LIB) on the
#    guarded 4 KiB copy in each mode, read with bench/sgprof_report.py.
# Writes $PROBE_OUT/probe.csv (build,rep,case,iters,us) and prof-*.txt, and
# prints the medians so that they survive a failed file transfer.
set -u
OUT=${PROBE_OUT:-/tmp/probe}
REPS=${PROBE_REPS:-3}
SCALE=${PROBE_SCALE:-1}
LIB=${SYNCGUARD_LIB:?the current build}
LIBDIR=${SYNCGUARD_LIBDIR:-}
NVCC=${NVCC:-nvcc}
CASES="d2h_pinned_4KiB h2d_pinned_4KiB d2h_pageable_4KiB launch_6args event_record_query"
mkdir -p "$OUT"
TMP=$(mktemp -d)
"$NVCC" -O2 -o "$TMP/micro" bench/micro.cu || exit 1
gcc -O2 -shared -fPIC -o "$TMP/libsgprof.so" bench/sgprof.c -ldl || exit 1
libpath=${LIBDIR:+$LIBDIR:}/usr/local/nvidia/lib64:/usr/local/nvidia/lib

run_micro() {  # build-label preload options
  local label=$1 preload=$2 opts=$3 rep=$4
  env -u LD_PRELOAD ${preload:+LD_PRELOAD=$preload} LD_LIBRARY_PATH=$libpath \
      SYNCGUARD_OPTIONS=$opts "$TMP/micro" "$SCALE" $CASES 2>"$TMP/err" |
    sed "s/^/$label,$rep,/" >>"$OUT/probe.csv" || true
  [ -s "$TMP/err" ] && sed "s/^/# $label: /" "$TMP/err" | head -3
}

: >"$OUT/probe.csv"
builds=("native=" ${PROBE_LIBS:-} "HEAD=$LIB" "HEAD-huge0=$LIB")
for rep in $(seq 1 "$REPS"); do
  for b in "${builds[@]}"; do
    label=${b%%=*} so=${b#*=} opts=""
    [ "$label" = HEAD-huge0 ] && opts=huge_pinned=0
    run_micro "$label" "$so" "$opts" "$rep"
  done
done
echo "# medians (us per iteration) of $REPS runs"
python3 - "$OUT/probe.csv" <<'EOF'
import collections, statistics, sys
runs = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    build, rep, case, iters, us = line.strip().split(",")
    if build not in order: order.append(build)
    runs[(build, case)].append(float(us))
cases = sorted({c for _, c in runs}, key=lambda c: c)
print("build," + ",".join(cases))
for b in order:
    print(b + "," + ",".join("%.3f" % statistics.median(runs[(b, c)]) if (b, c) in runs else "" for c in cases))
EOF

profile() {  # name options case: 5x the iterations, the samples inside syncguard
  env LD_PRELOAD="$LIB:$TMP/libsgprof.so" LD_LIBRARY_PATH=$libpath SGPROF_HZ=5000 \
      SGPROF_OUT="$OUT/prof-$1.txt" SYNCGUARD_OPTIONS=$2 "$TMP/micro" 5 "$3" >/dev/null
  echo "## profile $1 (options '$2', case $3): samples with a syncguard frame"
  # micro runs 20000 x 5 iterations plus a tenth as warm-up
  python3 bench/sgprof_report.py "$OUT/prof-$1.txt" "$LIB" --focus sg: --iters 110001 --top 40
}
profile d2h-report "" d2h_pinned_4KiB
profile d2h-sync mode=sync d2h_pinned_4KiB
profile d2h-sampled sample=100 d2h_pinned_4KiB
profile h2d-report "" h2d_pinned_4KiB
profile pageable-sync mode=sync d2h_pageable_4KiB
rm -rf "$TMP"
