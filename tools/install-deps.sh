#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what syncguard needs to build and test on Debian/Ubuntu. The CUDA
# toolkit is not a Debian package here: it is expected at /usr/local/cuda
# (or CUDA_HOME, or wherever nvcc is on PATH).
set -eu
pkgs="autoconf automake libtool pkg-config make gcc libunwind-dev uthash-dev libdw-dev libelf-dev python3 python3-pytest python3-pytest-xdist python3-jsonschema groff-base"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install-deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
fi
cuda=${CUDA_HOME:-}
[ -n "$cuda" ] || { command -v nvcc >/dev/null 2>&1 && cuda=$(dirname "$(dirname "$(command -v nvcc)")"); } || true
[ -n "$cuda" ] || cuda=/usr/local/cuda
if [ ! -f "$cuda/include/cuda.h" ]; then
    echo "install-deps: the CUDA toolkit headers are missing ($cuda/include/cuda.h): install NVIDIA's CUDA toolkit, or set CUDA_HOME" >&2
    exit 1
fi
