// Everything `gpuscope run` checks and builds before the program starts, so that a mistake
// (a typo in the program name or in -o, a missing injection library) costs an error message
// instead of a run whose report cannot be written.
#pragma once

#include <string>
#include <vector>

#include "cli/launch/launcher.h"
#include "cli/options/run_options.h"
#include "contract/profile_request.h"

namespace gpuscope::cli {

struct RunPreparation {
  LaunchRequest request;  // the resolved program, its argv and the contract environment
  std::string manifest_path;
  std::string report_pattern;  // absolute, as the injection library gets it
  // Problems that do not stop the run; printed to the log once it is open.
  std::vector<std::string> warnings;
};

struct PreparationFailure {
  int exit_code = 0;    // 127: program not found / not executable; 1: anything else
  std::string message;  // one line
};

// Resolves the program on PATH, checks the report and log patterns (with this process's pid
// standing in for the program's), finds the injection library and CUPTI, creates the
// manifest and builds the program's environment. Returns false and fills `failure` when the
// program must not start.
// `profile`: what `gpuscope profile` asks the injection to measure (none for `run`).
bool PrepareRun(const RunOptions& options, const std::string& working_directory,
                RunPreparation& preparation, PreparationFailure& failure,
                const contract::ProfileRequest& profile = {});

// The launcher's working directory, against which relative report patterns are made
// absolute; "." when it cannot be found.
std::string CurrentWorkingDirectory();

// The program's words joined by spaces, as nvprof shows a command line.
std::string CommandLineText(const std::vector<std::string>& words);

}  // namespace gpuscope::cli
