#!/usr/bin/env python3
"""A small data-parallel training loop for torchrun: a two-layer MLP wrapped in
DistributedDataParallel, one NCCL all-reduce of the gradients per step (the model fits one DDP
bucket), each step inside an NVTX range "step N".

    torchrun --nproc-per-node 2 ddp_train.py --steps 20 --straggler-rank 1 --straggler-sleep-ms 50

With --straggler-rank R, rank R sleeps --straggler-sleep-ms before its backward pass in every
step, so its all-reduce starts that much after the others': a planted straggler whose cost
is the time the other ranks wait inside the collective.

At the end the ranks compare their parameters (one all-gather): DDP keeps them equal. Prints
"ddp_train: ok rank R of N, S steps" on success, exits 1 otherwise.
"""
import argparse
import sys
import time

import nccl_job  # first: NVLink multicast stays off (before torch starts)
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--straggler-rank", type=int, default=-1,
                        help="the rank that arrives late at every all-reduce (-1: none)")
    parser.add_argument("--straggler-sleep-ms", type=float, default=0.0,
                        help="how late it arrives, ms")
    args = parser.parse_args()
    joined = nccl_job.join("ddp_train")
    if joined is None:
        return 1
    rank, world, device = joined

    torch.manual_seed(0)  # the same initial parameters on every rank
    model = torch.nn.Sequential(torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, 1)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[device.index])
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    data = torch.Generator(device=device)
    data.manual_seed(1000 + rank)  # each rank its own batches
    straggling = rank == args.straggler_rank and args.straggler_sleep_ms > 0

    for step in range(args.steps):
        torch.cuda.nvtx.range_push(f"step {step}")
        x = torch.randn(args.batch, args.hidden, device=device, generator=data)
        y = torch.randn(args.batch, 1, device=device, generator=data)
        loss = torch.nn.functional.mse_loss(ddp(x), y)
        if straggling:
            time.sleep(args.straggler_sleep_ms / 1000.0)
        loss.backward()  # DDP all-reduces the gradients here
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()

    flat = torch.cat([p.detach().flatten() for p in model.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(world)]
    dist.all_gather(gathered, flat)
    same = all(torch.equal(gathered[0], other) for other in gathered)
    dist.destroy_process_group()
    if not same:
        print(f"ddp_train: rank {rank}: the ranks' parameters differ after {args.steps} steps",
              file=sys.stderr)
        return 1
    print(f"ddp_train: ok rank {rank} of {world}, {args.steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
