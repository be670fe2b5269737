#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what syncguard needs to build and test on Debian/Ubuntu. The CUDA
# toolkit is not a Debian package here: it is expected at /usr/local/cuda
# (or CUDA_HOME, or wherever nvcc is on PATH).
#
#   sh dev/install-deps.sh                to build and test (clang: for
#       make check-thread-safety, which CI runs)
#   sh dev/install-deps.sh --packaging    also what make deb, make wheel,
#       make check-packages and dev/build-static-deps.sh need (CI): lintian,
#       dpkg-dev, Python's build, setuptools, wheel and venv, and deb-src
#       entries in APT's sources (a copy of the distribution's deb entries,
#       /etc/apt/sources.list.d/syncguard-deb-src.*) for `apt-get source`.
#   sh dev/install-deps.sh --aarch64      also the aarch64 cross build and
#       its tests under qemu-user on an x86-64 machine (docs/HACKING.md, aarch64): the
#       cross compiler, the arm64 libraries (dpkg's arm64 architecture
#       added), the arm64 C library's debug symbols (as reports name libc's
#       frames; without them libdw's first look-up loads libdebuginfod with
#       dlopen, which waits for a loader lock that a thread racing in a
#       library constructor holds), qemu-user.
set -eu
pkgs="autoconf automake libtool pkg-config make gcc clang libunwind-dev uthash-dev libdw-dev libelf-dev python3 python3-pytest python3-pytest-xdist python3-jsonschema groff-base"
packaging=0 aarch64=0
[ "${1-}" = --packaging ] && packaging=1
[ "${1-}" = --aarch64 ] && aarch64=1
[ "$packaging" = 1 ] && pkgs="$pkgs dpkg-dev lintian python3-build python3-setuptools python3-wheel python3-venv zlib1g-dev liblzma-dev libbz2-dev m4"
[ "$aarch64" = 1 ] && pkgs="$pkgs gcc-aarch64-linux-gnu libunwind-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 libc6-dbg:arm64 qemu-user"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
need_src=0
[ "$packaging" = 1 ] && ! apt-get source --print-uris libunwind >/dev/null 2>&1 && need_src=1
if [ -n "$missing" ] || [ "$need_src" = 1 ]; then
    if [ "$(id -u)" != 0 ]; then
        [ -n "$missing" ] && echo "install-deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
        [ "$need_src" = 1 ] && echo "install-deps: APT has no deb-src entries (apt-get source fails): run as root to add them" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # The arm64 libraries are multiarch packages of the machine's own release.
    if [ "$aarch64" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
    fi
    if [ "$need_src" = 1 ]; then
        d=/etc/apt/sources.list.d
        for f in "$d/debian.sources" "$d/ubuntu.sources"; do
            [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" >"$d/syncguard-deb-src.sources"
        done
        if [ ! -f "$d/syncguard-deb-src.sources" ] && [ -f /etc/apt/sources.list ]; then
            sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$d/syncguard-deb-src.list"
        fi
    fi
    apt-get update -qq
    # shellcheck disable=SC2086
    [ -z "$missing" ] || apt-get install -y -qq $missing >/dev/null
fi
cuda=${CUDA_HOME:-}
[ -n "$cuda" ] || { command -v nvcc >/dev/null 2>&1 && cuda=$(dirname "$(dirname "$(command -v nvcc)")"); } || true
[ -n "$cuda" ] || cuda=/usr/local/cuda
if [ ! -f "$cuda/include/cuda.h" ]; then
    echo "install-deps: the CUDA toolkit headers are missing ($cuda/include/cuda.h): install NVIDIA's CUDA toolkit, or set CUDA_HOME" >&2
    exit 1
fi
