#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-old-glibc.sh: the self-contained library works on an older glibc than
# the build machine's: Debian 11's glibc 2.31 (libc6, libc6-dev and
# linux-libc-dev of bullseye, downloaded by apt-get with a state of its
# own: this machine's APT is left alone). The emulator and examples/racy are
# built against that glibc; racy runs under its dynamic linker with the
# library preloaded and every symbol bound at start (LD_BIND_NOW=1): exit
# 66, the report, correct data. It fetches packages: only with
# SG_TEST_OLD_GLIBC=1 (CI sets it); a download that fails is a skip.
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = yes ] || skip "not a --enable-static-deps build"
[ "${SG_TEST_OLD_GLIBC:-0}" = 1 ] || skip "downloads Debian 11's glibc: only with SG_TEST_OLD_GLIBC=1"
lib=${LIB:?}
apt=$tmp/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
echo 'deb http://deb.debian.org/debian bullseye main' >"$apt/sources.list"
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Architectures::=amd64 \
    -o Debug::NoLocking=1
apt-get "$@" update >"$apt/log" 2>&1 || skip "apt-get update of bullseye failed: $(tail -n 1 "$apt/log")"
(cd "$apt/debs" && apt-get "$@" download libc6/bullseye libc6-dev/bullseye linux-libc-dev/bullseye) >>"$apt/log" 2>&1 ||
    skip "apt-get download of bullseye's glibc failed: $(tail -n 1 "$apt/log")"
root=$tmp/root
for d in "$apt"/debs/*.deb; do dpkg -x "$d" "$root" || fail "dpkg -x $d"; done
ldso=$(ls "$root"/lib/x86_64-linux-gnu/ld-2.*.so | head -n 1)
[ -x "$ldso" ] || { echo "FAIL: no dynamic linker in bullseye's libc6"; exit 1; }
echo "glibc: $(basename "$ldso")"
libdir=$root/lib/x86_64-linux-gnu
# (made by libc6's maintainer scripts, not in its archive)
mkdir -p "$root/lib64" && ln -sf "../lib/x86_64-linux-gnu/$(basename "$ldso")" "$root/lib64/ld-linux-x86-64.so.2"

# Built against that glibc: its crt files, libraries and headers first.
old="--sysroot=$root -B$root/usr/lib/x86_64-linux-gnu/ -L$libdir -L$root/usr/lib/x86_64-linux-gnu -Wl,-rpath-link,$libdir"
emu=$SRCDIR/tests/emu
srcs=$(sed -n '/^emu_libcuda_la_SOURCES/,/^[^	]*$/p' "$emu/local.mk" | grep -oE 'emu/[a-z0-9_]+\.c' | sed "s|^emu/|$emu/|")
[ -n "$srcs" ] || { echo "FAIL: no emulator sources in $emu/local.mk"; exit 1; }
mkdir -p "$tmp/old"
# shellcheck disable=SC2086
gcc $old -std=gnu11 -O1 -g -fPIC -shared -fvisibility=hidden -I"$CUDA_DIR/include" -I"$emu" \
    -I"$SRCDIR/tests/lib" -I"$SRCDIR/src" $srcs -Wl,-soname,libcuda.so.1 -Wl,-Bsymbolic-functions \
    "$libdir/libpthread.so.0" "$libdir/libdl.so.2" -o "$tmp/old/libcuda.so.1" ||
    { echo "FAIL: building the emulator against glibc 2.31"; exit 1; }
ln -s libcuda.so.1 "$tmp/old/libcuda.so"
# shellcheck disable=SC2086
gcc $old -g -O1 -I"$CUDA_DIR/include" "$SRCDIR/examples/racy.c" -o "$tmp/old/racy" -L"$tmp/old" -lcuda ||
    { echo "FAIL: building examples/racy against glibc 2.31"; exit 1; }

"$ldso" --library-path "$libdir:$tmp/old" "$tmp/old/racy" >"$tmp/native" 2>&1
echo "native on glibc 2.31: $(cat "$tmp/native")"
run_racy "glibc 2.31, LD_PRELOAD=libsyncguard.so, LD_BIND_NOW=1" \
    env LD_BIND_NOW=1 SYNCGUARD_OPTIONS=color=never \
    "$ldso" --library-path "$libdir:$tmp/old" --preload "$lib" "$tmp/old/racy"
grep -q 'libc-2.31.so' "$tmp/out" || fail "the report's frames are not glibc 2.31's"
finish
