#!/usr/bin/env bash
# Runs the whole GPU test suite (CTest label "gpu") on a machine with an NVIDIA GPU, using the
# already-built build/ directory (built on a GPU-less machine with scripts/setup.sh --build-all;
# no cmake is needed here). Prints one line at the end:
#   gpu-tests: PASS 25/25 in 141 s
#   gpu-tests: PASS 22/25, 3 skipped in 120 s: GpuPython.A GpuPython.B GpuPython.C
#   gpu-tests: FAIL 2 of 25 failed in 150 s: GpuGraph.X GpuNvtx.Y (1 skipped: GpuPython.A)
# A skipped test never counts as passed: "PASS N/N" means every test ran and passed.
# With $OUT set, the full log, CTest's log and the reports of failed tests are copied there.
# Extra arguments go to ctest (e.g. -R GpuPython to run a subset).
# Multi-GPU tests (label "multigpu", issue 17: torchrun over two GPUs) run only where
# nvidia-smi -L lists two GPUs or more; elsewhere they are left out, and the script says so.
#
# Environment: GPUSCOPE_PYTHON (default: python3 on PATH) runs the Python examples; a Python
# module it cannot import (numba, cupy, torch) fails its test unless
# GPUSCOPE_ALLOW_MISSING_PYTHON=1, which skips it (and the summary says so);
# GPUSCOPE_BUILD_DIR (default: build) names another built tree.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath -m "${GPUSCOPE_BUILD_DIR:-build}")
start_s=$(date +%s)

die() {
  echo "gpu-tests: $*" >&2
  echo "gpu-tests: FAIL (not run: $*)"
  exit 2
}

[ -f "$build/CTestTestfile.cmake" ] ||
  die "no built tree at $build: build it first (scripts/setup.sh --build-all) and bring build/ along"
command -v ctest >/dev/null || die "ctest not found on PATH (it comes with cmake)"
if ! nvidia-smi -L >/dev/null 2>&1; then
  die "no NVIDIA GPU visible (nvidia-smi -L failed)"
fi
for needed in bin/gpuscope lib/libgpuscope_inject.so examples/vector_add; do
  [ -e "$build/$needed" ] || die "build/$needed is missing: build the whole tree (cmake --build build)"
done

# CTest files hold absolute paths of the machine that built the tree. When the tree was
# built elsewhere (say /work/main) and copied here, make that path lead here.
built_dir=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$build/CMakeCache.txt")
built_source=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$built_dir" ] && [ "$built_dir" != "$build" ] && [ ! "$built_dir" -ef "$build" ]; then
  if [ -e "$built_dir" ] || [ -L "$built_dir" ]; then
    die "the tree was built at $built_dir, which exists here and is another directory; run from there"
  fi
  mkdir -p "$(dirname "$built_dir")" && ln -s "$build" "$built_dir" ||
    die "cannot link $built_dir to $build"
  echo "gpu-tests: the tree was built at $built_dir; linked that path to $build"
  if [ -n "$built_source" ] && [ ! -e "$built_source" ]; then
    ln -s "$root" "$built_source" 2>/dev/null || true
  fi
fi
# The tests find gpuscope, the examples and the Python scripts through these.
export GPUSCOPE_BINARY_DIR=$build GPUSCOPE_SOURCE_DIR=$root
export GPUSCOPE_PYTHON=${GPUSCOPE_PYTHON:-python3}
export PYTHONUNBUFFERED=1
# Failed tests keep their reports under here (tests/gpu/traced_run.cpp: ScratchDir).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_gpu_tests_XXXXXX")
export TMPDIR=$scratch

echo "gpu-tests: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)," \
     "python: $($GPUSCOPE_PYTHON --version 2>&1), build: $build"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
