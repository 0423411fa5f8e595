// Where gpuscope's own output goes during `gpuscope run`: stderr by default, or nvprof's
// --log-file: "%1" stdout, "%2" stderr, anything else a file-name pattern whose %p is the
// pid of the profiled program. Every line gpuscope writes about a process carries nvprof's
// "==PID== " prefix; tables from the analysis stage are written through stream() as is.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/output/output_file.h"
#include "util/path_pattern.h"
#include "util/status.h"

namespace gpuscope::cli {

struct LogTarget {
  enum class Kind { kStdout, kStderr, kFile } kind = Kind::kStderr;
  std::string path;  // kFile only
};

// Resolves a --log-file value; unset means stderr. `context` carries the program's pid.
StatusOr<LogTarget> ResolveLogTarget(const std::optional<std::string>& pattern,
                                     const PatternContext& context);

class LogOutput {
 public:
  // Opens the target. A file is an output like any other (cli/output/output_file.h): it is never
  // one of `inputs` (the program, its report) nor a gpuscope report, replaces an existing
  // file only with `force_overwrite`, and appears when the log is closed, whole.
  static StatusOr<std::unique_ptr<LogOutput>> Open(const LogTarget& target,
                                                   const std::vector<std::string>& inputs,
                                                   bool force_overwrite);
  // A log on stderr, for messages before the program's pid is known.
  static std::unique_ptr<LogOutput> Stderr();
  // Closes a log file if Close was not called; its error goes to stderr.
  ~LogOutput();

  std::ostream& stream() { return *stream_; }
  // "==<pid>== <text>\n", flushed so that it interleaves sensibly with the program's output.
  void Line(long pid, std::string_view text);
  // Puts a log file in place (nothing to do for stdout and stderr).
  Status Close();

 private:
  explicit LogOutput(std::ostream* stream) : stream_(stream) {}
  std::unique_ptr<OutputFile> file_;
  std::ostream* stream_;
};

}  // namespace gpuscope::cli
