#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# syncguard's GPU acceptance suite; tests/gpu/README.md says what it checks.
#
#   bash tests/gpu/run.sh [FILTER]      (from anywhere; FILTER: a regex on case names)
#
# Env: SYNCGUARD_LIB (default src/.libs/libsyncguard.so), SYNCGUARD_LIBDIR
# (default .carry/lib, put on LD_LIBRARY_PATH), CUDA_HOME, PYTHON, OUT (all logs
# go to $OUT/gpu-run.log), SG_NVCC_ARCH (default -arch=sm_90), SG_GPU_BUDGET
# (seconds, default 540: cases not started by then fail), SG_GPU_EXCLUDE,
# SG_RUN_OPTIONS (options put first in every framework case's
# SYNCGUARD_OPTIONS), SG_DEFAULT_DEVICE_RACES (tests/run-test.sh).
# Prints PASS/FAIL/SKIP per case, then "N passed, N failed"; exit 0 iff no FAIL.
set -u
ulimit -c 0

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) && cd "$ROOT" || exit 2
FILTER=${1:-}
GPU=tests/gpu

abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
SYNCGUARD_LIB=$(abspath "${SYNCGUARD_LIB:-src/.libs/libsyncguard.so}")
SYNCGUARD_LIBDIR=$(abspath "${SYNCGUARD_LIBDIR:-.carry/lib}")
export SYNCGUARD_LIB SYNCGUARD_LIBDIR
if [ -z "${CUDA_HOME:-}" ] && command -v nvcc >/dev/null; then
  CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
fi
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA/bin/nvcc
PYTHON=${PYTHON:-python3}
NVCC_ARCH=${SG_NVCC_ARCH:--arch=sm_90}
BUDGET=${SG_GPU_BUDGET:-540}
CASE_TIMEOUT=120
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1

LIBPATH=$SYNCGUARD_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PRELOAD=(env "LD_PRELOAD=$SYNCGUARD_LIB" "LD_LIBRARY_PATH=$LIBPATH")
NATIVE=(env -u LD_PRELOAD -u SYNCGUARD_OPTIONS)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/syncguard-gpu.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT" && LOG=$OUT/gpu-run.log
else
  LOG=$(mktemp --suffix=.log "${TMPDIR:-/tmp}/syncguard-gpu-run.XXXXXX") || exit 2
fi
: >"$LOG"
echo "# log: $LOG"

