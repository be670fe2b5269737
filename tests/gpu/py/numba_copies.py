# SPDX-License-Identifier: Apache-2.0
"""Numba async D2H copy for the GPU acceptance suite (tests/gpu/run.sh).

    python3 numba_copies.py d2h-race|d2h-sync

A device array filled from the host (cuda.to_device, no kernel: the GPU
machine's numba cannot compile kernels against its numpy) is copied with
d.copy_to_host(h, stream=s) into a cuda.pinned_array; the host sums h either
at once (d2h-race: reported) or after s.synchronize() (d2h-sync: silent).
Prints sum=, expected= and "check: ok" / "check: MISMATCH" (exit 1);
exits 77 after "SKIP: why" without numba or a GPU.
"""
import os
import sys

os.environ.setdefault("NUMBA_DISABLE_PERFORMANCE_WARNINGS", "1")
try:
    import numpy as np
    from numba import cuda
except ImportError as e:
    print(f"SKIP: numba not importable: {e}")
    sys.exit(77)
if not cuda.is_available():
    print("SKIP: numba sees no CUDA device")
    sys.exit(77)

N = 1 << 26  # 256 MiB: the copy is still running when the host reads


def main(mode):
    s = cuda.stream()
    d = cuda.to_device((np.arange(N) % 1024).astype(np.float32), stream=s)
    h = cuda.pinned_array(N, dtype=np.float32)
    h[:] = 0
    s.synchronize()

    d.copy_to_host(h, stream=s)
    if mode == "d2h-sync":
        s.synchronize()

    got = float(h.sum(dtype=np.float64))  # the access under test

    s.synchronize()
    want = float(h.sum(dtype=np.float64))
    ok = got == want == float((N // 1024) * (1023 * 1024 // 2))
    print(f"sum={got!r}\nexpected={want!r}")
    print("check: ok" if ok else "check: MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("d2h-race", "d2h-sync"):
        sys.exit(f"usage: {sys.argv[0]} d2h-race|d2h-sync")
    sys.exit(main(sys.argv[1]))
