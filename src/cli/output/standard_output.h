// gpuscope's standard output: what a command prints there either arrives or the command
// fails. stdio forgets why a write failed and a command's exit code forgot that it failed:
// `gpuscope stats a.sqlite > /dev/full` printed nothing and exited 0. While installed,
// std::cout writes to descriptor 1 through a DescriptorStreambuf (line by line on a
// terminal, as stdio does; std::cerr stays tied to it, so a warning still follows the table
// it is about), which keeps the first error.
#pragma once

#include <streambuf>

#include "cli/output/descriptor_streambuf.h"

namespace gpuscope::cli {

class StandardOutput {
 public:
  StandardOutput();
  ~StandardOutput();
  StandardOutput(const StandardOutput&) = delete;
  StandardOutput& operator=(const StandardOutput&) = delete;

  // Flushes what is left and returns `exit_code`, or 1 after one error line when something
  // printed was lost and the command had succeeded; a failure's own code passes through.
  int End(int exit_code);

 private:
  DescriptorStreambuf buffer_;
  std::streambuf* original_;
};

}  // namespace gpuscope::cli
