# SPDX-License-Identifier: Apache-2.0
"""CuPy zero-copy kernel for the GPU acceptance suite (tests/gpu/run.sh).

    python3 cupy_zero_copy.py kernel-race|kernel-sync

Pinned host memory mapped for the device (cupy.cuda.runtime.hostAlloc with
cudaHostAllocMapped) is wrapped as a CuPy array (under unified addressing
the host address is the device address), and a RawKernel fills it on a
non-blocking stream behind a kernel that spins for a while, so the fill is
certainly still pending when the host reads. The host sums the memory
through a NumPy view either at once (kernel-race: a kernel-early-host-read
report) or after stream.synchronize() (kernel-sync: silent).
Prints sum=, expected= and "check: ok" / "check: MISMATCH" (exit 1);
exits 77 after "SKIP: why" without CuPy or a GPU.
"""
import ctypes
import sys

try:
    import numpy as np
    import cupy as cp
except ImportError as e:
    print(f"SKIP: cupy not importable: {e}")
    sys.exit(77)
try:
    if cp.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError("no device")
except Exception as e:  # CUDARuntimeError without a driver
    print(f"SKIP: cupy sees no CUDA device: {e}")
    sys.exit(77)

N = 1 << 22  # 16 MiB of floats written across the bus
HOST_ALLOC_MAPPED = 2  # cudaHostAllocMapped

SOURCE = r"""
extern "C" __global__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles)
        ;
}
extern "C" __global__ void fill(float *p, unsigned long long n, float v)
{
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = v;
}
"""


def mapped_pinned(nbytes):
    """Pinned, device-mapped host memory: (pointer, CuPy view, NumPy view)."""
    ptr = cp.cuda.runtime.hostAlloc(nbytes, HOST_ALLOC_MAPPED)
    mem = cp.cuda.UnownedMemory(ptr, nbytes, None, 0)
    dev = cp.ndarray((nbytes // 4,), dtype=cp.float32, memptr=cp.cuda.MemoryPointer(mem, 0))
    host = np.ctypeslib.as_array((ctypes.c_float * (nbytes // 4)).from_address(ptr))
    return ptr, dev, host


def main(mode):
    module = cp.RawModule(code=SOURCE)
    spin, fill = module.get_function("spin"), module.get_function("fill")
    ptr, dev, host = mapped_pinned(N * 4)
    host[:] = 0
    s = cp.cuda.Stream(non_blocking=True)
    rate = cp.cuda.runtime.deviceGetAttribute(cp.cuda.runtime.cudaDevAttrClockRate, 0)  # kHz

    spin((1,), (1,), (np.int64(rate * 300),), stream=s)  # about 300 ms
    fill((256,), (256,), (dev, np.uint64(N), np.float32(3.0)), stream=s)
    if mode == "kernel-sync":
        s.synchronize()

    got = float(host.sum(dtype=np.float64))  # the access under test

    s.synchronize()
    want = float(host.sum(dtype=np.float64))
    ok = got == want == 3.0 * N
    print(f"sum={got!r}\nexpected={3.0 * N!r}")
    print("check: ok" if ok else "check: MISMATCH")
    del dev
    cp.cuda.runtime.freeHost(ptr)
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("kernel-race", "kernel-sync"):
        sys.exit(f"usage: {sys.argv[0]} kernel-race|kernel-sync")
    sys.exit(main(sys.argv[1]))
