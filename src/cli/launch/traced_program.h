// The traced run that `gpuscope run` and `gpuscope profile` share: everything checked and
// prepared before the start (run_preparation.h), the program started with the contract
// environment and waited for, then the manifest of the reports its processes wrote. What
// each command prints around these steps, and how it reads the reports, stays its own.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "cli/launch/manifest_file.h"
#include "cli/launch/program_outcome.h"
#include "cli/launch/run_preparation.h"
#include "cli/options/run_options.h"
#include "contract/profile_request.h"
#include "util/status.h"

namespace gpuscope::cli {

class TracedProgram {
 public:
  // Prepares the run (PrepareRun) and starts the program. Returns false when the program did
  // not start: `failure` says why, and nothing is left behind (no manifest file).
  // `profile`: what `gpuscope profile` asks the injection to measure (none for `run`).
  bool Start(const RunOptions& options, const std::string& working_directory,
             PreparationFailure& failure, const contract::ProfileRequest& profile = {});

  // The program's pid, once Start succeeded.
  pid_t pid() const { return pid_; }
  // Problems that did not stop the run, for the caller to print once its output is open.
  const std::vector<std::string>& warnings() const { return preparation_.warnings; }
  // The program's resolved path and the absolute report pattern, once Start succeeded.
  const std::string& executable() const { return preparation_.request.executable; }
  const std::string& report_pattern() const { return preparation_.report_pattern; }

  // Waits for the program to end (launcher.h: signals reach it meanwhile).
  ProgramOutcome Wait();

  // After Wait: reads and removes the manifest, the program's own report first. Each report
  // is finalised by whoever reads it (store::FinalizeReport), just before reading it, so that
  // a child process outliving the program has as long as possible to close its report.
  StatusOr<Manifest> TakeManifest();
  // After Wait, when this run's reports are not wanted (application replay's scratch runs):
  // removes the manifest unread.
  void DiscardManifest();

 private:
  RunPreparation preparation_;
  pid_t pid_ = -1;
};

}  // namespace gpuscope::cli