# ---------------------------------------------------------------- reporting
npass=0 nfail=0
result() { # PASS|FAIL|SKIP NAME [WHY]
  local line="$1 $2${3:+: $3}"
  case $1 in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; esac
  echo "$line"
  echo "=== $line" >>"$LOG"
}
verdict() { # NAME [WHY...]: PASS without reasons, else FAIL with them all
  local name=$1 why
  shift
  if [ $# -eq 0 ]; then result PASS "$name"; return; fi
  printf -v why '%s; ' "$@"
  result FAIL "$name" "${why%; }"
}
finish() { echo "$npass passed, $nfail failed"; exit $((nfail > 0)); }
# SG_GPU_EXCLUDE: a regex on case names not to run (a case known to time
# out, say), each counted as a SKIP.
selected() {
  [[ -z $FILTER || $1 =~ $FILTER ]] || return 1
  if [[ -n ${SG_GPU_EXCLUDE:-} && $1 =~ $SG_GPU_EXCLUDE ]]; then
    [[ -n ${excluded_said[$1]:-} ]] || result SKIP "$1" "excluded (SG_GPU_EXCLUDE)"
    excluded_said[$1]=1
    return 1
  fi
}
declare -A excluded_said

# run_cmd NAME CMD...: runs CMD from the repo root, stdin closed, under the case
# time limit; $TMP/out, $TMP/err and $rc hold what it did; all of it is logged.
run_cmd() {
  local name=$1 limit=$CASE_TIMEOUT
  shift
  ((BUDGET - SECONDS < limit)) && limit=$((BUDGET - SECONDS))
  if ((limit < 5)); then
    : >"$TMP/out"
    echo "not started: the suite's ${BUDGET}s budget is spent" >"$TMP/err"
    rc=124
  else
    # (the braces keep bash's own "Aborted" line for a killed case quiet)
    { timeout -k 10 "$limit" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; rc=$?; } 2>/dev/null
  fi
  {
    printf '\n##### %s (limit %ss)\n$ %s\n--- stdout\n' "$name" "$limit" "$*"
    cat "$TMP/out"
    echo "--- stderr"
    cat "$TMP/err"
    echo "--- exit status $rc"
  } >>"$LOG"
}
last_line() { cat "$TMP/out" "$TMP/err" | grep -v '^[[:space:]]*$' | tail -n1 | sed 's/^SKIP: //' | cut -c1-200; }

# expect NAME EXIT REPORT MODE [VAR=value...] CMD...: runs CMD under syncguard
# (SYNCGUARD_OPTIONS mode=MODE) and checks the exit status is EXIT; that stderr
# has a "==PID==WARNING: syncguard:" report ending in "SUMMARY: syncguard: REPORT"
# and no other kind (REPORT "-": no report at all); and, when the program runs
# to its end (EXIT 0 or 66), its own verdict "check: ok" (the data it saw were
# right). A program that prints "SKIP: why" and exits 77 is a SKIP.
expect() {
  local name=$1 want=$2 kind=$3 mode=$4 why=() got
  shift 4
  selected "$name" || return 0
  run_cmd "$name" "${PRELOAD[@]}" \
    "SYNCGUARD_OPTIONS=${SG_RUN_OPTIONS:+$SG_RUN_OPTIONS:}mode=$mode:log_path=stderr" "$@"
  if [ "$rc" = 77 ] && grep -q '^SKIP: ' "$TMP/out"; then
    result SKIP "$name" "$(sed -n 's/^SKIP: //p' "$TMP/out" | head -n1)"
    return
  fi
  grep -Eq 'cannot be preloaded|error while loading shared' "$TMP/err" &&
    why+=("libsyncguard.so did not load: $(grep -Em1 'cannot be preloaded|error while loading shared' "$TMP/err")")
  if [ "$rc" = 124 ]; then
    why+=("timed out")
  elif [ "$rc" != "$want" ]; then
    why+=("exit status $rc, want $want")
  fi
  got=$(grep -o 'SUMMARY: syncguard: [^ ]*' "$TMP/err" | sort -u | tr '\n' ' ')
  if [ "$kind" = - ]; then
    [ -z "$got" ] || why+=("unexpected report: ${got% }")
  elif [ "${got% }" != "SUMMARY: syncguard: $kind" ]; then
    why+=("want one kind of report, SUMMARY: syncguard: $kind; got: ${got:-none}")
  elif ! grep -Eq '^==[0-9]+==WARNING: syncguard: ' "$TMP/err"; then
    why+=("no '==PID==WARNING: syncguard:' line")
  fi
  case $want in 0 | 66)
    grep -qx 'check: ok' "$TMP/out" ||
      why+=("program's own check: $(grep -m1 '^check:' "$TMP/out" || echo 'no verdict')") ;;
  esac
  verdict "$name" "${why[@]}"
}

# ---------------------------------------------------------------- setup
if [ ! -f "$SYNCGUARD_LIB" ]; then
  result FAIL setup "no $SYNCGUARD_LIB (build syncguard or set SYNCGUARD_LIB)"
  finish
fi
if ! probe=$("${PRELOAD[@]}" true 2>&1) || [[ $probe == *"cannot be preloaded"* ]]; then
  result FAIL setup "$probe (put the missing .so files in SYNCGUARD_LIBDIR=$SYNCGUARD_LIBDIR)"
  finish
fi
{
  echo "# $(date -u) $(uname -srm)"
  echo "# SYNCGUARD_LIB=$SYNCGUARD_LIB SYNCGUARD_LIBDIR=$SYNCGUARD_LIBDIR CUDA=$CUDA"
  timeout 30 nvidia-smi -L 2>&1
  timeout 30 "$NVCC" --version 2>&1 | tail -n1
  timeout 60 "$PYTHON" -c 'import torch; print("torch", torch.__version__, torch.version.cuda)' 2>&1 | tail -n1
  LD_LIBRARY_PATH=$LIBPATH ldd "$SYNCGUARD_LIB" 2>&1
} >>"$LOG"

