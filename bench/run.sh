#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# syncguard overhead benchmark, side by side in one run:
#   workloads  micro (bench/micro.cu), resnet (bench/resnet.py), train (bench/train.py),
#              loader (bench/pinned_loader.c: the training loop's copy pattern in C,
#              a diagnostic without a target), sizes and threads
#              (bench/copy_sizes.c: a guarded copy's cost against its size, 4 KiB to
#              512 MiB, and against 1, 8, 64 idle threads and 8 busy ones; tables
#              of their own)
#   configs    native; syncguard mode=report; syncguard mode=sync; syncguard
#              sample=N (the sampled mode, N from BENCH_SAMPLE, default 100);
#              syncguard guard_sources=0 (train only); syncguard mode=report
#              huge_pinned=0 (sizes, threads: the cost without huge pages);
#              TORCH_CUDA_SANITIZER=1 (PyTorch workloads); compute-sanitizer
#              memcheck (micro and one short ResNet run, reduced iterations)
# Every program times itself (start-up and CUDA init excluded) and prints
# "case,iterations,us_per_iter". Repetitions alternate the configurations
# (for rep: for workload: for config); the table shows the medians.
#
#   bash bench/run.sh          (from anywhere; ~5-7 minutes on one H200)
#
# Layout: each run writes new files, never overwriting one:
#   bench/results/YYYY-MM-DD-REV.md   its results (printed at the end too):
#                                     the UTC date the run started, REV the
#                                     tree's short revision (BENCH_REV, else git)
#   bench/results/YYYY-MM-DD-REV.csv  its raw timings, beside it
# and adds -2, -3, ... to the name when it is taken (another run of the same
# tree that day). With $OUT set it also copies them to $OUT/bench-RESULTS.md
# and $OUT/bench-raw.csv (the names of before: a run on another machine comes
# back under those; commit them under the name the results' header gives).
# What is found by hand about a run goes below its tables in its own file;
# bench/SUMMARY.md, the current costs with the file each number comes from,
# is curated by hand from bench/results/: run.sh never writes it.
# Env: SYNCGUARD_LIB (default src/.libs/libsyncguard.so), SYNCGUARD_LIBDIR
# (default .carry/lib: put first on LD_LIBRARY_PATH of the preloaded runs when
# it exists), PYTHON (python3), NVCC (nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# BENCH_REPS_MICRO (5), BENCH_REPS_PY (5), BENCH_BUDGET (seconds, default 450:
# runs that would start later are skipped; the compute-sanitizer ResNet run
# gets at most 120 s and needs 60 s left), SG_BENCH_PY_TARGET (1.03),
# BENCH_REV (the revision named in the table when the tree has no .git),
# BENCH_SAMPLE (100: the sampled configuration's sample=N), BENCH_REPS_SIZES (3:
# repetitions of sizes and threads), BENCH_SIZES_SCALE (1: multiplies their
# iteration counts), BENCH_REPS_RESNET and BENCH_REPS_TRAIN (BENCH_REPS_PY by
# default), BENCH_REPS_TCSAN (BENCH_REPS_PY: TORCH_CUDA_SANITIZER's runs are
# slow and their ratio is large, one run tells it), BENCH_PROFILE (1: after the
# timed runs, micro's guarded 4 KiB copy under syncguard mode=report and
# sampled, and the training loop under report, guard_sources=0 and sampled,
# once more each with bench/sgprof.c preloaded, their summaries in the results),
# BENCH_MEMCHECK_AFTER (the last repetition: the compute-sanitizer runs come
# after this one, so that a budget spent on later repetitions leaves them in).
set -u
ulimit -c 0

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 2
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
LIB=$(abspath "${SYNCGUARD_LIB:-$ROOT/src/.libs/libsyncguard.so}")
LIBDIR=$(abspath "${SYNCGUARD_LIBDIR:-$ROOT/.carry/lib}")
cd "$ROOT" || exit 2

PYTHON=$(command -v "${PYTHON:-python3}" || echo "${PYTHON:-python3}")  # absolute: compute-sanitizer runs it
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=$(dirname "$(dirname "$NVCC")")
CSAN=$(command -v compute-sanitizer || ls "$CUDA/bin/compute-sanitizer" \
  "$CUDA/compute-sanitizer/compute-sanitizer" 2>/dev/null | head -1)
