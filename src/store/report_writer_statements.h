// The report writer's prepared statements, shared by the files the writer is split into
// (report_writer.cpp: lifecycle and commits; report_writer_events.cpp: event rows;
// report_writer_records.cpp: process, devices, contexts, streams, profiled kernels, clock
// samples).
// Internal to the writer.
#pragma once

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "store/batched_insert.h"
#include "store/event_tables.h"
#include "store/report_writer.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

struct ReportWriter::Statements {
  Statement begin, commit, rollback;
  Statement insert_string, set_demangled, set_meta;
  Statement update_process, update_process_end;
  Statement insert_device, insert_context, insert_stream;
  Statement upsert_counter, upsert_row_order;
  Statement insert_profiled_kernel, insert_clock_sample;
  Statement upsert_api_call_count, insert_graph_launch;
  Statement insert_instruction_value, insert_kernel_source, insert_cubin;
  Statement insert_profiled_range;
  Statement insert_stack_frame, insert_module;
  Statement insert_gpu_metric, insert_gpu_metric_sample, upsert_gpu_metric_sampling;
  std::array<BatchedInsert, kNumEventTables> events;  // by kEventTableIndex
};

// Binds a stored time (ReportWriter::StoredTime): nullopt as NULL.
inline void BindNullableInt(sqlite3_stmt* stmt, int index, std::optional<std::int64_t> value) {
  if (value.has_value()) {
    sqlite3_bind_int64(stmt, index, *value);
  } else {
    sqlite3_bind_null(stmt, index);
  }
}

}  // namespace gpuscope::store
