# SPDX-License-Identifier: Apache-2.0
"""A racy PyTorch test and its correct twin, for pytest --syncguard on a GPU
(tests/gpu/pytest-check.sh).

Both copy the result of heavy GPU work (four 8192x8192 matmuls, so the copy
lands late) to pinned host memory with y.to("cpu", non_blocking=True). The
racy test reads it before synchronizing: syncguard reports an
early-host-read, waits for the copy (the test sees the right data and would
pass on its own) and the plugin fails the test with the report. The correct
one synchronizes first and must pass."""
import torch

N = 8192


def heavy(x):
    y = x
    for _ in range(4):
        y = (y @ x) * (1.0 / 90.5)  # 90.5 ~ sqrt(N) keeps the values near 1
    return y


def copy_to_host():
    x = torch.randn(N, N, device="cuda")
    torch.cuda.synchronize()
    y = heavy(x)
    z = y.to("cpu", non_blocking=True)  # SG-LINE: torch-copy
    assert z.is_pinned()
    return y, z


def test_racy_to_cpu():
    y, z = copy_to_host()
    early = z.sum().item()  # SG-LINE: torch-read (no synchronize before it)
    torch.cuda.synchronize()
    assert early == z.sum().item()  # syncguard let the read see the copied data
    assert torch.equal(z, y.cpu())


def test_synchronized_to_cpu():
    y, z = copy_to_host()
    torch.cuda.synchronize()
    assert torch.equal(z, y.cpu())
