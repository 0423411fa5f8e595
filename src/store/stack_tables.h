// The call stacks of `--backtrace` read back typed (stack_frames, modules, strings), and the
// native frames' symbols written back after the run. A report without stacks (older than
// schema version 4, or recorded without --backtrace) reads as none.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

struct StoredModule {
  std::int64_t id = 0;
  std::string path;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t bias = 0;
  std::string build_id;  // empty: none recorded
};

// One frame as the report holds it.
struct StoredFrame {
  model::FrameKind kind = model::FrameKind::kNative;
  std::uint64_t address = 0;  // native only
  std::string function;       // empty: not known (a native frame not symbolized)
  std::string file;           // empty: not known
  std::uint32_t line = 0;     // 0: not known
  std::string module;         // native: the object's path once symbolized; empty: not known
};

// stack id -> its frames, innermost first.
using StoredStacks = std::map<std::uint32_t, std::vector<StoredFrame>>;

StatusOr<StoredStacks> ReadStacks(const ReportReader& report);
// One stack's frames, innermost first; empty when the report has no such stack.
StatusOr<std::vector<StoredFrame>> ReadStack(const ReportReader& report, std::uint32_t stack_id);

// What symbolizing a report needs: its modules, and the distinct return addresses of native
// frames not symbolized yet (none once meta.stacks_symbolized is '1').
struct UnsymbolizedFrames {
  std::vector<StoredModule> modules;
  std::vector<std::uint64_t> addresses;  // sorted
};
StatusOr<UnsymbolizedFrames> ReadUnsymbolizedFrames(const ReportReader& report);

// The symbol found for one return address (function or module may be unknown).
struct FrameSymbol {
  std::uint64_t address = 0;
  std::optional<std::int64_t> module_id;
  std::string function;
  std::string file;
  std::uint32_t line = 0;
};

// Writes the symbols into every native frame with that address and sets
// meta.stacks_symbolized to '1', in one transaction (a failure leaves the report as it was).
// The report must be complete (finalised).
Status WriteFrameSymbols(const std::string& path, const std::vector<FrameSymbol>& symbols);

}  // namespace gpuscope::store
