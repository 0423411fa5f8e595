#!/usr/bin/env bash
# The readers' fuzz job (issue 14; CI runs it before the test suite, .ci/run): builds the
# gpuscope command and the mutation driver with AddressSanitizer and UndefinedBehaviorSanitizer
# in build-asan/ (the readers only: no injection library, examples or nvcc), then runs the
# bounded mutation test (tests/fuzz) over the recorded reports in tests/data/reports. Every
# reading command meets each mutant with its output or a one-line error; a signal, a timeout,
# a sanitizer report or garbled output fails the job, keeps the mutant in build-asan/fuzz-failures/
# and prints the command that replays it.
#   scripts/fuzz-readers.sh                  the CI run (fixed seed, bounded case count: 400
#                                            mutants, each met by 2 readers drawn at random,
#                                            one worker per core)
#   FUZZ_SEED=7 FUZZ_CASES=500 FUZZ_COMMANDS_PER_CASE=0 scripts/fuzz-readers.sh
#                                            a longer run with another seed, every reader on
#                                            every mutant
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test-deps

build=${FUZZ_BUILD_DIR:-build-asan}
seed=${FUZZ_SEED:-14}
cases=${FUZZ_CASES:-400}
# Ten times the 40 mutants CI met before issue 26, each by 2 of the ~28 readers (800 runs, about
# 5 minutes on CI's 2 cores): over the cases every reader meets about 30 mutants.
commands_per_case=${FUZZ_COMMANDS_PER_CASE:-2}
start=$(date +%s)
FUZZ_BUILD_DIR=$build scripts/sanitizer-build.sh gpuscope reader_fuzz
echo "fuzz: sanitizer build took $(( $(date +%s) - start )) s"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$build/bin/reader_fuzz" --gpuscope "$build/bin/gpuscope" --seed "$seed" --cases "$cases" \
  --commands-per-case "$commands_per_case" --jobs "${FUZZ_JOBS:-$(nproc)}" \
  --keep "$build/fuzz-failures" tests/data/reports/*.sqlite
echo "fuzz: done in $(( $(date +%s) - start )) s"
