# SPDX-License-Identifier: Apache-2.0
"""ResNet-50 inference with pinned device-to-host output copies (bench/run.sh).

    python3 bench/resnet.py [BATCHES [WARMUP]]     (default 150 after 20)

torchvision resnet50(weights=None), eval, channels_last, bf16 autocast, one
random input batch of 64x3x224x224 kept on the GPU, under torch.no_grad().
Per batch: forward, output .to("cpu", non_blocking=True) (a pinned tensor),
an event recorded after the copy, event.synchronize(), then the host reads
the output (.sum()). Times the BATCHES after WARMUP with perf_counter and
prints "resnet50_bf16_b64,BATCHES,US_PER_BATCH".
"""
import os
import signal
import sys
import time

import torch
import torchvision


def profile_mark():
    """With SGPROF_TOGGLE=1, start or stop bench/sgprof.c's samples
    (SGPROF_ARM=signal): the profile then covers the timed steps only."""
    if os.environ.get("SGPROF_TOGGLE") == "1":
        os.kill(os.getpid(), signal.SIGUSR2)


BATCH = 64


def main():
    batches = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.manual_seed(0)
    model = torchvision.models.resnet50(weights=None)
    model = model.cuda().eval().to(memory_format=torch.channels_last)
    x = torch.randn(BATCH, 3, 224, 224, device="cuda")
    x = x.contiguous(memory_format=torch.channels_last)
    done = torch.cuda.Event()
    total = 0.0
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
        for i in range(warmup + batches):
            if i == warmup:
                t0 = time.perf_counter()
                profile_mark()
            out = model(x).to("cpu", non_blocking=True)
            done.record()
            done.synchronize()
            total += out.float().sum().item()
    dt = time.perf_counter() - t0
    profile_mark()
    print(f"# output pinned={out.is_pinned()} checksum={total:.6g}")
    print(f"resnet50_bf16_b{BATCH},{batches},{dt / batches * 1e6:.1f}")


if __name__ == "__main__":
    main()