# ---------------------------------------------------------------- a. driver API: tests/drv/*.c
drv_cases() {
  local src x exe srcs=(tests/drv/*.c)
  if [ ! -f "${srcs[0]}" ] || [ ! -f tests/lib/sgtest.c ] || [ ! -f tests/run-test.sh ]; then
    selected drv && result SKIP drv "tests/drv/*.c, tests/lib/sgtest.c or tests/run-test.sh missing"
    return
  fi
  # Build them all first, in parallel: one core a program is most of the
  # suite's time otherwise.
  gcc -O1 -g -I"$CUDA/include" -Itests/lib -c tests/lib/sgtest.c -o "$TMP/sgtest.o" </dev/null
  # The library with exit work of its own that robust_exit_work_* link.
  gcc -O1 -g -fPIC -shared tests/lib/exitwork.c -o "$TMP/libexitwork.so" </dev/null
  # The stand-in for the CUDA runtime that d2h_sample_site_runtime links.
  gcc -O1 -g -fPIC -shared -I"$CUDA/include" -Itests/lib tests/lib/cudart_sgtest.c \
    -o "$TMP/libcudart_sgtest.so" -L"$CUDA/lib64/stubs" -lcuda </dev/null
  local s
  for s in "${srcs[@]}"; do
    selected "drv-$(basename "$s" .c)" && printf '%s\n' "$s"
  done | xargs -r -P "$(nproc)" -I{} sh -c 'x=$(basename "$1" .c)
    link=$(sed -n "s/^.*SG-LINK:[[:space:]]*//p" "$1" | sed "s/[[:space:]]*\*\/.*//; s|@TMP@|$3|g")
    gcc -O1 -g -I"$2/include" -Iinclude -Itests/lib "$1" "$3/sgtest.o" $link -o "$3/drv-$x" \
      -L"$2/lib64/stubs" -lcuda -ldl -lpthread >"$3/drv-$x.build" 2>&1 </dev/null' _ {} "$CUDA" "$TMP"
  for src in "${srcs[@]}"; do
    x=$(basename "$src" .c)
    exe=$TMP/drv-$x
    selected "drv-$x" || continue
    if [ ! -x "$exe" ]; then
      { echo "##### drv-$x: gcc failed"; cat "$exe.build"; } >>"$LOG"
      result FAIL "drv-$x" "gcc failed (see log)"
      continue
    fi
    run_cmd "drv-$x" env "SG_TEST_SOURCE=$src" SG_ON_GPU=1 bash tests/run-test.sh "$exe"
    case $rc in
      0) result PASS "drv-$x" ;;
      77) result SKIP "drv-$x" "$(last_line)" ;;
      124) result FAIL "drv-$x" "timed out" ;;
      *) result FAIL "drv-$x" "tests/run-test.sh exit $rc: $(last_line)" ;;
    esac
  done
}

# ---------------------------------------------------------------- b. runtime API: tests/gpu/rt/copies.cu
# Each row runs against each build: static cudart (nvcc's default), shared
# cudart, and --default-stream per-thread (there stream 0 is the per-thread one).
#   copies.cu MODE          exit  report            syncguard mode
RT_CASES='
d2h-race                  66    early-host-read   report
d2h-race                  134   early-host-read   abort
d2h-stream-sync           0     -                 report
d2h-event-sync            0     -                 report
d2h-device-sync           0     -                 report
d2h-query-poll            0     -                 report
d2h-null-race             66    early-host-read   report
d2h-null-sync             0     -                 report
d2h-nonblocking-null      66    early-host-read   report
d2h-nonblocking-legacy    66    early-host-read   report
d2h-pageable              0     -                 report
h2d-race                  66    early-host-write  report
h2d-sync                  0     -                 report
'
RT_BUILDS='static shared ptds'
declare -A RT_FLAGS=(
  [static]=""
  [shared]="-cudart shared -Xlinker -rpath=$CUDA/lib64"
  [ptds]="--default-stream per-thread"
)

build_rt() { # BUILD: makes $TMP/copies-BUILD once; fails if it cannot
  local exe=$TMP/copies-$1
  if [ ! -e "$exe" ] && [ ! -e "$exe.failed" ]; then
    # shellcheck disable=SC2086 # the flags are words
    timeout 300 "$NVCC" -O2 -g $NVCC_ARCH ${RT_FLAGS[$1]} "$GPU/rt/copies.cu" -o "$exe" \
      >"$exe.build" 2>&1 </dev/null || touch "$exe.failed"
    { echo "##### nvcc build $1"; cat "$exe.build"; } >>"$LOG"
  fi
  [ -e "$exe" ]
}

rt_cases() {
  local b mode want kind sgmode name
  for b in $RT_BUILDS; do
    while read -r mode want kind sgmode <&3; do
      [ -n "$mode" ] || continue
      name=rt-$b-$mode
      [ "$sgmode" = report ] || name+=-$sgmode
      selected "$name" || continue
      if build_rt "$b"; then
        expect "$name" "$want" "$kind" "$sgmode" "$TMP/copies-$b" "$mode"
      else
        result FAIL "$name" "nvcc build failed (see log)"
      fi
    done 3<<<"$RT_CASES"
  done
}

