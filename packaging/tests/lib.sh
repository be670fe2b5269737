# SPDX-License-Identifier: Apache-2.0
# Sourced by the package tests. Environment (make check-packages sets it):
# SRCDIR, BUILDDIR, VERSION, PYTHON, LIB, TRIPLET, STATIC_DEPS, CUDA_DIR,
# SG_EMU_LIBDIR (the emulator's libcuda.so.1), DEB.
set -u
: "${SRCDIR:?}" "${BUILDDIR:?}" "${VERSION:?}" "${CUDA_DIR:?}" "${SG_EMU_LIBDIR:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-pkgtest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "$*"; exit 77; }
finish() {
    [ "$failures" -eq 0 ] && { echo "all checks passed"; exit 0; }
    echo "$failures check(s) failed"
    exit 1
}

# examples/racy built against the emulator, as dev/quickstart.sh builds it
# when there is no GPU: $tmp/racy.
build_racy() {
    [ -e "$SG_EMU_LIBDIR/libcuda.so" ] || skip "no emulator in $SG_EMU_LIBDIR (make -C tests emu/libcuda.la)"
    gcc -g -O1 -I"$CUDA_DIR/include" "$SRCDIR/examples/racy.c" -o "$tmp/racy" \
        -L"$SG_EMU_LIBDIR" -lcuda -Wl,-rpath,"$SG_EMU_LIBDIR" || { echo "FAIL: cannot build examples/racy"; exit 1; }
}

# run_racy WHAT COMMAND...: COMMAND (a launcher and its arguments, the racy
# program's path last) must exit 66 with an early-host-read report of
# racy.c:30 in sum, and the program must have read correct data; the
# report is printed.
run_racy() {
    what=$1
    shift
    "$@" >"$tmp/out" 2>&1
    rc=$?
    echo "== $what: exit $rc"
    cat "$tmp/out"
    [ "$rc" = 66 ] || fail "$what: exit $rc, want 66"
    grep -q '==WARNING: syncguard: host read of a device-to-host copy' "$tmp/out" || fail "$what: no report"
    grep -q '^SUMMARY: syncguard: early-host-read racy.c:30 in sum' "$tmp/out" || fail "$what: no SUMMARY line for racy.c:30"
    grep -q 'sum=16777216 expected=16777216 (correct)' "$tmp/out" || fail "$what: the program did not read correct data"
}

# needed LIB: its NEEDED entries, one a line.
needed() { readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
