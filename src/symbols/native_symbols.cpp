#include "symbols/native_symbols.h"

#include <elfutils/libdwfl.h>

#include <algorithm>
#include <memory>

#include "util/demangle.h"

namespace gpuscope::symbols {
namespace {

// Files are found by path (each module was reported with its file); separate debug files by
// .gnu_debuglink or build id in the standard places.
char* g_debuginfo_path = nullptr;
const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &g_debuginfo_path,
};

struct DwflCloser {
  void operator()(Dwfl* dwfl) const { dwfl_end(dwfl); }
};

int ModuleOf(std::span<const Module> modules, std::uint64_t address) {
  for (std::size_t i = 0; i < modules.size(); ++i) {
    if (address >= modules[i].start && address < modules[i].end) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::vector<Symbol> Symbolize(std::span<const Module> modules,
                              std::span<const std::uint64_t> addresses) {
  std::vector<Symbol> symbols(addresses.size());
  std::unique_ptr<Dwfl, DwflCloser> dwfl(dwfl_begin(&kCallbacks));
  std::vector<Dwfl_Module*> reported(modules.size(), nullptr);
  if (dwfl != nullptr) {
    dwfl_report_begin(dwfl.get());
    for (std::size_t i = 0; i < modules.size(); ++i) {
      // add_p_vaddr: `bias` is the load bias (dlpi_addr), not the first segment's address.
      reported[i] = dwfl_report_elf(dwfl.get(), modules[i].path.c_str(), modules[i].path.c_str(),
                                    -1, modules[i].bias, /*add_p_vaddr=*/true);
    }
    dwfl_report_end(dwfl.get(), nullptr, nullptr);
  }
  for (std::size_t a = 0; a < addresses.size(); ++a) {
    Symbol& symbol = symbols[a];
    const std::uint64_t call = addresses[a] > 0 ? addresses[a] - 1 : 0;
    symbol.module = ModuleOf(modules, call);
    if (symbol.module < 0 || reported[symbol.module] == nullptr) continue;
    Dwfl_Module* module = reported[symbol.module];
    if (const char* name = dwfl_module_addrname(module, call); name != nullptr) {
      symbol.function = Demangle(name);
    }
    if (Dwfl_Line* line = dwfl_module_getsrc(module, call); line != nullptr) {
      int number = 0;
      if (const char* file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr)) {
        symbol.file = file;
        symbol.line = number > 0 ? static_cast<std::uint32_t>(number) : 0;
      }
    }
  }
  return symbols;
}

}  // namespace gpuscope::symbols
