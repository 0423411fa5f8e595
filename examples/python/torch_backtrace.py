#!/usr/bin/env python3
"""Kernels launched from known lines, for `gpuscope run --backtrace`
(tests/gpu/backtrace_test.cpp): the call site of each kernel must be the line marked
"launch:" below that launched it (the test reads the markers from this file).
"""
import torch


def forward(x, w, steps):
    for _ in range(steps):
        y = x @ w  # launch: matmul
        x = torch.relu(y)  # launch: relu
    return x


def main():
    x = torch.rand(256, 256, device="cuda")
    w = torch.rand(256, 256, device="cuda") / 256
    forward(x, w, 5)
    torch.cuda.synchronize()
    print("torch_backtrace: ok")


if __name__ == "__main__":
    main()
