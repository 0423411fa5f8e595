#!/usr/bin/env python3
"""The Numba convolution of reference 000 (an nvprof tutorial), on a synthetic image.

The tutorial convolves a 200x200 crop of a photo; this uses a seeded random 200x200
float32 image instead, so that nothing needs a file. What the program launches is what the
tutorial's nvprof summary shows: one `convolve` kernel, three host-to-device copies
(result, mask, image: Numba copies every host array argument in) and three device-to-host
copies (it copies every one of them back after the launch).

By default the accumulator is `float32(0)`, the tutorial's fix. With `--as-published` it is
the tutorial's `s = 0`: Numba then types `s` as float64, and every `s += ...` is an FP64
add (reference 000's problem; tests/gpu/source_lines_test.cpp finds that line by its
`# planted:` marker). The kernel is compiled with `lineinfo=True`, which adds the line table
that source counters need and leaves the generated code as it is; Numba offers no
environment variable for it (docs/jit-line-info.md).
"""
import sys

import numpy as np

# numba-cuda still refers to np.row_stack, which numpy 2.5 removed.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

from numba import cuda, float32  # noqa: E402  (must follow the numpy fix above)

IMAGE_SHAPE = (200, 200)
MASK_SHAPE = (13, 13)
BLOCK = (32, 32)


def make_convolve(accumulator_zero):
    """The tutorial's kernel. Numba freezes `accumulator_zero` into it as a constant, and
    its type becomes the accumulator's: float32(0) keeps `s` in float32; the published 0
    (an integer) makes `s` float64 once a float32 product is added to it."""

    @cuda.jit(lineinfo=True)
    def convolve(result, mask, image):
        i, j = cuda.grid(2)
        image_rows, image_cols = image.shape
        if (i >= image_rows) or (j >= image_cols):
            return
        delta_rows = mask.shape[0] // 2
        delta_cols = mask.shape[1] // 2
        s = accumulator_zero
        for k in range(mask.shape[0]):
            for l in range(mask.shape[1]):  # noqa: E741  (the tutorial's names)
                i_k = i - k + delta_rows
                j_l = j - l + delta_cols
                if (i_k >= 0) and (i_k < image_rows) and (j_l >= 0) and (j_l < image_cols):
                    s += mask[k, l] * image[i_k, j_l]  # planted: fp64-accumulator
        result[i, j] = s

    return convolve


def main():
    as_published = sys.argv[1:] == ["--as-published"]
    if sys.argv[1:] and not as_published:
        print("usage: numba_convolve.py [--as-published]", file=sys.stderr)
        return 2
    convolve = make_convolve(0 if as_published else float32(0))
    rng = np.random.default_rng(0)
    image = rng.random(IMAGE_SHAPE, dtype=np.float32)
    result = np.empty_like(image)
    mask = rng.random(MASK_SHAPE, dtype=np.float32)
    mask /= mask.sum()
    griddim = (image.shape[0] // BLOCK[0] + 1, image.shape[1] // BLOCK[1] + 1)

    convolve[griddim, BLOCK](result, mask, image)

    # Checked against SciPy as in the tutorial, when SciPy is there.
    try:
        from scipy.ndimage import convolve as scipy_convolve
    except ImportError:
        print("numba_convolve: scipy missing, result not checked", file=sys.stderr)
    else:
        expected = scipy_convolve(image, mask, mode="constant", cval=0.0, origin=0)
        max_rel_error = np.max(np.abs(result - expected) / np.abs(expected))
        if max_rel_error > 1e-5:
            print(f"numba_convolve: max relative error {max_rel_error}", file=sys.stderr)
            return 1
    print(f"numba_convolve: ok grid={griddim} block={BLOCK} "
          f"bytes image={image.nbytes} mask={mask.nbytes} result={result.nbytes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
