#!/usr/bin/env python3
"""Starts torch.profiler (CPU + CUDA activities) in the middle of a run that gpuscope traces.

torch.profiler is itself a CUPTI client. gpuscope owns CUPTI first (it is loaded by cuInit),
so the profiler may fail to get CUDA activities, but it must not take any kernel away from
gpuscope's report: kernels before, inside and after the profiler's session must all be
there. Every kernel counted below is the same `add_` kernel; the report must hold
before + inside + after of them. Prints what the profiler itself saw, for the record.
"""
import argparse
import sys

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=int, default=50)
    parser.add_argument("--inside", type=int, default=100)
    parser.add_argument("--after", type=int, default=50)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_profiler_under_gpuscope: no CUDA device visible to torch", file=sys.stderr)
        return 1

    x = torch.zeros(256, device="cuda")
    for _ in range(args.before):
        x.add_(1.0)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(args.inside):
            x.add_(1.0)
        torch.cuda.synchronize()
    for _ in range(args.after):
        x.add_(1.0)
    torch.cuda.synchronize()

    total = args.before + args.inside + args.after
    if x[0].item() != float(total):
        print(f"torch_profiler_under_gpuscope: x[0] = {x[0].item()}, expected {total}",
              file=sys.stderr)
        return 1
    device_events = sum(1 for e in prof.events()
                        if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA)
    print(f"torch_profiler_under_gpuscope: ok add_kernels={total} "
          f"profiler_device_events={device_events}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
