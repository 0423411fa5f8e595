// The gpuscope command. Everything but this file is in gpuscope_cli_core, so that tests
// link the same code.
#include <string>
#include <vector>

#include "cli/dispatcher.h"
#include "cli/output/standard_output.h"
#include "cli/output/terminal_output_filter.h"
#include "cli/reports/reading_environment.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  gpuscope::cli::ApplyReaderThreadsVariable();
  gpuscope::cli::StandardOutput output;
  int exit_code;
  {
    gpuscope::cli::TerminalOutputGuard terminal;
    exit_code = gpuscope::cli::Dispatch(args);
  }
  return output.End(exit_code);
}
