#!/usr/bin/env python3
"""An MNIST-shaped PyTorch training loop: a small conv net (2 conv + 2 linear layers), batch
64 of 1x28x28 images, SGD with momentum, cross-entropy; synthetic data made on the GPU, so
the loop holds no host-to-device copy of a data loader. After a warm-up (cuDNN and cuBLAS
handles, lazy module loading, the caching allocator's first blocks), `--steps` steps are
timed from the first launch to the final synchronize.

Prints "loop_ns <ns>", "step_ns <ns per step>" and "steps <n>". With --profiler the timed
steps run inside torch.profiler (CPU + CUDA activities), for comparison. Importable:
bench/cost_loops.py runs it in the same process as the add_ loop.
"""
import argparse
import sys
import time

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = torch.relu(self.fc1(x))
        return torch.nn.functional.log_softmax(self.fc2(x), dim=1)


class MnistLoop:
    """The model, optimiser and a few synthetic batches, made once; run() times steps."""

    def __init__(self, batch=64, batches=8, seed=0):
        torch.manual_seed(seed)
        self.model = Net().cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.images = torch.randn(batches, batch, 1, 28, 28, device="cuda")
        self.labels = torch.randint(0, 10, (batches, batch), device="cuda")
        self.last_loss = None

    def steps(self, count):
        model, optimizer = self.model, self.optimizer
        n = self.images.shape[0]
        for i in range(count):
            optimizer.zero_grad(set_to_none=True)
            loss = torch.nn.functional.nll_loss(model(self.images[i % n]), self.labels[i % n])
            loss.backward()
            optimizer.step()
        self.last_loss = loss

    def run(self, count):
        """Wall time of `count` steps and the final synchronize, in ns."""
        start = time.perf_counter_ns()
        self.steps(count)
        torch.cuda.synchronize()
        return time.perf_counter_ns() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--profiler", action="store_true",
                        help="run the timed steps under torch.profiler (CPU + CUDA activities)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_mnist_loop: no CUDA device visible to torch", file=sys.stderr)
        return 1
    loop = MnistLoop()
    loop.run(args.warmup)
    if args.profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
            loop_ns = loop.run(args.steps)
    else:
        loop_ns = loop.run(args.steps)
    if not torch.isfinite(loop.last_loss).item():
        print("torch_mnist_loop: the loss is not finite", file=sys.stderr)
        return 1
    print(f"loop_ns {loop_ns}")
    print(f"step_ns {loop_ns // args.steps}")
    print(f"steps {args.steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
