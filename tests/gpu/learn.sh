#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Learning kernels' accesses on the GPU (issue 29): syncguard's declarations
# of the Compute Sanitizer API checked against NVIDIA's headers and library,
# then programs of each kind run twice under syncguard with one fresh cache
# folder: the first run must learn (some "learnt kernel ... (instrumented
# here" line at verbosity=2), the second must learn nothing and take the
# sets from the cache ("(from the cache"); both must give the program's own
# verdict and the expected reports.
#
#   bash tests/gpu/learn.sh [FILTER]       (FILTER: a regex on case names)
#
# SYNCGUARD_LIB, SYNCGUARD_LIBDIR, CUDA_HOME, PYTHON, OUT as for run.sh.
# Prints PASS/FAIL/SKIP per case, then "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) && cd "$ROOT" || exit 2
CUDA=${CUDA_HOME:-/usr/local/cuda}
SAN=$CUDA/compute-sanitizer
LIB=${SYNCGUARD_LIB:-$ROOT/src/.libs/libsyncguard.so}
LIBDIR=${SYNCGUARD_LIBDIR:-$ROOT/.carry/lib}
PYTHON=${PYTHON:-python3}
OUTDIR=${OUT:-$(mktemp -d)}
mkdir -p "$OUTDIR"
LOG=$OUTDIR/learn.log
: >"$LOG"
TMP=$(mktemp -d) && trap 'rm -rf "$TMP"' EXIT
FILTER=${1:-}
npass=0 nfail=0
result() {
  case $1 in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; esac
  echo "$1 $2${3:+: $3}" | tee -a "$LOG"
}

# ---- the declarations: a wrong constant or layout fails the compile, a
# function the library lacks fails the link.
if gcc -I"$CUDA/include" -I"$SAN/include" -Isrc tests/gpu/check_sanitizer_decls.c \
     -L"$SAN" -lsanitizer-public -Wl,-rpath,"$SAN" -o "$TMP/decls" >"$TMP/decls.build" 2>&1 &&
   "$TMP/decls" | tee -a "$LOG" | grep -q '^check: ok'; then
  result PASS sanitizer-declarations
else
  cat "$TMP/decls.build" >>"$LOG"
  result FAIL sanitizer-declarations "see $LOG"
fi

# run NAME RUN OPTS CMD...: one run under syncguard; sets rc, out.
run() {
  local name=$1 which=$2 opts=$3
  shift 3
  out=$TMP/$name.$which
  env "LD_PRELOAD=$LIB" "LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "SYNCGUARD_OPTIONS=log_path=stderr:verbosity=2:cache_dir=$TMP/cache.$name${opts:+:$opts}" \
    timeout "${SG_LEARN_TIMEOUT:-300}" "$@" >"$out" 2>&1 </dev/null
  rc=$?
  { echo "##### $name, $which run (exit $rc): $*"; grep -E 'syncguard|^check:|SKIP' "$out" | head -40; } >>"$LOG"
}

count() { grep -c "$1" "$out"; }
kinds() { grep -o 'SUMMARY: syncguard: [^ ]*' "$out" | sort -u | sed 's/SUMMARY: syncguard: //' | tr '\n' ' '; }

# twice NAME WANT1 WANT2 OPTS CMD...: WANTn, the reports run n must give
# ("-": none; "any": not checked, a first run guessing as before learning).
twice() {
  local name=$1 want1=$2 want2=$3 opts=$4 why=() got
  shift 4
  [[ -z $FILTER || $name =~ $FILTER ]] || return 0
  run "$name" first "$opts" "$@"
  if [ "$rc" = 77 ]; then result SKIP "$name" "$(grep -m1 SKIP "$out")"; return; fi
  [ "$(count 'learnt kernel .*(instrumented here')" -gt 0 ] || why+=("the first run learnt nothing")
  got=$(kinds)
  [ "$want1" = any ] || [ "${got% }" = "${want1#-}" ] || why+=("first run: reports '${got% }', want '$want1'")
  [ "$want1" = any ] || grep -qx 'check: ok' "$out" || why+=("first run: $(grep -m1 '^check' "$out" || echo no verdict)")
  run "$name" second "$opts" "$@"
  [ "$(count 'learnt kernel .*(instrumented here')" = 0 ] || why+=("the second run learnt again")
  [ "$(count 'learnt kernel .*(from the cache')" -gt 0 ] || why+=("the second run took nothing from the cache")
  got=$(kinds)
  [ "${got% }" = "${want2#-}" ] || why+=("second run: reports '${got% }', want '$want2'")
  grep -qx 'check: ok' "$out" || why+=("second run: $(grep -m1 '^check' "$out" || echo no verdict)")
  if [ ${#why[@]} = 0 ]; then result PASS "$name"; else result FAIL "$name" "$(printf '%s; ' "${why[@]}")"; fi
}

# ---- CUDA C, static and shared runtime: tests/gpu/rt/mapped.cu
for b in static shared; do
  flags=""
  [ $b = shared ] && flags="-cudart shared -Xlinker -rpath=$CUDA/lib64"
  # shellcheck disable=SC2086
  if ! "$CUDA/bin/nvcc" -O2 -g -arch=sm_90 $flags tests/gpu/rt/mapped.cu -o "$TMP/mapped-$b" \
       >"$TMP/mapped-$b.build" 2>&1; then
    result FAIL "learn-cuda-$b" "nvcc failed"; continue
  fi
  twice "learn-cuda-$b-sync" - - learn_launches=1 "$TMP/mapped-$b" kernel_sync_ok
  # A race: guessed the first time (a bounded first read, maybe old bytes),
  # learnt the second (the first read is the race, waited for: right bytes).
  twice "learn-cuda-$b-race" any kernel-early-host-read learn_launches=1 "$TMP/mapped-$b" kernel_race
done

# ---- Python: PyTorch's training loop, CuPy's RawKernel, Numba
twice learn-torch-train - - "" "$PYTHON" tests/gpu/py/torch_train.py
twice learn-cupy-sync - - learn_launches=1 "$PYTHON" tests/gpu/py/cupy_zero_copy.py kernel-sync
twice learn-cupy-race any kernel-early-host-read learn_launches=1 "$PYTHON" tests/gpu/py/cupy_zero_copy.py kernel-race
twice learn-numba - - "" "$PYTHON" tests/gpu/py/learn_numba.py

echo "$npass passed, $nfail failed" | tee -a "$LOG"
exit $((nfail > 0))
