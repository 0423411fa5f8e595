// Every command that reads reports, as the fuzz driver runs it on a mutant: stats (summary,
// rules, every --report table in each format, both profile pages), export (chrome to stdout,
// csv), report (HTML), roofline (text, CSV), diff (the seed against the mutant, both ways).
// `gpuscope view` is probed separately (view_probe.h), because it serves rather than ends.
#pragma once

#include <string>
#include <vector>

#include "outcome.h"

namespace gpuscope::fuzz {

struct ReaderCommand {
  std::vector<std::string> args;  // after the gpuscope binary
  Expected expected;
};

// The commands for `mutant`; `seed` is the report it was made from (diff's other side);
// outputs go to files under `scratch_dir`, which the caller empties between runs.
std::vector<ReaderCommand> ReaderCommands(const std::string& mutant, const std::string& seed,
                                          const std::string& scratch_dir);

// The command line as a shell takes it (arguments quoted where needed), for the failure
// report's "run it again" line.
std::string ShellLine(const std::vector<std::string>& argv);

}  // namespace gpuscope::fuzz