REPS_MICRO=${BENCH_REPS_MICRO:-5}
REPS_PY=${BENCH_REPS_PY:-5}
REPS_SIZES=${BENCH_REPS_SIZES:-3}
REPS_RESNET=${BENCH_REPS_RESNET:-$REPS_PY}
REPS_TRAIN=${BENCH_REPS_TRAIN:-$REPS_PY}
REPS_TCSAN=${BENCH_REPS_TCSAN:-$REPS_PY}
SIZES_SCALE=${BENCH_SIZES_SCALE:-1}
BUDGET=${BENCH_BUDGET:-450}
SAMPLE=${BENCH_SAMPLE:-100}
SGLP=${LD_LIBRARY_PATH:-}
[ -d "$LIBDIR" ] && SGLP=$LIBDIR${SGLP:+:$SGLP}
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
START_S=$(date -u +%s)
STARTED=$(date -u -d "@$START_S")
DAY=$(date -u -d "@$START_S" +%F) # the results file's date
RESULTS_DIR=bench/results
if ! mkdir -p "$RESULTS_DIR" || [ ! -w "$RESULTS_DIR" ]; then
  echo "bench/run.sh: cannot write $RESULTS_DIR" >&2
  exit 2
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/syncguard-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
RAW=$TMP/raw.csv
PROFILE=$TMP/profile.md
: >"$PROFILE"
echo "workload,config,rep,case,iterations,us_per_iter,rc,wall_s,note" >"$RAW"
progress() { printf '[%4ds] %s\n' "$SECONDS" "$*"; }
comment() { sed 's/^/#   /' | tee -a "$RAW"; }  # stdin into RAW as comments, and shown

# ------------------------------------------------------------- configurations
prefix() { # CFG: PRE=(the command prefix of that configuration)
  PRE=(env -u LD_PRELOAD -u SYNCGUARD_OPTIONS -u TORCH_CUDA_SANITIZER)
  case $1 in
    sg-nosrc) PRE+=("LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$SGLP" "SYNCGUARD_OPTIONS=guard_sources=0") ;;
    sg-sampled) PRE+=("LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$SGLP" "SYNCGUARD_OPTIONS=sample=$SAMPLE") ;;
    sg-nohuge) PRE+=("LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$SGLP" "SYNCGUARD_OPTIONS=mode=report,huge_pinned=0") ;;
    sg-*) PRE+=("LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$SGLP" "SYNCGUARD_OPTIONS=mode=${1#sg-}") ;;
    tcsan) PRE+=(TORCH_CUDA_SANITIZER=1) ;;
    memcheck) PRE+=("$CSAN" --tool memcheck) ;;
  esac
}
workload() { # WORKLOAD CFG: CMD=(the program and its arguments)
  case $1 in
    micro) CMD=("$TMP/micro") ;;
    loader) CMD=("$TMP/pinned_loader") ;;
    sizes | threads) CMD=("$TMP/copy_sizes" "$1") ;;
    *) CMD=("$PYTHON" "bench/$1.py") ;;
  esac
  if [ "$2" = memcheck ]; then  # reduced iterations under compute-sanitizer
    case $1 in micro | sizes | threads) CMD+=(0.1) ;; resnet) CMD+=(3 1) ;; esac
  elif [ "$1" = sizes ] || [ "$1" = threads ]; then
    CMD+=("$SIZES_SCALE")
  fi
}

# The first run of sizes and threads under syncguard also prints its counters
# (verbosity=1: where the time went, mprotect_ns against the copies), kept with
# the program's "# huge:" lines (how much of each buffer the kernel backed with
# huge pages) for the results. verbosity=1 prints only at exit.
profiled() { # WORKLOAD CFG REP: adds verbosity=1 to PRE's SYNCGUARD_OPTIONS
  local i
  case $1 in sizes | threads) [ "$3" = 1 ] || return ;; micro) ;; *) return ;; esac
  for i in "${!PRE[@]}"; do
    [[ ${PRE[$i]} == SYNCGUARD_OPTIONS=* ]] && PRE[$i]="${PRE[$i]},verbosity=1"
  done
}
keep_profile() { # WORKLOAD CFG REP: its "# huge:" and stats lines into PROFILE
  [ "$1" = micro ] && { keep_mprotect_cost "$2" "$3"; return; }
  case $1 in sizes | threads) ;; *) return ;; esac
  [ "$3" = 1 ] || return
  {
    echo "- $1, $2 (first run):"
    grep -h '^# huge: .*\(AnonHugePages\|enabled\)' "$TMP/out" | sed 's/^# huge: /  - /; s/ at 0x[0-9a-f]*//'
    grep -h 'syncguard: stats:' "$TMP/err" | sed 's/^==[0-9]*==syncguard: /  - /'
  } >>"$PROFILE" 2>/dev/null
}

