#include "cli/output/standard_output.h"

#include <unistd.h>

#include <cstring>
#include <iostream>
#include <string>

#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"

namespace gpuscope::cli {

StandardOutput::StandardOutput() : original_(std::cout.rdbuf()) {
  buffer_.Reset(STDOUT_FILENO, /*owned=*/false,
                isatty(STDOUT_FILENO) ? DescriptorStreambuf::Flush::kEachLine
                                      : DescriptorStreambuf::Flush::kWhenFull);
  std::cout.rdbuf(&buffer_);
}

StandardOutput::~StandardOutput() {
  std::cout.flush();
  std::cout.rdbuf(original_);
}

int StandardOutput::End(int exit_code) {
  std::cout.flush();
  if (buffer_.Close()) return exit_code;
  CommandError(std::string("cannot write standard output: ") + std::strerror(buffer_.error()));
  return exit_code == kExitOk ? kExitGpuscopeFailure : exit_code;
}

}  // namespace gpuscope::cli
