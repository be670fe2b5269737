#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Quick start on a fresh Debian machine with the CUDA toolkit: install the
# build dependencies, build syncguard, and run it on the bundled racy
# example, on the GPU when there is one, else on the CPU emulation of the
# driver that the tests use. Says which.
set -eu
cd "$(dirname "$0")/.."
sh dev/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure --quiet
make -j"$(nproc)" --quiet
make -C tests --quiet emu/libcuda.la >/dev/null

cuda=$(sed -n 's/^CUDA_DIR = //p' Makefile)
out=examples/racy
if nvidia-smi -L >/dev/null 2>&1; then
    where="the GPU ($(nvidia-smi -L | head -n 1))"
    gcc -g -O1 -I"$cuda/include" examples/racy.c -o "$out" -L"$cuda/lib64/stubs" -lcuda
else
    where="the CPU emulation of the CUDA driver (no GPU found)"
    emu=$(pwd)/tests/emu/.libs
    gcc -g -O1 -I"$cuda/include" examples/racy.c -o "$out" -L"$emu" -lcuda -Wl,-rpath,"$emu"
fi
echo "== syncguard quick start: running examples/racy under syncguard on $where"
status=0
tools/syncguard -- "./$out" || status=$?
echo "== examples/racy exited with status $status (66: syncguard reported a race, as it should)"
[ "$status" = 66 ]
