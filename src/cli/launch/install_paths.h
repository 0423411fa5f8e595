// Where the files `gpuscope run` hands to the traced program live: the injection library
// (next to the gpuscope binary, as installed or built: <bin>/../lib/) and CUPTI's directory
// (the toolkit gpuscope was built against). Both can be overridden through the environment
// for relocated installs: GPUSCOPE_INJECTION_LIBRARY and GPUSCOPE_CUPTI_DIR.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope::cli {

inline constexpr const char* kInjectionLibraryName = "libgpuscope_inject.so";
inline constexpr const char* kCuptiLibraryName = "libcupti.so.13";

// The directory of the running gpuscope binary (/proc/self/exe).
StatusOr<std::string> ExecutableDirectory();

// The absolute path of the injection library: `override_path` (the environment variable's
// value, nullptr when unset) or <executable_dir>/../lib/libgpuscope_inject.so. It must be
// a readable regular file: the CUDA driver silently ignores a CUDA_INJECTION64_PATH it
// cannot load, which would look like a program without CUDA activity.
StatusOr<std::string> FindInjectionLibrary(const char* override_path,
                                           std::string_view executable_dir);

// `override_dir` (GPUSCOPE_CUPTI_DIR, nullptr when unset) or the CUPTI directory of the
// toolkit gpuscope was built with.
std::string CuptiDirectory(const char* override_dir);

// Whether <cupti_dir>/libcupti.so.13 exists; without it NVTX forwarding and the injection
// library's own CUPTI dependency may fail in the traced program.
bool CuptiLibraryPresent(std::string_view cupti_dir);

// The Python start-up hook's directory next to the injection library
// (<lib>/gpuscope-python, holding sitecustomize.py), or empty where it is missing.
std::string PythonHookDirectory(std::string_view injection_library);

// Where this gpuscope looks for what `run` and `profile` need, and what it found there
// (`gpuscope --version` prints it): an install is relocatable because the injection library
// is looked for relative to the running binary, wherever the bin/ + lib/ tree was copied.
struct InstallLocations {
  std::string executable_dir;     // empty when /proc/self/exe could not be read
  std::string injection_library;  // the path looked at (override or <bin>/../lib/...)
  bool injection_from_environment = false;
  StatusOr<std::string> injection_found = Status::Error("not looked for");
  std::string cupti_dir;
  bool cupti_from_environment = false;
  bool cupti_present = false;
};
InstallLocations FindInstallLocations();

}  // namespace gpuscope::cli
