// Runs a command the way a user's shell would and captures everything it says: stdout,
// stderr and how it ended. The GPU tests use it to run `gpuscope run -- <example>` and
// `python3 script.py`; a command that hangs is killed (with its whole process group) after
// a time limit, so a stuck run fails its test instead of stalling the GPU suite.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpuscope::gpu_test {

struct CommandResult {
  bool started = false;    // fork/exec machinery worked (exec failure shows as exit 127)
  bool timed_out = false;  // killed after the time limit
  bool signaled = false;   // ended by a signal (then `signal` is set, not `exit_code`)
  int signal = 0;
  int exit_code = -1;
  std::string out;           // everything written to stdout
  std::string err;           // everything written to stderr
  std::string command_line;  // for failure messages
  // Peak resident set size of the command's process tree (wait4's rusage: the largest peak
  // of the command and every descendant it waited for), KiB.
  long max_rss_kib = 0;

  // "exit code 3", "signal 9", "timed out": how it ended, in words, for test messages.
  std::string Ending() const;
  // The command, how it ended and the tail of its stderr: what a failing test should print.
  std::string Describe() const;
};

using Environment = std::vector<std::pair<std::string, std::string>>;

// Runs argv[0] (searched in PATH when it has no slash) with the current environment plus
// `extra_environment` (which overrides), stdin from /dev/null.
CommandResult RunCommand(const std::vector<std::string>& argv,
                         const Environment& extra_environment = {}, int timeout_seconds = 180);

}  // namespace gpuscope::gpu_test
