// A command run by the fuzz driver, bounded in time: in its own process group (so that a
// timeout also ends whatever it started), stdin from /dev/null, stdout to a file or to a pipe
// the driver reads, stderr to a file.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "store/testing/scratch_dir.h"

namespace gpuscope::fuzz {

// How a command ended.
struct Ended {
  int exit_code = -1;      // when it exited
  int signal = 0;          // N when a signal N ended it
  bool timed_out = false;  // killed (SIGKILL to its group) at the deadline
  std::string out, err;    // stdout (empty when it went to a pipe) and stderr
};

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts argv. An empty `stdout_path` sends stdout to a pipe (stdout_pipe()).
  ChildProcess(const std::vector<std::string>& argv, const std::string& stdout_path,
               const std::string& stderr_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  int stdout_pipe() const { return stdout_pipe_; }
  void Signal(int signal) const;
  // Waits until it ends or `deadline` passes (then kills its group); reads the output files.
  Ended Wait(Clock::time_point deadline);

 private:
  pid_t pid_ = -1;
  int stdout_pipe_ = -1;
  std::string stdout_path_, stderr_path_;
};

// Runs argv to the end or for at most `timeout`, output in files under `scratch_dir`.
Ended RunBounded(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                 const std::string& scratch_dir);

// A file's contents ("" when it cannot be read).
using ::gpuscope::store::testing::ReadWholeFile;

}  // namespace gpuscope::fuzz
