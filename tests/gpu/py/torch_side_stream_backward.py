# SPDX-License-Identifier: Apache-2.0
"""Issue 30's PyTorch program as filed: backward in a side stream, the
gradient read on the default stream.

    python3 torch_side_stream_backward.py race|ok

race: `with torch.cuda.stream(s): loss.backward()`, then `w.grad.cpu()`
on the default stream, which never waited for s (the report behind
"torch.autograd.backward() fails to sync with other stream"). ok: the
default stream waits for s first. Each of ITERATIONS steps compares the
gradient with one computed on the default stream alone. Prints how many
steps read a wrong gradient and "check: ok" when none did (exit 0), else
"check: MISMATCH" (exit 1); exits 77 after "SKIP: why" without PyTorch or
a GPU. Natively the race reads wrong gradients; under syncguard the
device-read-after-write is reported and, by default, fixed.
"""
import sys

try:
    import torch
except ImportError as e:
    print(f"SKIP: torch not importable: {e}")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

ITERATIONS = 8
N = 4096


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "race"
    torch.manual_seed(0)
    x = torch.randn(N, N, device="cuda")
    w = torch.randn(N, N, device="cuda", requires_grad=True)
    side = torch.cuda.Stream()
    wrong = 0
    for _ in range(ITERATIONS):
        with torch.no_grad():  # d/dw sum((x @ w)^2) = 2 x^T (x @ w)
            ref = (2 * x.t() @ (x @ w)).cpu()
        w.grad = None
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            loss = (x @ w).square().sum()
            loss.backward()
        if mode == "ok":
            torch.cuda.current_stream().wait_stream(side)
        got = w.grad.cpu()  # the default stream: after side only in "ok"
        wrong += not torch.allclose(got, ref, rtol=1e-3, atol=1e-1 * ref.abs().max().item() * 1e-3)
        torch.cuda.synchronize()
    print(f"{wrong} of {ITERATIONS} steps read a wrong gradient ({mode})")
    print("check: ok" if wrong == 0 else "check: MISMATCH")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