# Each micro run under syncguard: its guarded 4 KiB copy's time beside the
# mean cost of the process's own mprotect calls (from its counters), to show
# how much of the run-to-run spread is the kernel's (TLB shootdowns).
MPROTECT=$TMP/mprotect.md
: >"$MPROTECT"
keep_mprotect_cost() { # CFG REP
  local stats d2h
  stats=$(grep -ho 'mprotect_calls=[0-9]*\|mprotect_ns=[0-9]*' "$TMP/err" | tr '\n' ' ')
  d2h=$(grep -h '^d2h_pinned_4KiB,' "$TMP/out" | cut -d, -f3)
  [ -n "$stats" ] || return
  awk -v cfg="$1" -v rep="$2" -v d2h="$d2h" -v s="$stats" 'BEGIN {
    n = split(s, kv, /[ =]/); for (i = 1; i < n; i += 2) v[kv[i]] = kv[i + 1]
    if (v["mprotect_calls"] > 0)
      printf "| %s | %s | %s | %d | %.2f |\n", cfg, rep, d2h, v["mprotect_calls"],
        v["mprotect_ns"] / v["mprotect_calls"] / 1000 }' >>"$MPROTECT"
}

# prefix_profiled CFG MIN: PRE of CFG with bench/sgprof.c preloaded after
# syncguard; false when the sampler did not build or less than MIN seconds
# of the budget are left.
prefix_profiled() {
  [ -x "$TMP/libsgprof.so" ] && (($2 <= BUDGET - SECONDS)) || return
  prefix "$1"
  PRE=("${PRE[@]/#LD_PRELOAD=*/LD_PRELOAD=$LIB:$TMP/libsgprof.so}")
}

# The guarded 4 KiB copy profiled (bench/sgprof.c; BENCH_PROFILE=1): where
# each configuration's time per copy goes, innermost frames and inclusive.
SGPROF_MD=$TMP/sgprof.md
: >"$SGPROF_MD"
profile_copy() { # CFG
  [ -x "$TMP/micro" ] && prefix_profiled "$1" 20 || return
  timeout -k 5 60 "${PRE[@]}" SGPROF_HZ=5000 SGPROF_OUT="$TMP/prof-$1.txt" \
    "$TMP/micro" 5 d2h_pinned_4KiB >"$TMP/out" 2>"$TMP/err" </dev/null
  progress "profile of micro d2h_pinned_4KiB under $1: exit $?"
  [ -s "$TMP/prof-$1.txt" ] || return
  {
    echo "- \`$1\` ($(cat "$TMP/out"); µs per copy + synchronize, samples with a syncguard frame):"
    echo
    echo '```'
    "$PYTHON" bench/sgprof_report.py "$TMP/prof-$1.txt" "$LIB" --focus sg: --iters 110001 --top 14 2>&1 |
      grep -v '^$' | head -40
    echo '```'
  } >>"$SGPROF_MD"
}

# The training loop profiled (BENCH_PROFILE=1): the CPU time of every thread
# during the timed steps only (train.py arms the sampler around them).
# syncguard's share of the samples times the CPU time per step that train.py
# prints (getrusage) is syncguard's time per step: a measure of its cost that
# the spread between processes, larger than the targets, does not blur.
TRAIN_MD=$TMP/train-profile.md
: >"$TRAIN_MD"
profile_train() { # CFG
  local f own total cpu step
  prefix_profiled "$1" 30 || return
  rm -f "$TMP"/train-prof.*.txt
  timeout -k 5 150 "${PRE[@]}" SGPROF_MODE=cpu SGPROF_HZ=1000 SGPROF_ARM=signal SGPROF_TOGGLE=1 \
    SGPROF_OUT="$TMP/train-prof.%p.txt" "$PYTHON" bench/train.py >"$TMP/out" 2>"$TMP/err" </dev/null
  progress "profile of train under $1: exit $?"
  f=$(ls -S "$TMP"/train-prof.*.txt 2>/dev/null | head -1) # the main process's
  [ -n "$f" ] || return
  read -r own total < <("$PYTHON" bench/sgprof_report.py "$f" "$LIB" --own)
  cpu=$(sed -n 's/^# per step: user \([0-9.]*\) us, sys \([0-9.]*\) us.*/\1 \2/p' "$TMP/out")
  step=$(grep -h '^train_cnn' "$TMP/out" | cut -d, -f3)
  [ -n "$own" ] && [ -n "$cpu" ] && [ -n "$step" ] || return
  awk -v cfg="$1" -v own="$own" -v total="$total" -v cpu="$cpu" -v step="$step" 'BEGIN {
    split(cpu, c, " "); per = (c[1] + c[2]) * own / (total > 0 ? total : 1)
    printf "| %s | %.0f | %d of %d | %.0f | %.0f | %.1f %% |\n", cfg, step, own, total,
      c[1] + c[2], per, 100 * per / step }' >>"$TRAIN_MD"
}

