# SPDX-License-Identifier: Apache-2.0
"""A Numba kernel given mapped pinned memory, for tests/gpu/learn.sh.

    python3 learn_numba.py

cuda.mapped_array gives pinned host arrays the device reaches directly; a
kernel reads one and writes the other, on a stream, and the host reads the
result after synchronizing: a correct program, whose kernel syncguard learns
(the first array read, the second written). Prints "check: ok" when the
result is right (exit 0), "check: MISMATCH" (exit 1); exits 77 after
"SKIP: why" without numba-cuda or a GPU.
"""
import sys

try:
    import numpy as np
    from numba import cuda
except ImportError as e:
    print(f"SKIP: numba not importable: {e}")
    sys.exit(77)
if not cuda.is_available():
    print("SKIP: numba sees no CUDA device")
    sys.exit(77)

N = 1 << 16


@cuda.jit
def plus_one(out, src):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[i] + 1


def main():
    src = cuda.mapped_array(N, dtype=np.int32)
    out = cuda.mapped_array(N, dtype=np.int32)
    src[:] = np.arange(N, dtype=np.int32)
    out[:] = 0
    stream = cuda.stream()
    for _ in range(3):
        plus_one[(N + 255) // 256, 256, stream](out, src)
        stream.synchronize()
    ok = bool((out == np.arange(N, dtype=np.int32) + 1).all())
    print("check: ok" if ok else "check: MISMATCH the kernel's result")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
