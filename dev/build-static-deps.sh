#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Builds position-independent static archives of what libsyncguard.so links
# to (libunwind, elfutils' libdw and libelf, and the compression libraries
# libdw needs: bzip2, xz's liblzma, zlib) from the Debian source packages of
# this machine's release, for `./configure --enable-static-deps`.
#
#   sh dev/build-static-deps.sh [DIR]        (default DIR: ./static-deps)
#
# Why: Debian ships these archives, but they cannot go into a shared
# object: libunwind.a is not position-independent (R_X86_64_32 relocations),
# libdw.a and libelf.a use the local-exec TLS model (R_X86_64_TPOFF32) and
# libbz2.a reaches stderr through a copy relocation. Rebuilt with -fPIC from
# the very sources Debian built them from (`apt-get source`, Debian's patches
# applied), they link into libsyncguard.so with their symbols hidden. An
# archive Debian already ships in a usable form (zlib and liblzma on Debian
# 12) is taken as it is, after a test link proves it.
#
# Needs: deb-src entries in APT's sources (dev/install-deps.sh
# --static-deps adds them), dpkg-dev, gcc, make, m4, and the -dev packages
# dev/install-deps.sh installs. Takes about 4 minutes on 2 cores.
#
# Result: DIR/lib/*.a and DIR/include (libunwind's headers); elfutils'
# headers are libdw-dev's and libelf-dev's, from the same source version.
set -eu

dir=${1:-static-deps}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
src=$dir/src
mkdir -p "$dir/lib" "$dir/include" "$src"
log=$dir/build.log
: >"$log"
jobs=$(nproc 2>/dev/null || echo 2)
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
syslib=/usr/lib/$multiarch
cflags="-O2 -g -fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2"

say() { printf 'build-static-deps: %s\n' "$*"; }
die() {
    say "$*" >&2
    [ -s "$log" ] && { echo "--- last lines of $log:" >&2; tail -n 30 "$log" >&2; }
    exit 1
}

# The Debian source package SRC, unpacked with its patches applied, in
# $src/SRC (its path printed).
unpack() {
    pkg=$1
    if ! ls "$src/$pkg"_*.dsc >/dev/null 2>&1; then
        (cd "$src" && apt-get source --download-only "$pkg") >>"$log" 2>&1 ||
            die "apt-get source $pkg failed: APT needs deb-src entries (as root: sh dev/install-deps.sh --static-deps)"
    fi
    rm -rf "${src:?}/$pkg"
    dsc=$(ls "$src/$pkg"_*.dsc | tail -n 1)
    dpkg-source --no-check -x "$dsc" "$src/$pkg" >>"$log" 2>&1 || die "dpkg-source -x $dsc failed"
    echo "$src/$pkg"
}

# Can archive A go into a shared object with its symbols hidden? A test link
# of the whole archive says (the relocations a shared object cannot hold
# are refused by the linker).
usable() {
    gcc -shared -o "$dir/probe.so" -Wl,--whole-archive "$1" -Wl,--no-whole-archive \
        -Wl,--exclude-libs,ALL -Wl,--unresolved-symbols=ignore-all >>"$log" 2>&1
    ok=$?
    rm -f "$dir/probe.so"
    return $ok
}

# A compression library: Debian's archive when it is usable, else rebuilt.
compression() {
    name=$1 pkg=$2
    if [ -f "$dir/lib/$name.a" ]; then
        return 0
    fi
    if [ -f "$syslib/$name.a" ] && usable "$syslib/$name.a"; then
        say "$name.a: Debian's ($syslib) is position-independent, used as it is"
        cp "$syslib/$name.a" "$dir/lib/"
        return 0
    fi
    say "$name.a: rebuilding from the Debian source package $pkg"
    d=$(unpack "$pkg")
    case $pkg in
    bzip2)
        make -C "$d" -j"$jobs" libbz2.a CFLAGS="$cflags -D_FILE_OFFSET_BITS=64 -Wall" >>"$log" 2>&1 ||
            die "building bzip2 failed"
        cp "$d/libbz2.a" "$dir/lib/" ;;
    zlib)
        (cd "$d" && CFLAGS="$cflags" ./configure --static --prefix="$dir" && make -j"$jobs" libz.a) >>"$log" 2>&1 ||
            die "building zlib failed"
        cp "$d/libz.a" "$dir/lib/" ;;
    xz-utils)
        (cd "$d" && ./configure --quiet --with-pic --disable-shared --enable-static --disable-xz \
            --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-scripts --disable-doc \
            --disable-nls CFLAGS="$cflags" && make -j"$jobs" -C src/liblzma) >>"$log" 2>&1 ||
            die "building xz-utils failed"
        cp "$d/src/liblzma/.libs/liblzma.a" "$dir/lib/" ;;
    esac
}

libunwind() {
    [ -f "$dir/lib/libunwind.a" ] && return 0
    say "libunwind.a: rebuilding from the Debian source package libunwind (Debian's is not PIC)"
    d=$(unpack libunwind)
    (cd "$d" && ./configure --quiet --prefix="$dir" --with-pic --disable-shared --enable-static \
        --disable-coredump --disable-ptrace --disable-setjmp --disable-tests --disable-documentation \
        CFLAGS="$cflags" && make -j"$jobs" && make install) >>"$log" 2>&1 ||
        die "building libunwind failed"
}

# Only the libraries: libelf, then what libdw.a gathers (libdwfl, libdwelf,
# libebl and its backends, libcpu).
elfutils() {
    [ -f "$dir/lib/libdw.a" ] && [ -f "$dir/lib/libelf.a" ] && return 0
    say "libdw.a, libelf.a: rebuilding from the Debian source package elfutils (Debian's use local-exec TLS)"
    d=$(unpack elfutils)
    (cd "$d" && ./configure --quiet --prefix="$dir" --disable-debuginfod --disable-libdebuginfod \
        --disable-nls --without-zstd CFLAGS="$cflags") >>"$log" 2>&1 || die "configuring elfutils failed"
    for sub in lib libelf libebl libdwelf libdwfl backends libcpu libdw; do
        make -C "$d/$sub" -j"$jobs" >>"$log" 2>&1 || die "building elfutils' $sub failed"
    done
    cp "$d/libdw/libdw.a" "$d/libelf/libelf.a" "$dir/lib/"
}

compression libbz2 bzip2
compression liblzma xz-utils
compression libz zlib
libunwind
elfutils
for a in libunwind libdw libelf libbz2 liblzma libz; do
    usable "$dir/lib/$a.a" || die "$dir/lib/$a.a cannot be linked into a shared object"
done
rm -f "$dir/include/unwind.h"  # libunwind's _Unwind API: it would hide the compiler's
say "done: position-independent archives in $dir/lib (configure --enable-static-deps=$dir)"
