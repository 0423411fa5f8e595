// The report's event tables: the ones with one row per recorded activity, insertion-ordered
// rowids and a start time. Writer and reader share this list for `row_order` bookkeeping.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace gpuscope::store {

enum class EventTable : std::size_t {
  kKernels,
  kMemcpys,
  kMemsets,
  kMemory,
  kSyncs,
  kApiCalls,
  kNvtx,
  kOverheads,
};
inline constexpr std::size_t kNumEventTables = 8;

struct EventTableInfo {
  std::string_view name;          // table name in schema.sql
  std::string_view start_column;  // the column rows are ordered by
};

inline constexpr std::array<EventTableInfo, kNumEventTables> kEventTables = {{
    {"kernels", "start"},
    {"memcpys", "start"},
    {"memsets", "start"},
    {"memory", "timestamp"},
    {"syncs", "start"},
    {"api_calls", "start"},
    {"nvtx", "start"},
    {"overheads", "start"},
}};

inline constexpr const EventTableInfo& Info(EventTable table) {
  return kEventTables[static_cast<std::size_t>(table)];
}

}  // namespace gpuscope::store
