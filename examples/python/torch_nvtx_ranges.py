#!/usr/bin/env python3
"""NVTX ranges from PyTorch, both ways a PyTorch user makes them: N training steps each inside
torch.cuda.nvtx.range_push("step")/range_pop(), then M steps under
torch.autograd.profiler.emit_nvtx(record_shapes=True), which puts every op in a range of its own
("aten::addmm, seq = 12, sizes = [[64, 32], ...]").

Prints "torch_nvtx_ranges: ok steps=N emit_nvtx_steps=M". A tool that records NVTX finds N
ranges named "step" and, for the emit_nvtx steps, ranges named after aten ops.
"""
import argparse
import sys

import torch


def train_step(model, optimizer, data, target):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(data), target)
    loss.backward()
    optimizer.step()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--emit-nvtx-steps", type=int, default=3)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_nvtx_ranges: no CUDA device visible to torch", file=sys.stderr)
        return 1

    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    data = torch.ones(64, 32, device="cuda")
    target = torch.zeros(64, 8, device="cuda")
    for _ in range(args.steps):
        torch.cuda.nvtx.range_push("step")
        train_step(model, optimizer, data, target)
        torch.cuda.nvtx.range_pop()
    with torch.autograd.profiler.emit_nvtx(record_shapes=True):
        for _ in range(args.emit_nvtx_steps):
            train_step(model, optimizer, data, target)
    torch.cuda.synchronize()
    print(f"torch_nvtx_ranges: ok steps={args.steps} emit_nvtx_steps={args.emit_nvtx_steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
