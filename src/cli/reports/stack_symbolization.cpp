#include "cli/reports/stack_symbolization.h"

#include <vector>

#include "store/report_reader.h"
#include "store/stack_tables.h"
#include "symbols/native_symbols.h"

namespace gpuscope::cli {

Status SymbolizeStacks(const std::string& report_path) {
  StatusOr<store::UnsymbolizedFrames> frames = [&]() -> StatusOr<store::UnsymbolizedFrames> {
    StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(report_path);
    if (!report.ok()) return report.status();
    return store::ReadUnsymbolizedFrames(**report);
  }();  // the reader is closed before the report is written
  if (!frames.ok()) return frames.status();
  if (frames->addresses.empty()) return Status();
  std::vector<symbols::Module> modules;
  for (const store::StoredModule& module : frames->modules) {
    modules.push_back({module.path, module.start, module.end, module.bias});
  }
  std::vector<symbols::Symbol> found = symbols::Symbolize(modules, frames->addresses);
  std::vector<store::FrameSymbol> stored;
  stored.reserve(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    store::FrameSymbol symbol;
    symbol.address = frames->addresses[i];
    if (found[i].module >= 0) symbol.module_id = frames->modules[found[i].module].id;
    symbol.function = std::move(found[i].function);
    symbol.file = std::move(found[i].file);
    symbol.line = found[i].line;
    stored.push_back(std::move(symbol));
  }
  return store::WriteFrameSymbols(report_path, stored);
}

}  // namespace gpuscope::cli