leave_out=()
multigpu_note=""
if [ "$gpus" -lt 2 ]; then
  leave_out=(-LE multigpu)
  multigpu_tests=$(ctest --test-dir "$build" -N -L multigpu 2>/dev/null | sed -n 's/^Total Tests: //p')
  multigpu_note="; ${multigpu_tests:-0} multi-GPU tests not run (nvidia-smi -L lists $gpus GPU, they need 2)"
  echo "gpu-tests: leaving out the ${multigpu_tests:-0} multi-GPU tests (label multigpu): nvidia-smi -L lists $gpus GPU, they need 2 or more"
fi
log=$scratch/gpu-tests.log
# Serially: the timing test compares kernel durations, which other GPU work would disturb.
# The multi-GPU test runs several minutes of torchrun jobs under its own CTest timeout.
ctest --test-dir "$build" -L gpu ${leave_out[@]+"${leave_out[@]}"} --output-on-failure --timeout 300 "$@" 2>&1 |
  tee "$log"
ctest_status=${PIPESTATUS[0]}

elapsed=$(( $(date +%s) - start_s ))
# "95% tests passed, 1 tests failed out of 20"; CTest 4 drops the middle part when none
# failed ("100% tests passed out of 5").
summary_line=$(grep -E '^[0-9]+% tests passed(, [0-9]+ tests failed)? out of [0-9]+' "$log" | tail -1)
total=$(sed -nE 's/.* out of ([0-9]+).*/\1/p' <<<"$summary_line")
failed=$(sed -nE 's/.*passed, ([0-9]+) tests failed.*/\1/p' <<<"$summary_line")
[ -n "$summary_line" ] && [ -z "$failed" ] && failed=0
# CTest lists failed tests as "  12 - Name (Failed)" and, under "The following tests did not
# run:", skipped ones as "  12 - Name (Skipped)"; both lists use the same layout.
failed_names=$(grep -vE '\((Skipped|Disabled)\)' "$log" |
  sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \(.*/\1/p' | tr '\n' ' ')
skipped_names=$(sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \((Skipped|Disabled)\).*/\1/p' "$log" |
  sort -u | tr '\n' ' ')
skipped=$(wc -w <<<"$skipped_names")

if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  cp "$log" "$OUT/gpu-tests.log"
  cp "$build/Testing/Temporary/LastTest.log" "$OUT/gpu-tests-ctest.log" 2>/dev/null
  # Reports and their directories of failed tests, at most 16 MiB (what $OUT carries back).
  kept=$(find "$scratch" -mindepth 1 -maxdepth 1 -type d -name 'gpuscope_gpu_*' | head -50)
  if [ -n "$kept" ]; then
    tar -C "$scratch" -czf "$OUT/gpu-tests-failed-reports.tar.gz" $(basename -a $kept) 2>/dev/null
    if [ "$(stat -c %s "$OUT/gpu-tests-failed-reports.tar.gz" 2>/dev/null || echo 0)" -gt 16000000 ]; then
      rm -f "$OUT/gpu-tests-failed-reports.tar.gz"
      echo "gpu-tests: the failed tests' reports are over 16 MB; left in $scratch"
    fi
  fi
fi

if [ -z "$total" ]; then
  echo "gpu-tests: FAIL (ctest exited with $ctest_status and printed no summary) in ${elapsed} s"
  exit 1
fi
if [ "$ctest_status" -eq 0 ] && [ "${failed:-1}" -eq 0 ]; then
  rm -rf "$scratch"
  if [ "$skipped" -gt 0 ]; then
    echo "gpu-tests: PASS $((total - skipped))/$total, $skipped skipped in ${elapsed} s: ${skipped_names% }$multigpu_note"
  else
    echo "gpu-tests: PASS $total/$total in ${elapsed} s$multigpu_note"
  fi
  exit 0
fi
skipped_note=""
[ "$skipped" -gt 0 ] && skipped_note=" ($skipped skipped: ${skipped_names% })"
echo "gpu-tests: FAIL ${failed:-?} of $total failed in ${elapsed} s: ${failed_names% }$skipped_note$multigpu_note"
exit 1
