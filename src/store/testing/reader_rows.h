// Reader rows (what store::ReportReader hands the analyses) built directly, for tests of
// the analyses that need no report file: only the fields a test cares about are set.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"
#include "store/report_reader.h"

namespace gpuscope::store::testing {

inline KernelRow Kernel(std::uint32_t name_id, std::string_view demangled, std::uint64_t start,
                        std::uint64_t end, std::string_view mangled = "") {
  KernelRow row;
  row.record.start = start;
  row.record.end = end;
  row.record.mangled_name = mangled.empty() ? demangled : mangled;
  row.demangled_name = demangled;
  row.name_id = name_id;
  return row;
}

inline model::MemcpyRecord Memcpy(model::CopyKind kind, std::uint64_t start, std::uint64_t end,
                                  std::uint64_t bytes = 0) {
  model::MemcpyRecord record;
  record.copy_kind = kind;
  record.start = start;
  record.end = end;
  record.bytes = bytes;
  return record;
}

inline model::MemsetRecord Memset(std::uint64_t start, std::uint64_t end, std::uint64_t bytes = 0) {
  model::MemsetRecord record;
  record.start = start;
  record.end = end;
  record.bytes = bytes;
  return record;
}

inline ApiCallRow Api(std::uint32_t name_id, std::string_view name, std::uint64_t start,
                      std::uint64_t end, model::ApiDomain domain = model::ApiDomain::kRuntime,
                      bool nested_in_runtime = false) {
  ApiCallRow row;
  row.record.domain = domain;
  row.record.name = name;
  row.record.start = start;
  row.record.end = end;
  row.nested_in_runtime = nested_in_runtime;
  row.name_id = name_id;
  return row;
}

inline ApiCallRow Driver(std::uint32_t name_id, std::string_view name, std::uint64_t start,
                         std::uint64_t end, bool nested = false) {
  return Api(name_id, name, start, end, model::ApiDomain::kDriver, nested);
}

}  // namespace gpuscope::store::testing
