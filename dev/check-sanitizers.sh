#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds libsyncguard.so with AddressSanitizer and UBSan and runs the
# driver-API tests (tests/drv, on the CPU emulator) under it: our own memory
# errors and undefined behaviour, which the plain test suite cannot see.
# Run from a configured and built tree: sh dev/check-sanitizers.sh [TEST...]
# Not part of `make check` (it takes several minutes).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
objs=""
cd "$top/src" || exit 2
for f in $(tr -s ' \\\t' '\n' <Makefile.am | grep '\.c$'); do
    # dlsym runs inside ASan's own start-up, before its shadow memory exists.
    san="-fsanitize=address,undefined"
    case $f in preload/libc/dlsym.c | base/dl.c) san="" ;; esac
    o=$out/$(echo "$f" | tr / _).o
    gcc -fPIC -O1 -g $san -fno-omit-frame-pointer -std=gnu11 -fvisibility=hidden \
        -D_GNU_SOURCE -I.. -I. -I"${CUDA_HOME:-/usr/local/cuda}/include" -pthread \
        -c "$f" -o "$o" || exit 2
    objs="$objs $o"
done
# shellcheck disable=SC2086
gcc -shared -fsanitize=address,undefined -o "$out/libsyncguard.so" $objs -lunwind -ldw -ldl \
    -pthread || exit 2
asan=$(gcc -print-file-name=libasan.so)
cd "$top/tests" || exit 2
[ $# -gt 0 ] || set -- drv/*.c
export ASAN_OPTIONS=handle_segv=0:detect_leaks=0:allow_user_segv_handler=1:verify_asan_link_order=0
export UBSAN_OPTIONS=print_stacktrace=1
pass=0 fail=0
for t in "$@"; do
    log=$out/$(basename "$t").log
    LD_PRELOAD=$asan SYNCGUARD_LIB=$out/libsyncguard.so timeout 120 ./run-test.sh "$t" >"$log" 2>&1
    if grep -q "AddressSanitizer\|runtime error" "$log" || ! grep -q "^PASS\|^SKIP" "$log"; then
        echo "FAIL $t"; grep -A12 "ERROR: AddressSanitizer\|runtime error\|^FAIL" "$log" | head -n 20
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
