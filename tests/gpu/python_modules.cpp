#include "python_modules.h"

#include <cstdlib>

#include "command_runner.h"

namespace gpuscope::gpu_test {

std::string ImportProblem(const char* import_code) {
  CommandResult result = RunCommand({PythonInterpreter(), "-c", import_code}, {}, 120);
  if (result.started && !result.timed_out && !result.signaled && result.exit_code == 0) return "";
  std::string why = result.err.empty() ? result.Ending() : result.err;
  if (why.size() > 400) why = "..." + why.substr(why.size() - 400);
  return why;
}

bool MissingPythonModulesAllowed() {
  const char* allowed = std::getenv("GPUSCOPE_ALLOW_MISSING_PYTHON");
  return allowed != nullptr && std::string(allowed) == "1";
}

}  // namespace gpuscope::gpu_test
