#!/usr/bin/env bash
# Installs what gpuscope needs to build (Debian packages), builds it, and runs the main job:
# gpuscope tracing the vector-add example. Safe to run again; installs only what is missing.
#   scripts/setup.sh            install + build + run the example
#   scripts/setup.sh --deps     install only
#   scripts/setup.sh --build    install + build, no run
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
# chromium: the viewer's browser tests (tests/viewer-ui) drive Debian's Chromium.
# python3-pandas, -dask, -distributed, -pytest: the Python package (python/gpuscope: reports as
# DataFrames, the multi-rank analyses on Dask) and its tests, for Debian's /usr/bin/python3.
# libdw-dev, libbz2-dev: elfutils, which symbolizes `--backtrace`'s native frames (linked
# statically, with the bzip2 it reads compressed debug sections with).
packages=(cmake ninja-build g++ pkg-config libsqlite3-dev sqlite3 zlib1g-dev libgtest-dev libgmock-dev python3 libdw-dev libbz2-dev
          chromium python3-pandas python3-dask python3-distributed python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm run the viewer's browser tests; any node >= 18 will do (Debian's, or one
# installed otherwise), so only a missing one is installed.
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
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
# The npm packages of the viewer's browser tests (playwright-core, pinned in package-lock.json),
# installed again only when the lock file changed since the last `npm ci`.
lock_stamp=node_modules/.gpuscope-package-lock.sha256
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$lock_stamp" ] || [ "$(cat "$lock_stamp")" != "$lock_sum" ]; then
  echo "setup: npm ci (playwright-core for the viewer's browser tests)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$lock_sum" >"$lock_stamp"
fi
[ "$mode" = "--deps" ] && exit 0

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGPUSCOPE_CUDA_ROOT="${GPUSCOPE_CUDA_ROOT:-/usr/local/cuda}" >/dev/null
cmake --build build -j"$(nproc)"
[ "$mode" = "--build" ] && exit 0

echo "setup: built build/bin/gpuscope and build/lib/libgpuscope_inject.so; tracing build/examples/vector_add:"
# Without a GPU the example fails its first CUDA call (exit 3) and gpuscope says why it saw no
# CUDA activity; that is the expected outcome on such a machine, not a setup failure.
status=0
build/bin/gpuscope run -f -o build/vector_add_%p.sqlite -- build/examples/vector_add || status=$?
echo "setup: done (the traced example exited with code $status)"
