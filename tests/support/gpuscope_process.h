// Runs the real gpuscope binary (GPUSCOPE_BINARY_DIR/bin/gpuscope) as a user would: with
// stdin fed from a string, stdout and stderr captured separately, and the exit status.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace gpuscope::cli::testing {

std::string GpuscopeBinary();

struct Finished {
  int exit_code = -1;  // 128+N when killed by signal N, as a shell reports it
  int signal = 0;      // N when gpuscope itself was killed by signal N, else 0
  std::string out;     // stdout
  std::string err;     // stderr
};

class GpuscopeProcess {
 public:
  // Starts `gpuscope args...` in `working_directory` with this process's environment plus
  // `env` (an empty value removes the variable). With a `controlling_terminal` (a pty's
  // slave path) gpuscope starts a new session whose controlling terminal it is, so that the
  // terminal's Ctrl-C reaches gpuscope and the program as it would in a shell.
  GpuscopeProcess(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& env,
                  const std::string& working_directory = "",
                  const std::string& controlling_terminal = "");
  ~GpuscopeProcess();

  pid_t pid() const { return pid_; }
  // Writes `input` to its stdin, closes stdin, collects the output and waits.
  Finished Finish(const std::string& input = "");

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1, stdout_fd_ = -1, stderr_fd_ = -1;
};

// Start + Finish in one call.
Finished RunGpuscope(const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env = {},
                     const std::string& input = "", const std::string& working_directory = "");

}  // namespace gpuscope::cli::testing
