# SPDX-License-Identifier: Apache-2.0
"""A small CNN training loop fed by a pinned-memory DataLoader (bench/run.sh).

    python3 bench/train.py [STEPS [WARMUP]]     (default 300 after 30)

Synthetic deterministic dataset (a fixed bank of 1024 3x64x64 images with
labels 0..9, indexed modulo), DataLoader(batch_size=128, num_workers=2,
pin_memory=True), inputs .to("cuda", non_blocking=True), a 3-conv CNN in
fp32, SGD with momentum, loss.item() every step. Times the STEPS after WARMUP
with perf_counter and prints "train_cnn_b128,STEPS,US_PER_STEP", after a
comment line with what the process (all its threads; not the workers) cost
the kernel per timed step: user and system CPU time, minor page faults,
voluntary and involuntary context switches.
"""
import os
import signal
import resource
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def profile_mark():
    """With SGPROF_TOGGLE=1, start or stop bench/sgprof.c's samples
    (SGPROF_ARM=signal): the profile then covers the timed steps only."""
    if os.environ.get("SGPROF_TOGGLE") == "1":
        os.kill(os.getpid(), signal.SIGUSR2)


BATCH, BANK = 128, 1024


class Synthetic(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(BANK, 3, 64, 64, generator=g)
        self.y = torch.randint(0, 10, (BANK,), generator=g)
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.x[i % BANK], self.y[i % BANK]


def worker_init(_):
    # TORCH_CUDA_SANITIZER's dispatch mode is inherited through fork and asks
    # for the current CUDA stream on every op, which fails in a forked worker;
    # the workers do CPU work only, so the sanitizer is switched off there.
    if os.environ.get("TORCH_CUDA_SANITIZER"):
        from torch.cuda import _sanitizer as csan
        try:
            csan.cuda_sanitizer.disable()
        except Exception:  # not active in this process: nothing to do
            pass


def block(cin, cout):
    return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    torch.manual_seed(0)
    model = nn.Sequential(*block(3, 32), nn.MaxPool2d(2), *block(32, 64),
                          nn.MaxPool2d(2), *block(64, 128),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(128, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(Synthetic((warmup + steps) * BATCH), batch_size=BATCH,
                        num_workers=2, pin_memory=True, drop_last=True,
                        worker_init_fn=worker_init)
    for i, (xb, yb) in enumerate(loader):
        if i == warmup:
            t0 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            profile_mark()
        xb = xb.to("cuda", non_blocking=True)
        yb = yb.to("cuda", non_blocking=True)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        last = loss.item()
    dt = time.perf_counter() - t0
    profile_mark()
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    print(f"# final loss={last:.6g}")
    print("# per step: user %.1f us, sys %.1f us, %.1f minor faults, %.1f voluntary and "
          "%.1f involuntary context switches" % (
              (r1.ru_utime - r0.ru_utime) / steps * 1e6, (r1.ru_stime - r0.ru_stime) / steps * 1e6,
              (r1.ru_minflt - r0.ru_minflt) / steps, (r1.ru_nvcsw - r0.ru_nvcsw) / steps,
              (r1.ru_nivcsw - r0.ru_nivcsw) / steps))
    print(f"train_cnn_b{BATCH},{steps},{dt / steps * 1e6:.1f}")


if __name__ == "__main__":
    main()
