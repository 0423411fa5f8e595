#!/usr/bin/env bash
# The GPU-free test suite (what CI runs): installs dependencies, builds, runs every test
# except those labelled "gpu", which need an NVIDIA GPU and are run by scripts/gpu-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --build
gpu_tests=$(ctest --test-dir build -N -L gpu 2>/dev/null | sed -n 's/^Total Tests: //p')
multigpu_tests=$(ctest --test-dir build -N -L multigpu 2>/dev/null | sed -n 's/^Total Tests: //p')
echo "test: skipping ${gpu_tests:-0} GPU tests (label 'gpu'); run scripts/gpu-tests.sh on a machine with a GPU"
echo "test: skipping ${multigpu_tests:-0} multi-GPU tests (label 'multigpu', among the GPU tests); scripts/gpu-tests.sh runs them where nvidia-smi lists 2 GPUs or more"
echo "test: the viewer's browser tests (label 'ui') save their screenshots in build/viewer-ui/"
# CTest's own summary line stays the last line of the output: CI reads it.
ctest --test-dir build -LE gpu --output-on-failure -j"$(nproc)"
