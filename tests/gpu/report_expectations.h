// Checks every GPU test makes, so that each test body reads as what is specific to its
// example: gpuscope ran and passed the exit code through, wrote the reports it should, and
// lost nothing (no dropped records, every kernel, copy and memset timed).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "traced_run.h"

namespace gpuscope::gpu_test {

// gpuscope ran to its end and returned `exit_code` (the program's own).
::testing::AssertionResult EndedWithExitCode(const TracedRun& run, int exit_code);

// Exactly `count` reports were written.
::testing::AssertionResult WroteReports(const TracedRun& run, size_t count);

// Opens `path`; the failure message names the file and the reader's error.
::testing::AssertionResult Loaded(const Report& report);

// Nothing was lost: no dropped records, no kernel/copy/memset without timestamps (neither
// counted by the collector nor present as a row), every end after its start.
void ExpectNothingLost(const Report& report);

// The report describes the process in its file name r_<pid>.sqlite, ran `program_fragment`,
// and lists at least one device that every kernel refers to.
void ExpectProcessAndDevices(const Report& report, const std::string& path,
                             std::string_view program_fragment);

// No line of gpuscope's on the run's stderr says data was lost (late records, records not
// written, dropped samples or records, an incomplete report).
void ExpectNoLossLine(const TracedRun& run);

// Runs `program` under gpuscope, expects `exit_code` and exactly one report, and loads it
// with the checks every single-process example passes (nothing lost, process and devices
// described; after a normal exit, no line about lost data). Use as ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(...)).
void RunExpectingOneReport(const ScratchDir& dir, const std::vector<std::string>& program,
                           int exit_code, TracedRun& run, Report& report,
                           const std::vector<std::string>& gpuscope_options = {});

// Whether `text` has a line containing all of `fragments`.
bool HasLineWithAll(const std::string& text, std::initializer_list<std::string_view> fragments);

}  // namespace gpuscope::gpu_test