# ---------------------------------------------------------------- b2. runtime API: tests/gpu/rt/edges.cu
# The issue 11 rules (items 3-6) through the runtime, static cudart only.
#   edges.cu MODE        exit  report
EDGE_CASES='
h2h_ok                 0     -
h2h_race               66    early-host-read
elapsed_ok             0     -
elapsed_race           66    early-host-read
unified2d_ok           0     -
unified2d_race         66    early-host-read
managed_ok             0     -
managed_race           66    early-host-read
pool_ok                0     -
pool_return_ok         0     -
graph_record_ok        0     -
graph_record_race      66    early-host-read
graph_host_ok          0     -
graph_host_race        66    early-host-read
exec_update_ok         0     -
exec_update_race       66    early-host-read
conditional_ok         0     -
conditional_race       66    early-host-read
'

# The issue 11 rules 1 and 2 (tests/gpu/rt/nohang.cu), static cudart only.
#   nohang.cu MODE        exit  report
NOHANG_CASES='
hostfn_fill_ok          0     -
hostfn_fill_race        66    early-host-write
hostfn_consumer_ok      0     -
hostfn_consumer_race    66    early-host-read
gate_fill_ok            0     -
gate_fill_race          66    early-host-write
legacy_query_ok         0     -
legacy_query_race       66    early-host-read
'

# FILE (tests/gpu/rt/FILE.cu, built once) run in each MODE of CASES, as
# cases PREFIX-MODE.
rule_cases() {
  local file=$1 cases=$2 prefix=$3 mode want kind name exe=$TMP/$1
  if [ ! -e "$exe" ] && [ ! -e "$exe.failed" ]; then
    # shellcheck disable=SC2086
    timeout 300 "$NVCC" -O2 -g $NVCC_ARCH "$GPU/rt/$file.cu" -o "$exe" >"$exe.build" 2>&1 </dev/null ||
      touch "$exe.failed"
    { echo "##### nvcc build $file"; cat "$exe.build"; } >>"$LOG"
  fi
  while read -r mode want kind <&3; do
    [ -n "$mode" ] || continue
    name=$prefix-$mode
    selected "$name" || continue
    if [ -e "$exe" ]; then
      expect "$name" "$want" "$kind" report "$exe" "$mode"
    else
      result FAIL "$name" "nvcc build failed (see log)"
    fi
  done 3<<<"$cases"
}

edge_cases() { rule_cases edges "$EDGE_CASES" rt-edge; }
nohang_cases() { rule_cases nohang "$NOHANG_CASES" rt-nohang; }

# ---------------------------------------------------------------- b3. runtime API: tests/gpu/rt/mapped.cu
# Device writes into host memory that are not copies (issue 12): CUDA C
# kernels writing mapped pinned memory, static and shared cudart.
#   mapped.cu MODE         exit  report (kernel_write_race with kernel_args=2: by
#   default a host write to what a kernel was given is taken for a signal)
MAPPED_CASES='
kernel_race            66    kernel-early-host-read
kernel_sync_ok         0     -
kernel_alias_race      66    kernel-early-host-read
kernel_event_ok        0     -
kernel_write_race      66    kernel-early-host-write
memset_race            66    early-host-read
memset_sync_ok         0     -
flag_poll_ok           0     -
flag_poll_race         66    early-host-read
'
MAPPED_BUILDS='static shared'

mapped_cases() {
  local b mode want kind name exe
  for b in $MAPPED_BUILDS; do
    exe=$TMP/mapped-$b
    if [ ! -e "$exe" ] && [ ! -e "$exe.failed" ]; then
      # shellcheck disable=SC2086 # the flags are words
      timeout 300 "$NVCC" -O2 -g $NVCC_ARCH ${RT_FLAGS[$b]} "$GPU/rt/mapped.cu" -o "$exe" \
        >"$exe.build" 2>&1 </dev/null || touch "$exe.failed"
      { echo "##### nvcc build mapped $b"; cat "$exe.build"; } >>"$LOG"
    fi
    while read -r mode want kind <&3; do
      [ -n "$mode" ] || continue
      name=rt-mapped-$b-$mode
      selected "$name" || continue
      local opts=report
      [ "$mode" = kernel_write_race ] && opts=report:kernel_args=2
      if [ -e "$exe" ]; then
        expect "$name" "$want" "$kind" "$opts" "$exe" "$mode"
      else
        result FAIL "$name" "nvcc build failed (see log)"
      fi
    done 3<<<"$MAPPED_CASES"
  done
}

