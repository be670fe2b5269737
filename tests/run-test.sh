#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs one test program under the preloaded libsyncguard.so and checks what
# its source file says it must do (automake LOG_COMPILER, libeatmydata
# style; tests/gpu/run.sh uses it too). Directives, in comments of the source:
#   SG-EXPECT: KIND       a "SUMMARY: syncguard: KIND" line must appear
#                         (repeat for several kinds; KIND "silent": no report)
#   SG-OPTIONS: OPTS      SYNCGUARD_OPTIONS for the run
#   SG-EXIT: N            expected exit status (default 66 with a report, else 0)
#   SG-GREP: REGEX        a line matching REGEX must appear in the output
#   SG-NOGREP: REGEX      no line may match REGEX
#   SG-ARGS: ARGS         arguments for the program
#   SG-EMU-ONLY           skipped on the GPU (SG_ON_GPU=1)
#   SG-NO-QEMU: WHY       skipped under qemu-user (SG_QEMU set), saying why
#   SG-NO-CHECK           the program prints no "check: ok" line
#   SG-LEARN              learn kernels' accesses (see below)
#   SG-LINK: ARGS         extra link arguments where automake does not build it
#                         (tests/gpu/run.sh; @TMP@ is its build folder)
# SG_QEMU, when set, is the command that runs the program (another
# machine's build under qemu-user: "qemu-aarch64 -cpu max,sve=off", docs/HACKING.md).
# Exit: 0 pass, 77 skip, 1 fail.
set -u
# The argument is the program, or (from make check) its source file X.c,
# the program then being drv/X in the current (build) directory.
case $1 in
*.c) src=$1; prog=drv/$(basename "$1" .c) ;;
*) prog=$1; src=${SG_TEST_SOURCE:-$(dirname "$0")/drv/$(basename "$1").c} ;;
esac
name=$(basename "$prog")
lib=${SYNCGUARD_LIB:-$(cd "$(dirname "$0")/.." && pwd)/src/.libs/libsyncguard.so}

[ -f "$src" ] || { echo "run-test: no source $src for $prog"; exit 1; }
[ -f "$lib" ] || { echo "run-test: no library $lib (build first)"; exit 1; }

directive() { sed -n "s/^.*SG-$1:[[:space:]]*//p" "$src" | sed 's/[[:space:]]*\*\/[[:space:]]*$//; s/[[:space:]]*$//'; }
has() { grep -q "SG-$1" "$src"; }

if [ "${SG_ON_GPU:-0}" = 1 ] && has EMU-ONLY; then
    echo "SKIP $name: emulator only"; exit 77
fi
if [ -n "${SG_QEMU:-}" ] && has NO-QEMU; then
    echo "SKIP $name: not under qemu-user: $(directive NO-QEMU)"; exit 77
fi

opts=$(directive OPTIONS)
# An access that may wait for its own thread (a copy behind a wait-value
# gate, or made from a host function) is waited for boundedly
# (wait_bound_ms), then let through unreported. On the emulator a test's
# verdict must not depend on how fast a loaded machine runs a released copy
# within that bound: unless the program sets it, the bound is an hour
# there. On a GPU the holds open by the clock anyway (sgtest's release
# thread), and the programs run with the bound users get.
# The first read of what an unknown kernel was given waits for it only
# briefly (kernel_read_wait_ms) for the same reason, and is given the same
# hour on the emulator unless the program sets it: a test that means the
# short wait to run out holds the kernel until after the read. On a GPU,
# where the holds open after 200 ms, a second: the tests of a kernel's
# results check that the first read waits and sees them.
# default_option NAME VALUE: NAME=VALUE first in opts, unless the program
# sets NAME itself.
default_option() {
    case ":$opts" in
        *":$1="*) ;;
        *) opts="$1=$2${opts:+:$opts}" ;;
    esac
}
# SG-LEARN: the test learns kernels' accesses (learn/), into a cache folder
# of its own (SG_TEST_CACHE_DIR, for a test that looks at it), through the
# emulator's Compute Sanitizer API (tests/emu/sanitizer.c) or, on a GPU,
# NVIDIA's. Every other test runs without learning, as before it existed.
if has LEARN; then
    learn_dir=$(mktemp -d)
    export SG_TEST_CACHE_DIR=$learn_dir
    default_option learn_kernels 1
    default_option cache_dir "$learn_dir"
    [ "${SG_ON_GPU:-0}" = 1 ] || default_option sanitizer_lib "${SG_LIBCUDA:-libcuda.so.1}"
