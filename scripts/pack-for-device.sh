#!/usr/bin/env bash
# Makes build-device/: a copy of build/ small enough to carry to the GPU machine (the device
# tool carries at most 64 MiB): no object files or static archives, binaries stripped. CTest
# still works there: scripts/gpu-tests.sh links the original build path to the copy.
#   scripts/pack-for-device.sh && <device> GPUSCOPE_BUILD_DIR=build-device scripts/gpu-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || { echo "pack-for-device: build/ first (scripts/setup.sh --build)" >&2; exit 1; }
rm -rf build-device
mkdir -p build-device && tar -C build --exclude="*.o" --exclude="*.a" --exclude=".ninja_*" -cf - . | tar -C build-device -xf -
find build-device -type f \( -perm -u+x -o -name '*.so' \) -exec sh -c \
  'file -b "$1" | grep -q ELF && strip --strip-unneeded "$1"' _ {} \;
du -sh build-device
