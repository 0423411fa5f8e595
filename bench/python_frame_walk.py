#!/usr/bin/env python3
"""What `--backtrace` costs per call in a Python program, GPU-free: the production frame walk
(build/lib/python_frames_probe.so) called through ctypes at two stack depths, interleaved, 15
repetitions, medians with their spread. Variants:
  call     the ctypes call alone (no walk): the baseline subtracted from the others
  reader   reading CPython's structures with the GIL released, as a PyTorch launch is walked
  reader+gil  the same with the GIL held
  api      the C API with the GIL held (versions without a known layout)

  python3 bench/python_frame_walk.py build/lib/python_frames_probe.so [--reps 15]
"""
import argparse
import ctypes
import statistics
import sys
import time

CALLS = 20000


def nested(depth, body):
    return body() if depth == 0 else nested(depth - 1, body)


def per_call_ns(function, max_frames, api_only):
    start = time.perf_counter_ns()
    for _ in range(CALLS):
        function(max_frames, api_only)
    return (time.perf_counter_ns() - start) / CALLS


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("probe")
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args()
    without_gil = ctypes.CDLL(args.probe).gpuscope_probe_walk_only
    with_gil = ctypes.PyDLL(args.probe).gpuscope_probe_walk_only
    variants = {
        "call": (without_gil, 0, 0),
        "reader": (without_gil, 128, 0),
        "reader+gil": (with_gil, 128, 0),
        "api": (with_gil, 128, 1),
    }
    print(f"python {sys.version.split()[0]}, {CALLS} calls per sample, {args.reps} samples")
    for depth in (10, 40):
        frames = nested(depth, lambda: with_gil(128, 0))
        if frames < 0:
            sys.exit("python_frame_walk: this python exports no C API to walk with")
        samples = {name: [] for name in variants}
        for _ in range(args.reps):  # interleaved: one sample of each variant per round
            for name, (function, max_frames, api_only) in variants.items():
                samples[name].append(
                    nested(depth, lambda: per_call_ns(function, max_frames, api_only)))
        base = statistics.median(samples["call"])
        print(f"\n{frames} Python frames on the stack")
        print(f"{'variant':<12} {'ns/call':>8} {'q1-q3':>13} {'walk ns':>8} {'ns/frame':>9}")
        for name, values in samples.items():
            q = statistics.quantiles(values, n=4)
            median = statistics.median(values)
            walk = median - base
            print(f"{name:<12} {median:8.0f} {q[0]:6.0f}-{q[2]:<6.0f} {walk:8.0f} "
                  f"{walk / frames if name != 'call' else 0:9.1f}")


if __name__ == "__main__":
    main()
