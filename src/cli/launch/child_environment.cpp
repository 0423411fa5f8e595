#include "cli/launch/child_environment.h"

#include <unistd.h>  // environ

#include <string_view>
#include <utility>

#include "cli/launch/install_paths.h"
#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

std::string_view NameOf(std::string_view entry) { return entry.substr(0, entry.find('=')); }

// Whether `name` is set in `entries`, to any value (empty included: the user chose it).
bool HasVariable(const std::vector<std::string>& entries, std::string_view name) {
  for (const std::string& entry : entries) {
    if (NameOf(entry) == name) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> BuildChildEnvironment(const std::vector<std::string>& current,
                                               const ChildEnvironmentSettings& settings) {
  using namespace contract;  // the variable names
  std::string library_path = settings.cupti_dir;
  VariableValues ours = {
      {kCudaInjectionVariable, settings.injection_library},
      {kNvtxInjectionVariable, settings.injection_library},
  };
  for (const VariableValues& request :
       {settings.tracing.ToEnvironment(), settings.gpu_metrics.ToEnvironment(),
        settings.profile.ToEnvironment()}) {
    ours.insert(ours.end(), request.begin(), request.end());
  }

  const bool python_hook = settings.jit_line_info && !settings.python_hook_dir.empty();
  std::string python_path = settings.python_hook_dir;

  std::vector<std::string> environment;
  for (const std::string& entry : current) {
    std::string_view name = NameOf(entry);
    // A search path of ours goes first; the user's entries stay, after it.
    std::string* ours_first = name == kLibraryPathVariable                 ? &library_path
                              : python_hook && name == kPythonPathVariable ? &python_path
                                                                           : nullptr;
    if (ours_first != nullptr) {
      std::string_view old_value = std::string_view(entry).substr(name.size() + 1);
      if (!old_value.empty()) ours_first->append(":").append(old_value);
      continue;
    }
    if (name == kRootPidVariable) continue;
    bool replaced = false;
    for (const auto& [our_name, value] : ours) replaced = replaced || name == our_name;
    if (!replaced) environment.push_back(entry);
  }
  for (const auto& [name, value] : ours) environment.push_back(name + "=" + value);
  environment.push_back(std::string(kLibraryPathVariable) + "=" + library_path);
  if (python_hook) environment.push_back(std::string(kPythonPathVariable) + "=" + python_path);
  if (settings.jit_line_info) {
    for (const DefaultValue& line_info : kLineInfoDefaults) {
      if (!HasVariable(current, line_info.name)) {
        environment.push_back(std::string(line_info.name) + "=" + line_info.value);
      }
    }
  }
  return environment;
}

std::vector<std::string> CurrentEnvironment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  return entries;
}

}  // namespace gpuscope::cli
