#!/usr/bin/env bash
# Makes what the GPU machine needs of build/ (the device tool carries at most 64 MiB):
#   scripts/pack-for-device.sh             build-device/: build/ without object files or static
#                                          archives, binaries stripped (~100 MB)
#   scripts/pack-for-device.sh --gpu-suite build-device.tar.xz as well: only what
#                                          scripts/gpu-tests.sh runs (gpuscope, lib/, examples,
#                                          the GPU tests; no GPU-free test binaries) in .carry/
#                                          (ignored by git: what the device tool's carry takes)
# CTest still works there: scripts/gpu-tests.sh links the original build path to the copy.
#   <device> tar -xJf .carry/build-device.tar.xz && GPUSCOPE_BUILD_DIR=build-device scripts/gpu-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# build/ with everything, the GPU tests included (scripts/test.sh leaves them out where no GPU
# is visible).
scripts/setup.sh --build-all -DGPUSCOPE_BUILD_GPU_TESTS=ON
rm -rf build-device
mkdir -p build-device && tar -C build --exclude="*.o" --exclude="*.a" --exclude=".ninja_*" \
  --exclude=layer_checks -cf - . | tar -C build-device -xf -
# backtrace_sites keeps its symbols and line table: the GPU test symbolises its launch sites.
find build-device -type f \( -perm -u+x -o -name '*.so' \) ! -name backtrace_sites -exec sh -c \
  'file -b "$1" | grep -q ELF && strip --strip-unneeded "$1"' _ {} \;
du -sh build-device
if [ "${1:-}" = "--gpu-suite" ]; then
  # CTest lists a test whose executable is missing only when asked to run it; gpu-tests.sh
  # runs the label "gpu" alone, so the GPU-free test binaries can stay behind.
  find build-device/bin -type f -name '*_tests' ! -name 'gpu_*' -delete
  rm -rf build-device/viewer-ui
  mkdir -p .carry && XZ_OPT=-T0 tar -cJf .carry/build-device.tar.xz build-device
  ls -la .carry/build-device.tar.xz
fi
