#!/usr/bin/env python3
"""The two PyTorch workloads of scripts/bench-tracer-cost.sh in one process, so that a run
pays `import torch` and CUDA's initialisation once: (b) x.add_(1.0) on 256 floats
(examples/python/torch_add_loop.py) and (c) an MNIST-shaped training loop
(examples/python/torch_mnist_loop.py), each warmed up, then timed from its first launch to
its final synchronize.

Prints "add_loop_ns <ns>", "add_per_launch_ns <ns>", "mnist_loop_ns <ns>" and
"mnist_step_ns <ns>". --profiler: each timed loop runs inside its own torch.profiler session
(CPU + CUDA activities), as a user of torch.profiler would run it.
"""
import argparse
import contextlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "python"))

import torch  # noqa: E402

from torch_add_loop import run_loop  # noqa: E402
from torch_mnist_loop import MnistLoop  # noqa: E402


def session(profiler):
    if not profiler:
        return contextlib.nullcontext()
    from torch.profiler import ProfilerActivity, profile
    return profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--adds", type=int, default=20000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--profiler", action="store_true")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_cost_loops: no CUDA device visible to torch", file=sys.stderr)
        return 1

    x = torch.zeros(256, device="cuda")
    run_loop(x, 200)
    with session(args.profiler):
        add_ns = run_loop(x, args.adds)
    if x[0].item() != float(200 + args.adds):
        print(f"torch_cost_loops: x[0] = {x[0].item()}, expected {200 + args.adds}",
              file=sys.stderr)
        return 1

    mnist = MnistLoop()
    mnist.run(20)
    with session(args.profiler):
        mnist_ns = mnist.run(args.steps)
    if not torch.isfinite(mnist.last_loss).item():
        print("torch_cost_loops: the MNIST loss is not finite", file=sys.stderr)
        return 1

    print(f"add_loop_ns {add_ns}")
    print(f"add_per_launch_ns {add_ns // args.adds}")
    print(f"mnist_loop_ns {mnist_ns}")
    print(f"mnist_step_ns {mnist_ns // args.steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
