#include "cli/reports/reading_environment.h"

#include <cstdlib>

#include "contract/environment_variables.h"
#include "store/reader_threads.h"

namespace gpuscope::cli {
namespace {

std::string ValueOf(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

void ApplyReaderThreadsVariable() {
  if (const char* threads = std::getenv(contract::kReaderThreadsVariable); threads != nullptr) {
    store::SetReaderThreads(static_cast<unsigned>(std::strtoul(threads, nullptr, 10)));
  }
}

evaluate::NvdisasmSearch NvdisasmSearchFromEnvironment() {
  return {.chosen = ValueOf(contract::kNvdisasmVariable),
          .path = ValueOf("PATH"),
          .cuda_home = ValueOf("CUDA_HOME")};
}

}  // namespace gpuscope::cli
