#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The wheel on the GPU machine (issue 15): installs
# dist/syncguard-*-manylinux_*.whl (made by `make wheel` in a
# --enable-static-deps build) into a fresh virtual environment that sees the
# system's packages (PyTorch), and runs racy CUDA programs through the
# installed launcher with nothing else: no SYNCGUARD_LIB, no carried
# libraries, no LD_LIBRARY_PATH, no build tree (the machine has no
# libunwind nor libdw).
#
#   bash tests/gpu/wheel-check.sh [WHEEL]    (default: the newest dist/syncguard-*.whl)
#
# Prints PASS/FAIL/SKIP lines, then "N passed, N failed" alone on the last
# line; exit 0 iff nothing failed. The output of every command goes to
# $OUT/wheel-check.log when OUT is set, else to a /tmp file named first.
# Environment: PYTHON (python3), CUDA_HOME (from nvcc, else /usr/local/cuda).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
PYTHON=${PYTHON:-python3}
whl=${1:-$(ls -t dist/syncguard-*-py3-none-manylinux_*_x86_64.whl 2>/dev/null | head -n 1)}
TMP=$(mktemp -d /tmp/sg-wheel-check.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
if [ -n "${OUT:-}" ]; then log=$OUT/wheel-check.log; else log=$(mktemp /tmp/syncguard-wheel-check.XXXXXX.log); fi
echo "# log: $log"
: >"$log"
pass=0 fail=0
result() {
    echo "$1 $2${3:+: $3}"
    case $1 in PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; esac
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

if [ -z "$whl" ] || [ ! -f "$whl" ]; then
    result FAIL setup "no wheel (${whl:-dist/syncguard-*.whl}): make wheel in a --enable-static-deps build, carry dist/"
    finish
fi
echo "# wheel: $whl; $(getconf GNU_LIBC_VERSION); $("$PYTHON" --version 2>&1)"
echo "# libunwind on this machine: $(ldconfig -p | grep -c 'libunwind\.so') entries; libdw: $(ldconfig -p | grep -c 'libdw\.so')"

# ---- install: a venv seeing the system's site-packages (torch), pip from
# the wheel file alone
venv=$TMP/venv
{
    if "$PYTHON" -m venv --system-site-packages "$venv"; then
        "$venv/bin/python" -m pip install --no-index --no-cache-dir --disable-pip-version-check "$whl"
    else
        # No ensurepip (Ubuntu without python3-venv): a venv without pip,
        # filled by the system's pip.
        rm -rf "$venv"
        "$PYTHON" -m venv --system-site-packages --without-pip "$venv" &&
            "$PYTHON" -m pip --python "$venv/bin/python" install --no-index --no-cache-dir \
                --disable-pip-version-check "$whl"
    fi
} >>"$log" 2>&1
if [ ! -x "$venv/bin/syncguard" ]; then
    result FAIL install "pip install --no-index $whl into a venv failed: $(tail -n 3 "$log" | tr '\n' ' ')"
    finish
fi
lib=$("$venv/bin/python" -c 'import syncguard; print(syncguard.library_path())' 2>>"$log")
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    result FAIL install "syncguard.library_path(): '$lib'"
    finish
fi
missing=$(ldd "$lib" 2>&1 | grep -E 'not found|libunwind|libdw|libelf')
needed=$(readelf -dW "$lib" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [ -n "$missing" ]; then
    result FAIL install "the installed library needs what this machine lacks: $missing"
else
    result PASS install "$(basename "$whl") in a venv; the library needs: $needed"
fi

# A clean environment for every run: nothing syncguard-related, no library path.
clean=(env -u SYNCGUARD_LIB -u SYNCGUARD_LIBDIR -u LD_LIBRARY_PATH -u LD_PRELOAD -u SYNCGUARD_OPTIONS)

# expect NAME WANT_STATUS KIND COMMAND...: KIND '-' means no report at all.
expect() {
    local name=$1 want=$2 kind=$3 rc
    shift 3
    (cd "$TMP" && "${clean[@]}" "$@") >"$TMP/out" 2>&1
    rc=$?
    { echo "==== $name: $* (exit $rc)"; cat "$TMP/out"; } >>"$log"
    if [ "$rc" = 77 ]; then
        result SKIP "$name" "$(tail -n 1 "$TMP/out")"
        return
    fi
    local why=
    [ "$rc" = "$want" ] || why="exit $rc, want $want"
    if [ "$kind" = - ]; then
        grep -q '^SUMMARY: syncguard:' "$TMP/out" && why="${why:+$why; }a report where none was expected"
    else
        grep -q '==WARNING: syncguard:' "$TMP/out" || why="${why:+$why; }no report"
        grep '^SUMMARY: syncguard:' "$TMP/out" | grep -vq "^SUMMARY: syncguard: $kind " &&
            why="${why:+$why; }a SUMMARY of another kind than $kind"
        grep -q "^SUMMARY: syncguard: $kind " "$TMP/out" || why="${why:+$why; }no SUMMARY line for $kind"
    fi
    grep -qE 'MISMATCH|WRONG' "$TMP/out" && why="${why:+$why; }the program read wrong data"
    if [ -n "$why" ]; then result FAIL "$name" "$why"; else result PASS "$name"; fi
}

# ---- the bundled racy example, on the GPU
cuda=${CUDA_HOME:-}
[ -n "$cuda" ] || { command -v nvcc >/dev/null && cuda=$(dirname "$(dirname "$(command -v nvcc)")"); }
[ -n "$cuda" ] || cuda=/usr/local/cuda
if gcc -g -O1 -I"$cuda/include" "$root/examples/racy.c" -o "$TMP/racy" -L"$cuda/lib64/stubs" -lcuda >>"$log" 2>&1; then
    expect wheel-racy 66 early-host-read "$venv/bin/syncguard" -- "$TMP/racy"
    expect wheel-racy-sync 0 - "$venv/bin/syncguard" -- "$TMP/racy" sync
    expect wheel-python-m 66 early-host-read "$venv/bin/python" -m syncguard -- "$TMP/racy"
    expect wheel-racy-json 66 early-host-read "$venv/bin/syncguard" --json-path="$TMP/j" -- "$TMP/racy"
    (cd "$TMP" && "${clean[@]}" "$venv/bin/syncguard-report" "$TMP"/j.*) >"$TMP/table" 2>&1
    rc=$?
    cat "$TMP/table" >>"$log"
    if [ "$rc" = 1 ] && grep -q 'early-host-read' "$TMP/table"; then result PASS wheel-report
    else result FAIL wheel-report "syncguard-report: exit $rc, want 1 with the race: $(head -c 200 "$TMP/table")"; fi
else
    result FAIL wheel-racy "cannot build examples/racy.c against $cuda (see $log)"
fi

# ---- PyTorch, through the console script (the venv's python sees torch)
py=$root/tests/gpu/py/torch_copies.py
expect wheel-torch-d2h-race 66 early-host-read "$venv/bin/syncguard" -- "$venv/bin/python" "$py" d2h-race
expect wheel-torch-d2h-device-sync 0 - "$venv/bin/syncguard" -- "$venv/bin/python" "$py" d2h-device-sync
expect wheel-torch-h2d-race 66 early-host-write "$venv/bin/syncguard" -- "$venv/bin/python" "$py" h2d-race
finish
