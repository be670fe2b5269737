#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where the training loop's overhead goes (bench/results/2026-11-30-eb36e36.md,
# "the training loop"): the measurements behind the analysis, in one run on the GPU
# machine, no table and no targets (bench/run.sh makes the table):
#   1. bench/pin_probe.py: the kernel mapping of pinned memory, and what a
#      protect + open pair costs the next pass over the pages (minor faults);
#   2. bench/mprotect_threads.c: one pair with 0, 1, 4 and 15 busy threads;
#   3. bench/train.py natively, under syncguard, and under syncguard with
#      guard_sources=0, alternating: time per step, what the process cost
#      the kernel per step (rusage), syncguard's counters (verbosity=1);
#   4. bench/pinned_loader.c (the same copy pattern in C), native and
#      syncguard.
#
#   bash bench/diagnose.sh [REPS [SECTIONS]]   (default 3 and 1234: all; about
#                                              3 minutes on one H200)
#
# Env as bench/run.sh: SYNCGUARD_LIB, SYNCGUARD_LIBDIR, PYTHON, NVCC.
# Output on stdout (and $OUT/diagnose.txt when $OUT is set).
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 2
cd "$ROOT" || exit 2
REPS=${1:-3}
SECTIONS=${2:-1234}
section() { [[ $SECTIONS == *$1* ]]; }
LIB=${SYNCGUARD_LIB:-$ROOT/src/.libs/libsyncguard.so}
LIBDIR=${SYNCGUARD_LIBDIR:-$ROOT/.carry/lib}
PYTHON=${PYTHON:-python3}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=$(dirname "$(dirname "$NVCC")")
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
[ -n "${OUT:-}" ] && exec > >(tee "$OUT/diagnose.txt") 2>&1

sg() {  # sg OPTIONS CMD...: CMD under syncguard
    local opts=$1
    shift
    LD_PRELOAD=$LIB LD_LIBRARY_PATH=$LIBDIR:${LD_LIBRARY_PATH:-} SYNCGUARD_OPTIONS=$opts "$@"
}
native() { env -u LD_PRELOAD -u SYNCGUARD_OPTIONS "$@"; }
show() {  # the lines worth reading of a run's output
    grep -E '^[a-z_0-9]+,[0-9]+,[0-9.]+$|^# per step|syncguard: stats|SUMMARY|syncguard: [0-9]+ race|ERROR|Error|rror:' "$1" |
        sed 's/^/    /'
}

echo "# diagnose: $(date -u), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
echo "# kernel $(uname -r), $(nproc) CPUs; syncguard $(sha256sum "$LIB" | cut -c1-12)"

section 1 && echo "== 1. pinned memory: mapping and the cost of a protect + open pair"
section 1 && "$PYTHON" bench/pin_probe.py 6 20 2>&1 | sed 's/^/    /'

section 2 && echo "== 2. mprotect_threads (mean us per protect + open pair)"
if section 2 && cc -O2 -pthread bench/mprotect_threads.c -o "$TMP/mprotect_threads"; then
    for pages in 1 1536; do
        for threads in 0 1 4 15; do
            printf '    %2d busy threads, %4d pages: ' "$threads" "$pages"
            "$TMP/mprotect_threads" "$threads" "$pages" 2>&1 | tail -1
        done
    done
fi

section 3 && echo "== 3. bench/train.py (300 steps after 30)"
section 3 && for rep in $(seq "$REPS"); do
    for cfg in native sg sg-nosrc; do
        case $cfg in
        native) native "$PYTHON" bench/train.py >"$TMP/o" 2>&1 ;;
        sg) sg verbosity=1 "$PYTHON" bench/train.py >"$TMP/o" 2>&1 ;;
        sg-nosrc) sg verbosity=1:guard_sources=0 "$PYTHON" bench/train.py >"$TMP/o" 2>&1 ;;
        esac
        echo "  rep $rep $cfg (exit $?)"
        show "$TMP/o"
    done
done

section 4 && echo "== 4. pinned_loader (300 steps of 6 MiB)"
if section 4 && cc -O2 -pthread -I"$CUDA/include" bench/pinned_loader.c -o "$TMP/pinned_loader" \
    -L"$CUDA/lib64/stubs" -lcuda; then
    for rep in $(seq "$REPS"); do
        native "$TMP/pinned_loader" >"$TMP/o" 2>&1
        echo "  rep $rep native (exit $?)"
        show "$TMP/o"
        sg verbosity=1 "$TMP/pinned_loader" >"$TMP/o" 2>&1
        echo "  rep $rep sg (exit $?)"
        show "$TMP/o"
    done
fi
echo "# diagnose done: $(date -u)"
