#!/usr/bin/env bash
# The GPU-free test suite (what CI runs): installs what the tests need, builds everything in
# build/ (reusing the tool's objects when scripts/setup.sh built it there), runs every test
# except those labelled "gpu", which need an NVIDIA GPU and are run by scripts/gpu-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# The GPU tests (tests/gpu, label "gpu") cannot run here without a GPU: where none is visible
# they are not even built (a quarter of the test build). scripts/pack-for-device.sh builds them
# for the GPU machine, where scripts/gpu-tests.sh runs them.
gpu_tests=ON
nvidia-smi -L >/dev/null 2>&1 || gpu_tests=OFF
scripts/setup.sh --build-all -DGPUSCOPE_BUILD_GPU_TESTS=$gpu_tests
echo "test: build took $(( $(date +%s) - start )) s"
if [ $gpu_tests = OFF ]; then
  echo "test: no GPU visible: the GPU tests (label 'gpu') are not built; scripts/gpu-tests.sh runs them on a GPU machine"
else
  gpu_count=$(ctest --test-dir build -N -L gpu 2>/dev/null | sed -n 's/^Total Tests: //p')
  echo "test: skipping ${gpu_count:-0} GPU tests (label 'gpu'); scripts/gpu-tests.sh runs them (and the multi-GPU ones where 2 GPUs are visible)"
fi
echo "test: the viewer's browser tests (label 'ui') save their screenshots in build/viewer-ui/"
# CTest's own summary line stays the last line of the output: CI reads it.
ctest --test-dir build -LE gpu --output-on-failure -j"$(nproc)"
