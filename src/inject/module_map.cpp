#include "inject/module_map.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

namespace gpuscope::inject {
namespace {

std::string ProgramPath() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  return length > 0 ? std::string(path, static_cast<std::size_t>(length)) : std::string();
}

// The NT_GNU_BUILD_ID note of one PT_NOTE segment, as hex; empty when it holds none.
std::string BuildId(const dl_phdr_info& info, const ElfW(Phdr) & segment) {
  const auto* at = reinterpret_cast<const unsigned char*>(info.dlpi_addr + segment.p_vaddr);
  const unsigned char* end = at + segment.p_memsz;
  auto aligned = [](std::size_t size) { return (size + 3) & ~std::size_t{3}; };
  while (at + sizeof(ElfW(Nhdr)) <= end) {
    const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(at);
    const unsigned char* name = at + sizeof(ElfW(Nhdr));
    const unsigned char* desc = name + aligned(note->n_namesz);
    if (desc + note->n_descsz > end) break;
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
        std::equal(name, name + 4, reinterpret_cast<const unsigned char*>("GNU"))) {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string hex;
      for (std::size_t i = 0; i < note->n_descsz; ++i) {
        hex += kHex[desc[i] >> 4];
        hex += kHex[desc[i] & 15];
      }
      return hex;
    }
    at = desc + aligned(note->n_descsz);
  }
  return {};
}

int OnObject(dl_phdr_info* info, std::size_t /*size*/, void* argument) {
  auto* modules = static_cast<std::vector<LoadedModule>*>(argument);
  LoadedModule module;
  const bool program = info->dlpi_name == nullptr || info->dlpi_name[0] == '\0';
  module.path = program ? (modules->empty() ? ProgramPath() : std::string()) : info->dlpi_name;
  if (module.path.empty() || module.path.front() != '/') return 0;  // the vDSO, or unknown
  module.bias = info->dlpi_addr;
  module.start = UINT64_MAX;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type == PT_LOAD) {
      module.start = std::min<std::uint64_t>(module.start, info->dlpi_addr + segment.p_vaddr);
      module.end =
          std::max<std::uint64_t>(module.end, info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
    } else if (segment.p_type == PT_NOTE && module.build_id.empty()) {
      module.build_id = BuildId(*info, segment);
    }
  }
  if (module.start < module.end) modules->push_back(std::move(module));
  return 0;
}

}  // namespace

std::vector<LoadedModule> LoadedModules() {
  std::vector<LoadedModule> modules;
  dl_iterate_phdr(OnObject, &modules);
  return modules;
}

}  // namespace gpuscope::inject