# ---------------------------------------------------------------- c, d. PyTorch, Numba, CuPy: tests/gpu/py/*.py
#   case                    script + mode                      exit  report
PY_CASES='
py-torch-d2h-race           torch_copies.py d2h-race           66    early-host-read
py-torch-d2h-device-sync    torch_copies.py d2h-device-sync    0     -
py-torch-d2h-stream-sync    torch_copies.py d2h-stream-sync    0     -
py-torch-d2h-event-sync     torch_copies.py d2h-event-sync     0     -
py-torch-d2h-side-stream    torch_copies.py d2h-side-stream    66    early-host-read
py-torch-h2d-race           torch_copies.py h2d-race           66    early-host-write
py-torch-h2d-sync           torch_copies.py h2d-sync           0     -
py-numba-d2h-race           numba_copies.py d2h-race           66    early-host-read
py-numba-d2h-sync           numba_copies.py d2h-sync           0     -
py-cupy-zero-copy-race      cupy_zero_copy.py kernel-race      66    kernel-early-host-read
py-cupy-zero-copy-sync      cupy_zero_copy.py kernel-sync      0     -
'

py_cases() {
  local name script mode want kind
  while read -r name script mode want kind <&3; do
    [ -n "$name" ] && expect "$name" "$want" "$kind" report "$PYTHON" "$GPU/py/$script" "$mode"
  done 3<<<"$PY_CASES"
}

# Training loop: a native run gives the reference (final loss, predictions
# right); the run under syncguard must be silent and match it (torch_train.py
# compares).
train_case() {
  local name=py-torch-train ref correct
  selected "$name" || return 0
  run_cmd "$name (native reference)" "${NATIVE[@]}" "$PYTHON" "$GPU/py/torch_train.py"
  ref=$(sed -n 's/^final_loss=\([^ ]*\) .*/\1/p' "$TMP/out")
  correct=$(sed -n 's/.* correct_predictions=\([0-9]*\).*/\1/p' "$TMP/out")
  if [ "$rc" = 77 ]; then
    result SKIP "$name" "$(last_line)"
  elif [ "$rc" != 0 ] || [ -z "$ref" ] || [ -z "$correct" ]; then
    result FAIL "$name" "the native reference run failed (exit $rc): $(last_line)"
  else
    expect "$name" 0 - report "SG_REF_LOSS=$ref" "SG_REF_CORRECT=$correct" "$PYTHON" \
      "$GPU/py/torch_train.py"
  fi
}

# ---------------------------------------------------------------- e. tools agree
# compute-sanitizer memcheck does not see this race (no invalid access, no
# CUDA error): PASS when it says 0 errors. The info line also tells whether the
# racy program, run natively, read wrong data (expected: check: MISMATCH).
sanitizer_case() {
  local name=sanitizer-memcheck-misses-race cs x native summary
  selected "$name" || return 0
  cs=$(command -v compute-sanitizer)
  for x in "$CUDA"/bin/compute-sanitizer "$CUDA"/compute-sanitizer/compute-sanitizer; do
    [ -n "$cs" ] || [ ! -x "$x" ] || cs=$x
  done
  if [ -z "$cs" ]; then result SKIP "$name" "compute-sanitizer not found"; return; fi
  if ! build_rt static; then result FAIL "$name" "nvcc build failed (see log)"; return; fi
  run_cmd "$name (native)" "${NATIVE[@]}" "$TMP/copies-static" d2h-race
  native=$(grep -m1 '^check:' "$TMP/out")
  run_cmd "$name" "${NATIVE[@]}" "$cs" --tool memcheck "$TMP/copies-static" d2h-race
  summary=$(cat "$TMP/out" "$TMP/err" | grep -m1 -o 'ERROR SUMMARY: .*')
  case $summary in
    "ERROR SUMMARY: 0 errors") result PASS "$name" ;;
    "") result FAIL "$name" "no ERROR SUMMARY line from compute-sanitizer (exit $rc)" ;;
    *) result FAIL "$name" "compute-sanitizer: $summary" ;;
  esac
  echo "  info: compute-sanitizer memcheck: ${summary:-none}; native run of the racy program: ${native:-no verdict}" |
    tee -a "$LOG"
}

drv_cases
rt_cases
edge_cases
nohang_cases
mapped_cases
py_cases
train_case
sanitizer_case
finish
