#include "cupti/tracing/nvtx_injection.h"

#include <cupti.h>
#include <dlfcn.h>

#include <string>

#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

using NvtxEntry = int (*)(const void*);

// The entry point of the loaded libcupti that defines cuptiGetVersion: the one the dynamic
// linker bound gpuscope to (by soname, so the program's own copy when it loaded one first).
// Looked up in that object alone: a global lookup would find gpuscope's own forwarder.
NvtxEntry CuptiNvtxEntry(std::string& path, std::string& why) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) == 0 || info.dli_fname == nullptr) {
    why = "the loaded libcupti could not be found";
    return nullptr;
  }
  path = info.dli_fname;
  void* cupti = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (cupti == nullptr) {
    why = std::string(info.dli_fname) + " is not loaded by that name";
    return nullptr;
  }
  void* entry = dlsym(cupti, "InitializeInjectionNvtx2");
  dlclose(cupti);  // RTLD_NOLOAD took a reference; gpuscope's own link keeps it loaded
  if (entry == nullptr) why = std::string(info.dli_fname) + " has no InitializeInjectionNvtx2";
  return reinterpret_cast<NvtxEntry>(entry);
}

}  // namespace

int ForwardNvtxInjection(const void* get_export_table) {
  try {
    std::string path, why;
    NvtxEntry entry = CuptiNvtxEntry(path, why);
    if (entry == nullptr) {
      inject::LogError("NVTX ranges are not recorded: " + why);
      return 0;
    }
    inject::LogDebug("NVTX goes to " + path);
    return entry(get_export_table);
  } catch (...) {
    return 0;
  }
}

}  // namespace gpuscope::cupti
