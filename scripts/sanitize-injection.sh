#!/usr/bin/env bash
# The injection library's own tests under AddressSanitizer and UndefinedBehaviorSanitizer (CI
# runs it after the readers' fuzz job, in the same build-asan/, .ci/run): the collector's buffer
# pool, queue and writer thread fed real CUPTI record structs, the session lifecycle, the late
# records' tally, the GPU clock pairs, the PM sampler's accounting, its recording file, and its
# device code over a session recorded on the GPU once tests/data/pm_sampling holds one
# (tests/cupti). A heap error or undefined behaviour in that code fails the job with the
# sanitizer's report.
# Left out: the tests that load libgpuscope_inject.so or a probe library into a program that
# is not itself sanitized (a sanitized library must come after the sanitizer's runtime; those
# tests run in the ordinary build, scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test-deps
build=${FUZZ_BUILD_DIR:-build-asan}
start=$(date +%s)
FUZZ_BUILD_DIR=$build scripts/sanitizer-build.sh inject_tests cupti_tests
echo "sanitize-injection: build took $(( $(date +%s) - start )) s"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
unsanitized_hosts='InjectionLibraryExportsTest.*:NvtxInjectionTest.*:InitializeInjectionDeathTest.*:ExitHook*'
"$build/bin/inject_tests" --gtest_brief=1 --gtest_filter="-$unsanitized_hosts"
"$build/bin/cupti_tests" --gtest_brief=1
echo "sanitize-injection: done in $(( $(date +%s) - start )) s"
