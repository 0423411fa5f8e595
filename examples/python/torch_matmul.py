#!/usr/bin/env python3
"""N float32 matrix products on the GPU (default 10) after one warm-up product, then a sync.

Which kernels cuBLAS picks depends on the library version, but every product of the same
shapes runs the same kernels: each matmul kernel name appears a multiple of (N + 1) times
in a trace. The inputs are filled with constants (one fill kernel each), not random
numbers, so no other kernel shares that count by chance.
"""
import argparse
import sys

import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matmuls", type=int, default=10)
    parser.add_argument("--size", type=int, default=1024)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_matmul: no CUDA device visible to torch", file=sys.stderr)
        return 1

    torch.backends.cuda.matmul.allow_tf32 = False  # the same kernels whatever the default
    a = torch.full((args.size, args.size), 0.5, device="cuda")
    b = torch.full((args.size, args.size), 2.0, device="cuda")
    c = torch.empty((args.size, args.size), device="cuda")
    torch.mm(a, b, out=c)  # warm-up: cuBLAS handle and workspace
    for _ in range(args.matmuls):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()

    expected = float(args.size)  # every entry is the sum of size products 0.5 * 2.0
    if abs(c[0, 0].item() - expected) > 1e-3 * expected:
        print(f"torch_matmul: c[0,0] = {c[0, 0].item()}, expected {expected}", file=sys.stderr)
        return 1
    print(f"torch_matmul: ok matmuls={args.matmuls} warmup=1 size={args.size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
