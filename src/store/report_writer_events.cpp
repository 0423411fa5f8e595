// The writer's per-record hot path: event rows (kernels, copies, API calls, ...) go into
// each table's BatchedInsert, their values derived from the table's declaration.
#include <cstdint>
#include <string_view>

#include "store/event_row_encoder.h"
#include "store/report_writer.h"
#include "store/report_writer_statements.h"

namespace gpuscope::store {

template <typename Table>
void ReportWriter::InsertEvent(const typename Table::Record& record, bool flag) {
  constexpr std::size_t table = kEventTableIndex<Table>;
  if (!Accepting(table)) return;
  NameIds<Table> ids;  // only the name columns' entries are used (and set)
  InternNames<Table>(
      record,
      [this](Stored stored, std::string_view text) {
        return stored == Stored::kKernelName ? InternKernelName(text) : InternName(text);
      },
      ids);
  if (!status_.ok() || out_of_memory_) return Lost(table);
  BatchedInsert& batch = stmts_->events[table];
  batch.AddRow();
  EncodeRow<Table>(
      record, ids, flag, [this](model::Timestamp time) { return Relative(time); }, batch);
  ++records_in_transaction_[table];
  // After EncodeRow: the record's first time may just have become the time base.
  const model::Timestamp start = StartOf<Table>(record);
  order_[table].Add(start != 0, static_cast<std::int64_t>(start - time_base_));
  if (batch.full() && batch.Write() != SQLITE_OK) {
    Fail("cannot insert rows");
    return;
  }
  if (++event_rows_in_transaction_ >= transaction_row_budget_) Flush();
}

void ReportWriter::OnKernel(const model::KernelRecord& r) { InsertEvent<Kernels>(r); }
void ReportWriter::OnMemcpy(const model::MemcpyRecord& r) { InsertEvent<Memcpys>(r); }
void ReportWriter::OnMemset(const model::MemsetRecord& r) { InsertEvent<Memsets>(r); }
void ReportWriter::OnMemory(const model::MemoryRecord& r) { InsertEvent<Memory>(r); }
void ReportWriter::OnSync(const model::SyncRecord& r) { InsertEvent<Syncs>(r); }
void ReportWriter::OnNvtx(const model::NvtxRecord& r) { InsertEvent<Nvtx>(r); }
void ReportWriter::OnOverhead(const model::OverheadRecord& r) { InsertEvent<Overheads>(r); }
void ReportWriter::OnApiCall(const model::ApiCallRecord& r, bool nested_in_runtime) {
  InsertEvent<ApiCalls>(r, nested_in_runtime);
}

bool ReportWriter::WritePendingRows() {
  for (BatchedInsert& batch : stmts_->events) {
    if (batch.pending() > 0 && batch.Write() != SQLITE_OK) {
      Fail("cannot insert rows");
      return false;
    }
  }
  return true;
}

}  // namespace gpuscope::store
