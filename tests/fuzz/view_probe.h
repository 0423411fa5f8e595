// `gpuscope view` on a mutant: started on a free port with the mutant and its seed, asked every
// /api endpoint over HTTP (viewer_questions.h), then stopped with Ctrl-C (SIGINT). Each answer must come within the timeout and be JSON; the server must stop
// on Ctrl-C with exit 0. A view that ends before serving is judged like any other command.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "outcome.h"

namespace gpuscope::fuzz {

struct ViewProbeResult {
  std::vector<std::string> requests;  // what was asked, in order
  std::vector<std::string> args;      // the view command line (after the binary)
  Outcome outcome;                    // kOutput when it served every request well
};

ViewProbeResult ProbeView(const std::string& gpuscope, const std::string& mutant,
                          const std::string& seed, const std::string& scratch_dir,
                          std::chrono::milliseconds timeout);

}  // namespace gpuscope::fuzz
