#!/usr/bin/env bash
# Installs what gpuscope needs (Debian packages, npm modules), builds it and runs its main job:
# gpuscope tracing the vector-add example. Safe to run again; installs only what is missing.
#   scripts/setup.sh              the tool's packages, then gpuscope, its injection library and
#                                 the example (nothing else: a few minutes), then the trace
#   scripts/setup.sh --deps       the tool's packages only
#   scripts/setup.sh --build      packages + the tool, no run
#   scripts/setup.sh --test-deps  the tool's packages and those only the tests need
#   scripts/setup.sh --build-all [-DVAR=VALUE...]
#                                 test packages + everything: tests, benches, probes, examples
#                                 (scripts/test.sh and scripts/pack-for-device.sh run this);
#                                 the -D arguments go to CMake (GPUSCOPE_BUILD_GPU_TESTS=OFF)
# Both builds share build/: the tool's objects are compiled once, the test build adds its own.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
case "$mode" in
  run | --deps | --build | --test-deps) [ $# -le 1 ] || { echo "setup: $mode takes no arguments" >&2; exit 2; } ;;
  --build-all) ;;
  *) echo "setup: unknown option '$mode' (--deps, --build, --test-deps, --build-all)" >&2; exit 2 ;;
esac
shift $(( $# > 0 ? 1 : 0 ))
for arg in "$@"; do
  [[ $arg == -D* ]] || { echo "setup: --build-all takes only -DVAR=VALUE arguments, not '$arg'" >&2; exit 2; }
done
# The tool: a C++20 compiler, CMake and Ninja, SQLite (linked statically), zlib, and elfutils'
# libdw with the bzip2 it reads compressed debug sections with (`--backtrace`'s native frames).
# (ccache is used when installed: CMakeLists.txt.)
packages=(cmake ninja-build g++ pkg-config libsqlite3-dev sqlite3 zlib1g-dev libdw-dev libbz2-dev)
# The tests: GoogleTest; chromium for the viewer's browser tests (tests/viewer-ui);
# python3 with pandas, dask, distributed and pytest for the Python package and its tests, and
# pip (with setuptools and wheel) to install the package into a venv (Python.InstallInVenv).
test_packages=(libgtest-dev libgmock-dev chromium python3 python3-pandas python3-dask python3-distributed
               python3-pytest python3-pip)
with_tests=false
case "$mode" in --test-deps | --build-all) with_tests=true ;; esac
$with_tests && packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm run the viewer's browser tests; any node >= 18 will do (Debian's, or one
# installed otherwise), so only a missing one is installed.
if $with_tests; then
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -e "${GPUSCOPE_CUDA_ROOT:-/usr/local/cuda}/include/cupti.h" ]; then
  echo "setup: CUPTI headers not found under ${GPUSCOPE_CUDA_ROOT:-/usr/local/cuda}; install the CUDA toolkit" \
       "(13.0) or set GPUSCOPE_CUDA_ROOT" >&2
  exit 1
fi
if $with_tests; then
  # The npm packages of the viewer's browser tests (playwright-core, pinned in
  # package-lock.json), installed again only when the lock file changed since the last `npm ci`.
  lock_stamp=node_modules/.gpuscope-package-lock.sha256
  lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$lock_stamp" ] || [ "$(cat "$lock_stamp")" != "$lock_sum" ]; then
    echo "setup: npm ci (playwright-core for the viewer's browser tests)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    echo "$lock_sum" >"$lock_stamp"
  fi
fi
case "$mode" in --deps | --test-deps) exit 0 ;; esac

# The first configuration of build/ leaves the tests out (GoogleTest is not needed to build the
# tool); --build-all turns them on in the same directory.
configure=(-DCMAKE_BUILD_TYPE=Release -DGPUSCOPE_CUDA_ROOT="${GPUSCOPE_CUDA_ROOT:-/usr/local/cuda}")
if [ "$mode" = --build-all ]; then
  configure+=(-DGPUSCOPE_BUILD_TESTS=ON "$@")
elif [ ! -f build/CMakeCache.txt ]; then
  configure+=(-DGPUSCOPE_BUILD_TESTS=OFF)
fi
cmake -S . -B build -G Ninja "${configure[@]}" >/dev/null
if [ "$mode" = --build-all ]; then
  cmake --build build -j"$(nproc)"
  exit 0
fi
# gpuscope builds its injection library with it; vector_add is the example it traces.
cmake --build build -j"$(nproc)" --target gpuscope vector_add
[ "$mode" = --build ] && exit 0

echo "setup: built build/bin/gpuscope and build/lib/libgpuscope_inject.so; tracing build/examples/vector_add:"
# Without a GPU the example fails its first CUDA call (exit 3) and gpuscope says why it saw no
# CUDA activity; that is the expected outcome on such a machine, not a setup failure.
status=0
build/bin/gpuscope run -f -o build/vector_add_%p.sqlite -- build/examples/vector_add || status=$?
echo "setup: done (the traced example exited with code $status)"
