// The rows ReportReader streams for the event tables whose stored columns hold more than
// the model record: the interned name's id (and the kernel's demangled name), and the
// flag the writer received beside an API call.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"

namespace gpuscope::store {

// A kernel with its names resolved. demangled_name equals mangled_name when the name
// is not a C++ mangled name (or demangling failed).
struct KernelRow {
  model::KernelRecord record;  // record.mangled_name points into the reader's string table
  std::string_view demangled_name;
  std::uint32_t name_id = 0;  // stable within one report: equal ids, equal names
};

struct ApiCallRow {
  model::ApiCallRecord record;  // record.name points into the reader's string table
  bool nested_in_runtime = false;
  std::uint32_t name_id = 0;
};

// The model record inside a row (the row itself for tables whose row is the record).
inline model::KernelRecord& RecordOf(KernelRow& row) { return row.record; }
inline model::ApiCallRecord& RecordOf(ApiCallRow& row) { return row.record; }
template <typename Record>
Record& RecordOf(Record& row) {
  return row;
}

}  // namespace gpuscope::store