# run_one WORKLOAD CFG REP LIMIT [MIN]: one process (at most LIMIT seconds;
# skipped when less than MIN, default 20, are left), its results into RAW
run_one() {
  local w=$1 cfg=$2 rep=$3 limit=$4 left rc t0 wall note n lines why=""
  left=$((BUDGET - SECONDS))
  ((left < ${5:-20})) && why="skipped" && note="the ${BUDGET}s budget is spent"
  [ "$w" = micro ] && [ ! -x "$TMP/micro" ] && why="error" && note="micro did not build"
  [ "$w" = loader ] && [ ! -x "$TMP/pinned_loader" ] && why="error" && note="pinned_loader did not build"
  case $w in sizes | threads) [ ! -x "$TMP/copy_sizes" ] && why="error" && note="copy_sizes did not build" ;; esac
  [ "$cfg" = memcheck ] && [ -z "$CSAN" ] && why="error" && note="compute-sanitizer not found"
  if [ -n "$why" ]; then
    echo "$w,$cfg,$rep,*,,$why,,,$note" >>"$RAW"
    progress "$w $cfg rep $rep: $why ($note)"
    return
  fi
  ((limit > left)) && limit=$left
  prefix "$cfg"
  workload "$w" "$cfg"
  profiled "$w" "$cfg" "$rep"
  t0=$(date +%s.%N)
  { timeout -k 5 "$limit" "${PRE[@]}" "${CMD[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null; rc=$?; } 2>/dev/null
  wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  note=""
  case $rc in 0) ;; 124 | 137) note="timeout after ${limit}s" ;; *) note="exit $rc" ;; esac
  n=$(grep -c 'WARNING: syncguard' "$TMP/err")
  ((n > 0)) && note="$note${note:+; }$n syncguard reports"
  n=$(grep -ho 'ERROR SUMMARY: [0-9]* errors\?' "$TMP/out" "$TMP/err" | tail -1)
  [ -n "$n" ] && note="$note${note:+; }memcheck $n"
  note=${note//,/;}
  lines=$(grep -E '^[A-Za-z0-9_]+,[0-9]+,[0-9.]+$' "$TMP/out")
  if [ -n "$lines" ]; then
    while IFS=, read -r c it us; do
      echo "$w,$cfg,$rep,$c,$it,$us,$rc,$wall,$note"
    done <<<"$lines" >>"$RAW"
    progress "$w $cfg rep $rep: $(wc -l <<<"$lines") results, ${wall}s${note:+ ($note)}$(
      case $w in micro | sizes | threads) ;; *) echo ": ${lines##*,} us/iter" ;; esac)"
  else
    echo "$w,$cfg,$rep,*,,error,$rc,$wall,${note:-no result line}" >>"$RAW"
    progress "$w $cfg rep $rep: ERROR, ${wall}s (${note:-no result line})"
  fi
  keep_profile "$w" "$cfg" "$rep"
  if ((rc != 0)) || [ -z "$lines" ]; then
    echo "# $w $cfg rep $rep: exit $rc; stderr tail:" | tee -a "$RAW"
    tail -n 15 "$TMP/err" | comment
  fi
}

