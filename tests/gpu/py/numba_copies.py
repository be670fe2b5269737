"""Numba async D2H copy for the GPU acceptance suite (tests/gpu/run.sh).

    python3 numba_copies.py d2h-race|d2h-sync

A ~20 ms sleeping kernel and a fill kernel run on stream s, then
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
    from numba import cuda, int32
except ImportError as e:
    print(f"SKIP: numba not importable: {e}")
    sys.exit(77)
if not cuda.is_available():
    print("SKIP: numba sees no CUDA device")
    sys.exit(77)

N = 1 << 20


@cuda.jit
def spin(ms):
    for _ in range(ms):
        cuda.nanosleep(int32(1_000_000))  # ~1 ms; one call sleeps at most ~1 ms


@cuda.jit
def fill(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = i % 1024


def main(mode):
    s = cuda.stream()
    d = cuda.device_array(N, dtype=np.float32, stream=s)
    h = cuda.pinned_array(N, dtype=np.float32)
    h[:] = 0
    spin[1, 1, s](1)  # compile both kernels before the timed part
    fill[1, 32, s](cuda.device_array(32, dtype=np.float32, stream=s))
    s.synchronize()

    spin[1, 1, s](20)
    fill[(N + 255) // 256, 256, s](d)
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
