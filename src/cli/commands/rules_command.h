// `gpuscope rules --list [--csv]`: the guided-analysis rules `gpuscope profile` runs on every
// measured kernel (src/analysis/rules), with what each checks and how it estimates a speedup.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

int RulesCommand(std::span<const std::string> args);
std::string RulesUsage();

}  // namespace gpuscope::cli