else
    learn_dir=
    default_option learn_kernels 0
fi
# SG_DEFAULT_DEVICE_RACES=1 (tests/gpu/devmem.sh): every test follows
# device memory between streams unless it says otherwise.
[ -n "${SG_DEFAULT_DEVICE_RACES:-}" ] && default_option device_races "$SG_DEFAULT_DEVICE_RACES"
if [ "${SG_ON_GPU:-0}" = 1 ]; then
    default_option kernel_read_wait_ms 1000
else
    default_option wait_bound_ms 3600000
    default_option kernel_read_wait_ms 3600000
fi
args=$(directive ARGS)
expects=$(directive EXPECT)
out=$(mktemp); trap 'rm -f "$out"; [ -z "$learn_dir" ] || rm -rf "$learn_dir"' EXIT
# shellcheck disable=SC2086
# SYNCGUARD_LIBDIR: where the libraries libsyncguard.so needs and the
# machine lacks were put (the GPU machine has no libunwind).
libpath=${SYNCGUARD_LIBDIR:+$SYNCGUARD_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}
if [ -n "${SG_QEMU:-}" ]; then
    # Another machine's program under qemu-user (docs/HACKING.md: aarch64): the
    # preload and the library path are the guest's (QEMU_SET_ENV), never
    # the host's (the emulator itself is a host program).
    # shellcheck disable=SC2086
    SYNCGUARD_OPTIONS=$opts QEMU_SET_ENV="LD_PRELOAD=$lib${libpath:+,LD_LIBRARY_PATH=$libpath}" \
        $SG_QEMU "$prog" $args >"$out" 2>&1
else
    SYNCGUARD_OPTIONS=$opts LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" \
        LD_LIBRARY_PATH=${libpath:-${LD_LIBRARY_PATH:-}} "$prog" $args >"$out" 2>&1
fi
status=$?
cat "$out"
# A program that cannot run here (two devices on a one-GPU machine) says so.
if [ "$status" = 77 ] && grep -q '^SKIP: ' "$out"; then
    echo "SKIP $name: $(sed -n 's/^SKIP: //p' "$out" | head -n1)"; exit 77
fi

fail() { echo "FAIL $name: $*"; exit 1; }

want_exit=$(directive EXIT)
if [ -z "$want_exit" ]; then
    case $expects in ""|silent) want_exit=0 ;; *) want_exit=66 ;; esac
fi
[ "$status" = "$want_exit" ] || fail "exit status $status, expected $want_exit"

for kind in $expects; do
    if [ "$kind" = silent ]; then
        ! grep -q "syncguard: \(WARNING\|SUMMARY\)\|^SUMMARY: syncguard" "$out" ||
            fail "expected no report, got one"
        ! grep -q "WARNING: syncguard" "$out" || fail "expected no report, got a warning"
    else
        grep -q "^SUMMARY: syncguard: $kind " "$out" || fail "no '$kind' report"
    fi
done
directive GREP | while IFS= read -r re; do
    [ -n "$re" ] || continue
    grep -q -e "$re" "$out" || { echo "FAIL $name: no line matches: $re"; exit 1; }
done || exit 1
directive NOGREP | while IFS= read -r re; do
    [ -n "$re" ] || continue
    ! grep -q -e "$re" "$out" || { echo "FAIL $name: a line matches: $re"; exit 1; }
done || exit 1
if ! has NO-CHECK; then
    grep -q "^check: ok" "$out" || fail "the program's data check did not pass"
fi
echo "PASS $name"
