// The gpuscope command. Everything but this file is in gpuscope_cli_core, so that tests
// link the same code.
#include <string>
#include <vector>

#include "cli/dispatcher.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return gpuscope::cli::Dispatch(args);
}
