# SPDX-License-Identifier: Apache-2.0
"""One rank of a two-GPU job for tests/gpu/torchrun_two.sh.

Each rank runs on its own GPU, takes part in an NCCL all_reduce (syncguard
must stay silent about NCCL's own traffic), then copies a result to pinned
host memory with non_blocking=True. Rank 0 reads it before synchronizing
(the race: its log must hold a report); rank 1 synchronizes first (its log
must stay empty). Both print "check: ok" when the values they read are right.
"""
import os
import sys

import torch
import torch.distributed as dist


def main():
    rank = int(os.environ["RANK"])
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    dist.init_process_group("nccl")
    x = torch.full((1 << 22,), float(rank + 1), device="cuda")
    dist.all_reduce(x)  # both ranks: 1 + 2 = 3 everywhere
    y = x * 2
    z = y.to("cpu", non_blocking=True)
    if rank != 0:
        torch.cuda.current_stream().synchronize()
    got = float(z.sum())  # rank 0: the early read
    torch.cuda.synchronize()
    want = 6.0 * (1 << 22)
    print(f"rank {rank}: sum={got} expected={want}")
    print("check: ok" if got == want else "check: MISMATCH")
    dist.destroy_process_group()
    return 0 if got == want else 1


if __name__ == "__main__":
    sys.exit(main())
