#!/usr/bin/env bash
# The AddressSanitizer + UndefinedBehaviorSanitizer build that CI's sanitizer jobs share
# (build-asan/, one configuration, so each job reuses the other's objects):
#   scripts/sanitizer-build.sh TARGET...     configures build-asan/ and builds the targets
# No CUDA examples (nvcc), and the gpuscope command without the injection library; the
# injection library's tests build it themselves. FUZZ_BUILD_DIR names another directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD_DIR:-build-asan}
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_C_FLAGS="-O1 -g $sanitize" -DCMAKE_CXX_FLAGS="-O1 -g -fno-omit-frame-pointer $sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
  -DGPUSCOPE_BUILD_EXAMPLES=OFF -DGPUSCOPE_BUILD_INJECTION=OFF \
  -DGPUSCOPE_CUDA_ROOT="${GPUSCOPE_CUDA_ROOT:-/usr/local/cuda}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "$@"
