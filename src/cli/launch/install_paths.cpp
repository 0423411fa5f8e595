#include "cli/launch/install_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "cli/output/output_path_checks.h"
#include "contract/environment_variables.h"

#ifndef GPUSCOPE_CUPTI_LIBRARY_DIR
#error "GPUSCOPE_CUPTI_LIBRARY_DIR must be defined by the build (src/cli/CMakeLists.txt)"
#endif

namespace gpuscope::cli {

StatusOr<std::string> ExecutableDirectory() {
  char buffer[PATH_MAX] = {};
  ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (length <= 0) {
    return Status::Error(std::string("cannot find the gpuscope binary (/proc/self/exe): ") +
                         std::strerror(errno));
  }
  return DirectoryOf(std::string_view(buffer, static_cast<std::size_t>(length)));
}

StatusOr<std::string> FindInjectionLibrary(const char* override_path,
                                           std::string_view executable_dir) {
  std::string candidate = override_path != nullptr && *override_path != '\0'
                              ? std::string(override_path)
                              : std::string(executable_dir) + "/../lib/" + kInjectionLibraryName;
  std::string origin =
      override_path != nullptr && *override_path != '\0'
          ? std::string(" (from ") + contract::kInjectionLibraryVariable + ")"
          : std::string(" (set ") + contract::kInjectionLibraryVariable + " to its location)";
  char resolved[PATH_MAX] = {};
  struct stat info {};
  if (realpath(candidate.c_str(), resolved) == nullptr || stat(resolved, &info) != 0 ||
      !S_ISREG(info.st_mode)) {
    return Status::Error("the injection library " + candidate + " was not found" + origin);
  }
  if (access(resolved, R_OK) != 0) {
    return Status::Error("the injection library " + std::string(resolved) + " is not readable" +
                         origin);
  }
  return std::string(resolved);
}

std::string PythonHookDirectory(std::string_view injection_library) {
  std::string directory = DirectoryOf(injection_library) + "/" +
                          contract::kPythonHookDirectoryName;
  struct stat info {};
  if (stat((directory + "/sitecustomize.py").c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return {};
  }
  return directory;
}

std::string CuptiDirectory(const char* override_dir) {
  if (override_dir != nullptr && *override_dir != '\0') return override_dir;
  return GPUSCOPE_CUPTI_LIBRARY_DIR;
}

InstallLocations FindInstallLocations() {
  InstallLocations found;
  const char* library = std::getenv(contract::kInjectionLibraryVariable);
  const char* cupti = std::getenv(contract::kCuptiDirVariable);
  found.injection_from_environment = library != nullptr && *library != '\0';
  found.cupti_from_environment = cupti != nullptr && *cupti != '\0';
  StatusOr<std::string> executable_dir = ExecutableDirectory();
  if (executable_dir.ok()) found.executable_dir = executable_dir.value();
  found.injection_library = found.injection_from_environment
                                ? std::string(library)
                                : found.executable_dir + "/../lib/" + kInjectionLibraryName;
  found.injection_found = executable_dir.ok() || found.injection_from_environment
                              ? FindInjectionLibrary(library, found.executable_dir)
                              : StatusOr<std::string>(executable_dir.status());
  found.cupti_dir = CuptiDirectory(cupti);
  found.cupti_present = CuptiLibraryPresent(found.cupti_dir);
  return found;
}

bool CuptiLibraryPresent(std::string_view cupti_dir) {
  std::string path = std::string(cupti_dir) + "/" + kCuptiLibraryName;
  return access(path.c_str(), R_OK) == 0;
}

}  // namespace gpuscope::cli