# ------------------------------------------------------------------- set-up
progress "syncguard bench: lib $LIB, budget ${BUDGET}s"
[ -f "$LIB" ] || echo "# WARNING: $LIB not found: the syncguard runs will fail" | tee -a "$RAW"
if ! env LD_PRELOAD="$LIB" LD_LIBRARY_PATH="$SGLP" true 2>"$TMP/err" || [ -s "$TMP/err" ]; then
  echo "# WARNING: LD_PRELOAD=$LIB true said:" | tee -a "$RAW"
  tail -n 5 "$TMP/err" | comment
fi
progress "building micro: $NVCC -O2 -o micro bench/micro.cu"
if ! "$NVCC" -O2 -o "$TMP/micro" bench/micro.cu >"$TMP/err" 2>&1; then
  echo "# micro build failed:" | tee -a "$RAW"
  tail -n 20 "$TMP/err" | comment
fi
CUDA_DIR=$(dirname "$(dirname "$NVCC")")
progress "building pinned_loader: cc -O2 -pthread bench/pinned_loader.c -lcuda"
if ! cc -O2 -pthread -I"$CUDA_DIR/include" bench/pinned_loader.c -o "$TMP/pinned_loader" \
  -L"$CUDA_DIR/lib64/stubs" -lcuda >"$TMP/err" 2>&1; then
  echo "# pinned_loader build failed:" | tee -a "$RAW"
  tail -n 20 "$TMP/err" | comment
fi
if [ "${BENCH_PROFILE:-1}" = 1 ] && ! cc -O2 -shared -fPIC -o "$TMP/libsgprof.so" bench/sgprof.c -ldl \
  >"$TMP/err" 2>&1; then
  echo "# sgprof build failed:" | tee -a "$RAW"
  tail -n 5 "$TMP/err" | comment
fi
progress "building copy_sizes: cc -O2 -pthread bench/copy_sizes.c -lcuda"
if ! cc -O2 -pthread -I"$CUDA_DIR/include" bench/copy_sizes.c -o "$TMP/copy_sizes" \
  -L"$CUDA_DIR/lib64/stubs" -lcuda >"$TMP/err" 2>&1; then
  echo "# copy_sizes build failed:" | tee -a "$RAW"
  tail -n 20 "$TMP/err" | comment
