#!/usr/bin/env python3
"""The launch-bound PyTorch loop of the overhead benchmark: `x.add_(1.0)` on 256 floats,
20,000 times (after a short warm-up), timed from the first launch to the final sync.

Prints "loop_ns <ns>", "per_launch_us <us>" and "kernels <count>" (every add_ is one kernel,
the warm-up included; the fill kernel of torch.zeros is not counted). With --profiler the
same loop runs inside torch.profiler with CPU and CUDA activities, for comparison.
"""
import argparse
import sys
import time

import torch


def run_loop(x, iterations):
    start = time.perf_counter_ns()
    for _ in range(iterations):
        x.add_(1.0)
    torch.cuda.synchronize()
    return time.perf_counter_ns() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--profiler", action="store_true",
                        help="run the timed loop under torch.profiler (CPU + CUDA activities)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_add_loop: no CUDA device visible to torch", file=sys.stderr)
        return 1

    x = torch.zeros(256, device="cuda")
    run_loop(x, args.warmup)
    if args.profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
            loop_ns = run_loop(x, args.iterations)
    else:
        loop_ns = run_loop(x, args.iterations)

    total = args.warmup + args.iterations
    if x[0].item() != float(total):
        print(f"torch_add_loop: x[0] = {x[0].item()}, expected {total}", file=sys.stderr)
        return 1
    print(f"loop_ns {loop_ns}")
    print(f"per_launch_us {loop_ns / args.iterations / 1000.0:.3f}")
    print(f"kernels {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
