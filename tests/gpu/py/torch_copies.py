# SPDX-License-Identifier: Apache-2.0
"""PyTorch async copies for the GPU acceptance suite (tests/gpu/run.sh).

    python3 torch_copies.py MODE

Prints sum=..., expected=... and "check: ok", or "check: MISMATCH" and exits 1
(under syncguard a mismatch means an early access saw wrong data).
Exits 77 after "SKIP: why" when torch or a GPU is missing.

D2H: y = heavy(x) (a few 8192x8192 matmuls, so the copy lands late), then
z = y.to("cpu", non_blocking=True) into pinned memory, and z.sum() on the host:
  d2h-race           nothing between the copy and the sum        -> reported
  d2h-device-sync    torch.cuda.synchronize()                    -> silent
  d2h-stream-sync    torch.cuda.current_stream().synchronize()   -> silent
  d2h-event-sync     event recorded after the copy, synchronized -> silent
  d2h-side-stream    all on a torch.cuda.Stream (non-blocking), only the
                     default stream synchronized                 -> reported
H2D: a pinned CPU tensor copied .to("cuda", non_blocking=True) behind heavy
work, then overwritten in place on the host; the GPU must get the old data:
  h2d-race           fill_ right after the copy                  -> reported
  h2d-sync           torch.cuda.synchronize() before the fill_   -> silent
"""
import sys

try:
    import torch
except ImportError as e:
    print(f"SKIP: torch not importable: {e}")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: torch sees no CUDA device")
    sys.exit(77)

N = 8192


def heavy(x):
    y = x
    for _ in range(4):
        y = (y @ x) * (1.0 / 90.5)  # 90.5 ~ sqrt(N) keeps the values near 1
    return y


def verdict(got, want, ok):
    print(f"sum={got!r}\nexpected={want!r}")
    print("check: ok" if ok else "check: MISMATCH")
    return 0 if ok else 1


def d2h(mode):
    x = torch.randn(N, N, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream() if mode == "d2h-side-stream" else None
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            y = heavy(x)
            z = y.to("cpu", non_blocking=True)
    else:
        y = heavy(x)
        z = y.to("cpu", non_blocking=True)

    if mode == "d2h-device-sync":
        torch.cuda.synchronize()
    elif mode == "d2h-stream-sync":
        torch.cuda.current_stream().synchronize()
    elif mode == "d2h-event-sync":
        ev = torch.cuda.Event()
        ev.record()
        ev.synchronize()
    elif mode == "d2h-side-stream":
        torch.cuda.default_stream().synchronize()  # does not wait for `side`

    got = z.sum().item()  # the access under test (z is a CPU tensor)

    torch.cuda.synchronize()
    want = z.sum().item()
    print(f"pinned={z.is_pinned()}")
    return verdict(got, want, got == want and torch.equal(z, y.cpu()))


def h2d(mode):
    x = torch.randn(N, N, device="cuda")
    g = torch.Generator().manual_seed(1)
    src = torch.rand(16 << 20, generator=g).pin_memory()
    orig = src.clone()
    torch.cuda.synchronize()

    y = heavy(x)  # queued ahead of the copy on the same stream
    d = src.to("cuda", non_blocking=True)
    if mode == "h2d-sync":
        torch.cuda.synchronize()
    src.fill_(-1.0)  # the access under test

    torch.cuda.synchronize()
    back = d.cpu()
    del y
    return verdict(back.double().sum().item(), orig.double().sum().item(),
                   torch.equal(back, orig))


MODES = {m: d2h for m in ("d2h-race", "d2h-device-sync", "d2h-stream-sync",
                          "d2h-event-sync", "d2h-side-stream")}
MODES.update({m: h2d for m in ("h2d-race", "h2d-sync")})

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        sys.exit(f"usage: {sys.argv[0]} {'|'.join(MODES)}")
    torch.manual_seed(0)
    sys.exit(MODES[sys.argv[1]](sys.argv[1]))