fi
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
GPU=${GPU:-unknown (nvidia-smi failed)}
NVCC_VER=$("$NVCC" --version 2>&1 | grep -o 'release .*' || echo "(not found)")
CSAN_VER=$([ -n "$CSAN" ] && "$CSAN" --version 2>&1 | grep -m1 -i version)
TORCH_VER=$(timeout 120 "$PYTHON" -c 'import torch, torchvision
print(f"PyTorch {torch.__version__} (CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}), torchvision {torchvision.__version__}")' 2>&1 | tail -1)
REV=${BENCH_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
LIBSUM=$(sha256sum "$LIB" 2>/dev/null | cut -c1-12)
progress "GPU: $GPU; CUDA $NVCC_VER; $TORCH_VER"

# ------------------------------------------------------------------ measure
MAXREPS=$REPS_MICRO
for n in "$REPS_RESNET" "$REPS_TRAIN" "$REPS_SIZES"; do ((n > MAXREPS)) && MAXREPS=$n; done
MEMCHECK_AFTER=${BENCH_MEMCHECK_AFTER:-$MAXREPS}
((MEMCHECK_AFTER > MAXREPS)) && MEMCHECK_AFTER=$MAXREPS
for ((rep = 1; rep <= MAXREPS; rep++)); do
  if ((rep <= REPS_SIZES)); then
    for cfg in native sg-report sg-sync sg-sampled sg-nohuge; do run_one sizes $cfg $rep 60; done
    for cfg in native sg-report sg-nohuge; do run_one threads $cfg $rep 60; done
  fi
  if ((rep <= REPS_MICRO)); then
    for cfg in native sg-report sg-sync sg-sampled; do run_one micro $cfg $rep 90; done
    for cfg in native sg-report sg-sync sg-sampled; do run_one loader $cfg $rep 60; done
  fi
  tcsan=""
  ((rep <= REPS_TCSAN)) && tcsan=tcsan
  if ((rep <= REPS_RESNET)); then
    for cfg in native sg-report sg-sync sg-sampled $tcsan; do run_one resnet $cfg $rep 150; done
  fi
  if ((rep <= REPS_TRAIN)); then
    # guard_sources=0 changes nothing for ResNet (its copies are device-to-host)
    for cfg in native sg-report sg-sync sg-sampled sg-nosrc $tcsan; do run_one train $cfg $rep 150; done
  fi
  if ((rep == MEMCHECK_AFTER)); then
    run_one micro memcheck 1 120
    run_one sizes memcheck 1 120
    run_one resnet memcheck 1 120 60
  fi
done
if [ "${BENCH_PROFILE:-1}" = 1 ]; then
  for cfg in sg-report sg-sampled; do profile_copy $cfg; done
  for cfg in sg-report sg-nosrc sg-sampled; do profile_train $cfg; done
fi

# ------------------------------------------------------------------- report
# The results' name: the first of DAY-REV, DAY-REV-2, ... of which neither the
# .md nor the .csv exists, the .md created with noclobber to claim it.
BASE=$DAY-$(printf %s "$REV" | tr -c 'A-Za-z0-9._-' _)
NAME=$BASE
for ((n = 2; ; n++)); do
  [ ! -e "$RESULTS_DIR/$NAME.csv" ] && (set -C && : >"$RESULTS_DIR/$NAME.md") 2>/dev/null && break
  if ((n > 999)); then
    echo "bench/run.sh: no free name for $RESULTS_DIR/$BASE.md" >&2
    exit 2
  fi
  NAME=$BASE-$n
done
RESULTS=$RESULTS_DIR/$NAME.md
RESULTS_CSV=$RESULTS_DIR/$NAME.csv
SGCMD="LD_PRELOAD=$LIB${SGLP:+ LD_LIBRARY_PATH=$SGLP} SYNCGUARD_OPTIONS=mode=report|sync"
OVERRIDES=$(env | grep -E '^(SYNCGUARD_LIB|SYNCGUARD_LIBDIR|PYTHON|NVCC|BENCH_[A-Z_]+|SG_BENCH_PY_TARGET)=' |
  sort | tr '\n' ' ')
{
  echo "# syncguard overhead benchmark"
  echo
  echo "- Date: $STARTED; wall time of the whole run: ${SECONDS}s"
  echo "- GPU: $GPU (name, driver)"
  echo "- CUDA: nvcc $NVCC_VER; ${CSAN_VER:-compute-sanitizer not found}"
  echo "- $TORCH_VER"
  echo "- syncguard: \`$LIB\` (sha256 $LIBSUM…), tree at git $REV"
  echo "- Results: \`$RESULTS\`, raw timings \`$RESULTS_CSV\` (the current costs: \`bench/SUMMARY.md\`)"
  echo "- Command: \`${OVERRIDES}bash bench/run.sh\` (in \`$ROOT\`)"
  echo "- Workloads (each times itself with a monotonic clock after a warmup; start-up and CUDA init excluded):"
  echo "  - micro: \`micro\` = \`nvcc -O2 bench/micro.cu\` (runtime API, static cudart); mean µs per iteration of each case"
  echo "  - resnet: \`$PYTHON bench/resnet.py\`: ResNet-50 (weights=None) inference, batch 64, **bf16 autocast**, channels_last, 150 batches after 20 warmup; output \`.to(\"cpu\", non_blocking=True)\` (pinned) + event record/synchronize + \`.sum()\`; ms per batch"
  echo "  - sizes: \`copy_sizes sizes\` = \`cc -O2 bench/copy_sizes.c -lcuda\` (driver API): \`cuMemcpyDtoHAsync\` of a whole \`cuMemAllocHost\` buffer of 4 KiB, 1 MiB, 64 MiB, 512 MiB + \`cuStreamSynchronize\` + a host read; µs per copy"
  echo "  - threads: \`copy_sizes threads\`: the same at 4 KiB and 64 MiB with 1, 8 and 64 idle threads in the process (blocked on a condition variable), then 64 idle + 8 busy (each spinning over its own memory)"
  echo "  - train: \`$PYTHON bench/train.py\`: 3-conv CNN, fp32, SGD, synthetic 3x64x64 data, DataLoader(batch_size=128, num_workers=2, pin_memory=True), 300 steps after 30 warmup, \`loss.item()\` every step; ms per step"
  echo "- Configurations (the program's command line follows the prefix):"
  echo "  - native: \`env -u LD_PRELOAD -u SYNCGUARD_OPTIONS -u TORCH_CUDA_SANITIZER\`"
  echo "  - syncguard: \`$SGCMD\`; for the training loop also \`SYNCGUARD_OPTIONS=guard_sources=0\` (only device-to-host destinations guarded)"
  echo "  - syncguard sampled: \`SYNCGUARD_OPTIONS=sample=$SAMPLE\` (each enqueue site's first 4 copies guarded, then one in $SAMPLE; every workload)"
  echo "  - TORCH_CUDA_SANITIZER=1 (PyTorch workloads; train.py switches it off in the DataLoader workers, which do CPU work only and cannot touch CUDA after fork)"
  echo "  - syncguard huge_pinned=0 (sizes, threads): \`SYNCGUARD_OPTIONS=mode=report,huge_pinned=0\`: the driver's own pinned allocations, guarded on 4 KiB pages"
  echo "  - compute-sanitizer: \`$CSAN --tool memcheck\`, once: \`micro 0.1\` and \`copy_sizes sizes 0.1\` (a tenth of the iterations) and \`resnet.py 3 1\` (3 batches after 1 warmup)"
  echo "- Median of $REPS_MICRO runs (micro) / $REPS_RESNET (resnet) / $REPS_TRAIN (train) / $REPS_SIZES (sizes, threads); TORCH_CUDA_SANITIZER in the first $REPS_TCSAN; configurations alternating within each repetition. \"added / iter\" = median − native median."
  echo
  BENCH_SAMPLE=$SAMPLE "$PYTHON" bench/report.py "$RAW" || echo "(bench/report.py failed: see $RESULTS_CSV)"
  if [ -s "$PROFILE" ]; then
    echo
    echo "### Huge pages and syncguard's counters (sizes, threads; first run of each)"
    echo
    echo "AnonHugePages: how much of each pinned buffer the kernel backed with 2 MiB pages, when allocated and after its copies (guards over part of a huge page split it). mprotect_ns / mprotect_calls: syncguard's own time in mprotect."
    echo
    cat "$PROFILE"
  fi
  if [ -s "$MPROTECT" ]; then
    echo
    echo "### The kernel's share: micro's guarded 4 KiB copy against the cost of one mprotect, run by run"
    echo
    echo "Each micro run under syncguard (verbosity=1 counters): the d2h_pinned_4KiB case's µs per copy + synchronize, and the process's mean µs per mprotect call (two per guarded copy; every case of the run together)."
    echo
    echo "| config | rep | d2h_pinned_4KiB µs | mprotect calls | µs per mprotect |"
    echo "|---|---:|---:|---:|---:|"
    cat "$MPROTECT"
  fi
  if [ -s "$TRAIN_MD" ]; then
    echo
    echo "### syncguard's own time in the training loop (bench/sgprof.c, CPU time of every thread, timed steps only)"
    echo
    echo "\`train.py\` once more per configuration with \`SGPROF_MODE=cpu SGPROF_ARM=signal SGPROF_TOGGLE=1\`: syncguard's samples (its code, its system calls and the driver calls it makes for itself; \`bench/sgprof_report.py --own\`) among all the process's, times its CPU time per step (getrusage), against the step. With so few samples each figure is ± the square root of its count."
    echo
    echo "| config | µs per step | syncguard's samples | CPU µs per step | syncguard's µs per step | of a step |"
    echo "|---|---:|---:|---:|---:|---:|"
    cat "$TRAIN_MD"
  fi
  if [ -s "$SGPROF_MD" ]; then
    echo
    echo "### Profile of the guarded 4 KiB copy (bench/sgprof.c, wall clock, 5000 Hz)"
    echo
    echo "\`micro 5 d2h_pinned_4KiB\` once more per configuration with the sampling profiler preloaded after syncguard; per-iteration times include the profiler's own cost (about 15 %). Frames \`sg:\` are syncguard's (symbolized with addr2line on the same build)."
    echo
    cat "$SGPROF_MD"
  fi
  echo
  echo "Raw timings and the stderr tails of failed runs: \`$RESULTS_CSV\`${OUT:+ (\`\$OUT/bench-raw.csv\`)}."
} >"$RESULTS"
cp "$RAW" "$RESULTS_CSV"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT" && cp "$RESULTS" "$OUT/bench-RESULTS.md" && cp "$RAW" "$OUT/bench-raw.csv"
fi
echo
cat "$RESULTS"
echo
progress "written: $RESULTS and $RESULTS_CSV${OUT:+ (copied to \$OUT/bench-RESULTS.md and \$OUT/bench-raw.csv)}"
