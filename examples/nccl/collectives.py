#!/usr/bin/env python3
"""An all-gather / reduce-scatter loop for torchrun (the collectives of sharded training,
FSDP's pattern): each iteration all-gathers a shard from every rank, then reduce-scatters a
full tensor back into shards, inside an NVTX range "iteration N"; the results are checked
against what they must be.

    torchrun --nproc-per-node 2 collectives.py --iterations 20

Prints "collectives: ok rank R of N, I iterations" on success, exits 1 otherwise.
"""
import argparse
import sys

import nccl_job  # first: NVLink multicast stays off (before torch starts)
import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--shard", type=int, default=1 << 16, help="floats per rank")
    args = parser.parse_args()
    joined = nccl_job.join("collectives")
    if joined is None:
        return 1
    rank, world, device = joined

    shard = torch.full((args.shard,), float(rank + 1), device=device)
    full = torch.empty(args.shard * world, device=device)
    out = torch.empty(args.shard, device=device)
    # After the all-gather every rank holds r+1 in shard r; the reduce-scatter sums the ranks'
    # identical full tensors, so rank r gets world * (r + 1) in its shard.
    expected = float(world * (rank + 1))
    wrong = 0
    for iteration in range(args.iterations):
        torch.cuda.nvtx.range_push(f"iteration {iteration}")
        dist.all_gather_into_tensor(full, shard)
        dist.reduce_scatter_tensor(out, full)
        torch.cuda.nvtx.range_pop()
        wrong += int((out != expected).sum().item())
    dist.destroy_process_group()
    if wrong:
        print(f"collectives: rank {rank}: {wrong} wrong values", file=sys.stderr)
        return 1
    print(f"collectives: ok rank {rank} of {world}, {args.iterations} iterations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
