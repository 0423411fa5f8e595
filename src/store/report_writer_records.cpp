// The writer's rows that are not events: the process, devices, contexts, streams (one
// statement each, rarely run) and profiled kernels (with their compressed counter data).
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "store/counter_data_codec.h"
#include "store/event_row_encoder.h"
#include "store/record_binder.h"
#include "store/report_writer.h"
#include "store/report_writer_statements.h"
#include "store/profile_table_defs.h"
#include "store/run_table_defs.h"
#include "store/source_table_defs.h"
#include "store/stack_table_defs.h"

namespace gpuscope::store {

namespace {

void Bind(sqlite3_stmt* stmt, int index, std::string_view text) { BindText(stmt, index, text); }
void Bind(sqlite3_stmt* stmt, int index, std::optional<std::int64_t> time) {
  BindNullableInt(stmt, index, time);
}
template <typename T>
requires std::is_integral_v<T> || std::is_enum_v<T>
void Bind(sqlite3_stmt* stmt, int index, T value) {
  sqlite3_bind_int64(stmt, index, StoredInteger(value));
}

// Binds the values to ?1, ?2, ... in order (the order of the statement's column list).
template <typename... Values>
void BindAll(sqlite3_stmt* stmt, const Values&... values) {
  int index = 0;
  (Bind(stmt, ++index, values), ...);
}

}  // namespace

void ReportWriter::OnProcess(const model::ProcessRecord& r) {
  if (!Accepting(kLossProcess)) return;
  sqlite3_stmt* s = stmts_->update_process.get();
  BindRecord(s, r, kProcessRecordColumns, {}, StoredTimes());
  tracing_start_ = r.start;
  StepRecord(s, "cannot write the process row", kLossProcess);
}

// What was traced, so that readers can tell "not traced" from "none" (util/trace_scope.h).
void ReportWriter::OnTraceScope(const model::TraceScopeRecord& r) {
  if (!Accepting(kLossProcess)) return;
  SetMeta("trace", r.trace);
  SetMeta("api_capture", r.api_capture);
  SetMeta("cuda_graph_trace", r.cuda_graph_trace);
}

void ReportWriter::OnApiCallCount(const model::ApiCallCountRecord& r) {
  if (!Accepting(kLossApiCallCounts)) return;
  if (r.calls == 0) return;
  const auto names = InternRecordNames(r, kApiCallCountsRecordColumns, NameInterning());
  sqlite3_stmt* s = stmts_->upsert_api_call_count.get();
  BindRecord(s, r, kApiCallCountsRecordColumns, names, StoredTimes());
  StepRecord(s, "cannot write an API call count", kLossApiCallCounts);
}

void ReportWriter::OnGraphLaunch(const model::GraphLaunchRecord& r) {
  if (!Accepting(kLossGraphLaunches)) return;
  sqlite3_stmt* s = stmts_->insert_graph_launch.get();
  BindRecord(s, r, kGraphLaunchesRecordColumns, {}, StoredTimes());
  StepRecord(s, "cannot write a graph launch", kLossGraphLaunches);
}

void ReportWriter::OnClockSample(const model::ClockSampleRecord& r) {
  if (!Accepting(kLossClockSamples)) return;
  // A sample without CUPTI's time says nothing (and its NOT NULL column would stop the writer).
  if (r.cupti_ns == 0) return Lost(kLossClockSamples);
  sqlite3_stmt* s = stmts_->insert_clock_sample.get();
  BindRecord(s, r, kClockSamplesRecordColumns, {}, StoredTimes());
  StepRecord(s, "cannot write a clock sample", kLossClockSamples);
}

void ReportWriter::OnDevice(const model::DeviceRecord& r) {
  if (!Accepting(kLossDevices)) return;
  sqlite3_stmt* s = stmts_->insert_device.get();
  BindRecord(s, r, kDevicesRecordColumns);
  StepRecord(s, "cannot write a device row", kLossDevices);
}

void ReportWriter::OnContext(const model::ContextRecord& r) {
  if (!Accepting(kLossContexts)) return;
  sqlite3_stmt* s = stmts_->insert_context.get();
  BindRecord(s, r, kContextsRecordColumns);
  StepRecord(s, "cannot write a context row", kLossContexts);
}

void ReportWriter::OnStream(const model::StreamRecord& r) {
  if (!Accepting(kLossStreams)) return;
  sqlite3_stmt* s = stmts_->insert_stream.get();
  BindRecord(s, r, kStreamsRecordColumns);
  StepRecord(s, "cannot write a stream row", kLossStreams);
}

void ReportWriter::OnProfiledKernel(const model::ProfiledKernelRecord& r) {
  if (!Accepting(kLossProfiledKernels)) return;
  const auto names = InternRecordNames(r, kProfiledKernelsRecordColumns, NameInterning());
  if (!status_.ok() || out_of_memory_) return Lost(kLossProfiledKernels);
  std::vector<std::uint8_t> compressed;
  if (!r.counter_data.empty()) {
    // One kernel's data that cannot be compressed costs that kernel, not the report.
    StatusOr<std::vector<std::uint8_t>> packed = CompressCounterData(r.counter_data);
    if (!packed.ok()) return Lost(kLossProfiledKernels);
    compressed = std::move(*packed);
  }
  sqlite3_stmt* s = stmts_->insert_profiled_kernel.get();
  BindRecord(s, r, kProfiledKernelsRecordColumns, names, StoredTimes());
  constexpr int kCounterData = ColumnIndex(kProfiledKernelsColumns, "counter_data") + 1;
  if (r.counter_data.empty()) {
    sqlite3_bind_null(s, kCounterData);
  } else {
    sqlite3_bind_blob64(s, kCounterData, compressed.data(), compressed.size(), SQLITE_STATIC);
  }
  StepRecord(s, "cannot write a profiled kernel row", kLossProfiledKernels);
  if (model::IsRangeResult(r.replay_mode) && status_.ok()) {
    sqlite3_stmt* range = stmts_->insert_profiled_range.get();
    BindRecord(range, r, kProfiledRangesRecordColumns);
    sqlite3_bind_int64(range, ColumnIndex(kProfiledRangesColumns, "profiled_kernel_id") + 1,
                       sqlite3_last_insert_rowid(db_));
    StepRecord(range, "cannot write a profiled_ranges row", kLossProfiledKernels);
  }
  if (r.source.requested && status_.ok()) WriteSourceCounters(sqlite3_last_insert_rowid(db_), r);
}

// The launch's source counters, after its profiled_kernels row (`id`). A cubin that cannot be
// compressed is left out (its instructions then read as SASS offsets only), never the row.
void ReportWriter::WriteSourceCounters(std::int64_t id, const model::ProfiledKernelRecord& r) {
  sqlite3_stmt* source = stmts_->insert_kernel_source.get();
  BindRecord(source, r.source, kKernelSourceRecordColumns);
  sqlite3_bind_int64(source, ColumnIndex(kKernelSourceColumns, "profiled_kernel_id") + 1, id);
  StepRecord(source, "cannot write a kernel_source row", kLossProfiledKernels);
  sqlite3_stmt* value = stmts_->insert_instruction_value.get();
  sqlite3_bind_int64(value, ColumnIndex(kInstructionValuesColumns, "profiled_kernel_id") + 1, id);
  for (const model::InstructionValue& v : r.instruction_values) {
    const auto names = InternRecordNames(v, kInstructionValuesRecordColumns, NameInterning());
    if (!status_.ok() || out_of_memory_) return Lost(kLossProfiledKernels);
    BindRecord(value, v, kInstructionValuesRecordColumns, names, StoredTimes());
    StepRecord(value, "cannot write an instruction_values row", kLossProfiledKernels);
  }
  sqlite3_stmt* cubin = stmts_->insert_cubin.get();
  for (const model::CubinImage& c : r.cubins) {
    StatusOr<std::vector<std::uint8_t>> packed = CompressCounterData(c.image);
    if (!packed.ok()) continue;
    BindRecord(cubin, c, kCubinsRecordColumns);
    sqlite3_bind_blob64(cubin, ColumnIndex(kCubinsColumns, "image") + 1, packed->data(),
                        packed->size(), SQLITE_STATIC);
    StepRecord(cubin, "cannot write a cubins row", kLossProfiledKernels);
  }
}

void ReportWriter::OnCounters(const model::CollectionCounters& counters) {
  // Kept until the next flush: only the latest totals matter.
  counters_ = counters;
}

// A Python frame's names are interned (they repeat across stacks); a native frame has only its
// address until the CLI symbolises it (store/stack_tables.h).
void ReportWriter::OnStack(const model::StackRecord& r) {
  constexpr int kStackId = ColumnIndex(kStackFramesColumns, "stack_id") + 1;
  constexpr int kDepth = ColumnIndex(kStackFramesColumns, "depth") + 1;
  auto intern = NameInterning();
  for (std::size_t depth = 0; depth < r.frame_count; ++depth) {
    if (!Accepting(kLossStackFrames)) return;
    const model::StackFrame& frame = r.frames[depth];
    const bool python = frame.kind == model::FrameKind::kPython;
    const auto names = InternRecordNames(
        frame, kStackFramesRecordColumns,
        [&](Kept kept, std::string_view text) { return python ? intern(kept, text) : 0; });
    sqlite3_stmt* s = stmts_->insert_stack_frame.get();
    sqlite3_bind_int64(s, kStackId, r.id);
    sqlite3_bind_int64(s, kDepth, static_cast<std::int64_t>(depth));
    BindRecord(s, frame, kStackFramesRecordColumns, names, StoredTimes());
    StepRecord(s, "cannot write a stack frame", kLossStackFrames);
  }
}

void ReportWriter::OnModule(const model::ModuleRecord& r) {
  if (!Accepting(kLossModules)) return;
  sqlite3_stmt* s = stmts_->insert_module.get();
  BindRecord(s, r, kModulesRecordColumns);
  StepRecord(s, "cannot write a module", kLossModules);
}

}  // namespace gpuscope::store
