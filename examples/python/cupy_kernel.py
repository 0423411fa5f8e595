#!/usr/bin/env python3
"""A CuPy RawKernel launched N times (default 25) on one array, then checked.

The kernel is extern "C", so its name in gpuscope's report is exactly `gpuscope_add_one`.
CuPy also launches a kernel of its own to fill the array; the test counts only ours.
"""
import argparse
import sys

import cupy as cp

KERNEL_NAME = "gpuscope_add_one"
SOURCE = r"""
extern "C" __global__ void gpuscope_add_one(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--launches", type=int, default=25)
    parser.add_argument("--elements", type=int, default=1 << 16)
    parser.add_argument("--block", type=int, default=256)
    args = parser.parse_args()

    kernel = cp.RawKernel(SOURCE, KERNEL_NAME)
    data = cp.zeros(args.elements, dtype=cp.float32)
    grid = (args.elements + args.block - 1) // args.block
    for _ in range(args.launches):
        kernel((grid,), (args.block,), (data, cp.int32(args.elements)))
    cp.cuda.runtime.deviceSynchronize()

    values = cp.asnumpy(data)
    if not (values == float(args.launches)).all():
        print(f"cupy_kernel: wrong values, first {values[0]}", file=sys.stderr)
        return 1
    print(f"cupy_kernel: ok launches={args.launches} grid={grid} block={args.block}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
