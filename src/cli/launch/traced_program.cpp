#include "cli/launch/traced_program.h"

#include <cstdint>
#include <cstdio>

#include "cli/launch/launcher.h"

namespace gpuscope::cli {

bool TracedProgram::Start(const RunOptions& options, const std::string& working_directory,
                          PreparationFailure& failure, const contract::ProfileRequest& profile) {
  preparation_ = RunPreparation();
  if (!PrepareRun(options, working_directory, preparation_, failure, profile)) {
    return false;
  }
  StartResult started = StartProgram(preparation_.request);
  if (!started.ok()) {
    DiscardManifest();
    failure = {started.failure_exit_code, started.failure};
    return false;
  }
  pid_ = started.pid;
  return true;
}

ProgramOutcome TracedProgram::Wait() { return WaitForProgram(pid_); }

StatusOr<Manifest> TracedProgram::TakeManifest() {
  return cli::TakeManifest(preparation_.manifest_path, static_cast<std::uint32_t>(pid_));
}

void TracedProgram::DiscardManifest() { std::remove(preparation_.manifest_path.c_str()); }

}  // namespace gpuscope::cli
