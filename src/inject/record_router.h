// Where translated records go on the writer thread: straight to the sink for most kinds,
// through NVTX pairing for markers and through API nesting for API calls, with every loss
// counted on the way (GPU records without timestamps, record kinds we do not know,
// buffers CUPTI could not parse, CUPTI's own dropped count).
//
// Vendor-neutral: the CUPTI translator calls it, and so can tests.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "inject/api_nesting.h"
#include "inject/call_stacks.h"
#include "inject/nvtx_pairing.h"
#include "model/record_sink.h"
#include "model/capture_records.h"
#include "model/records.h"

namespace gpuscope::inject {

class RecordRouter {
 public:
  // `call_stacks` (`--backtrace`, may be null): each API call gets the id of the stack taken
  // in its enter callback; new stacks are written at each commit, the module map at the end.
  explicit RecordRouter(model::RecordSink& sink, ApiNestingLimits nesting_limits = {},
                        NvtxStartEndIds* nvtx_start_end_ids = nullptr,
                        CallStacks* call_stacks = nullptr);

  void OnProcess(const model::ProcessRecord& record) { sink_.OnProcess(record); }
  void OnTraceScope(const model::TraceScopeRecord& record) { sink_.OnTraceScope(record); }
  void OnDevice(const model::DeviceRecord& record) { sink_.OnDevice(record); }
  void OnContext(const model::ContextRecord& record) { sink_.OnContext(record); }
  void OnStream(const model::StreamRecord& record);
  void OnKernel(const model::KernelRecord& record);
  void OnMemcpy(const model::MemcpyRecord& record);
  void OnMemset(const model::MemsetRecord& record);
  void OnApiCall(const model::ApiCallRecord& record);
  // A call known to be the program's own (`--api-capture callback` records no driver call
  // made inside a runtime call): written as top-level, without the nesting's guesswork.
  void OnTopLevelApiCall(const model::ApiCallRecord& record);
  void OnApiCallCount(const model::ApiCallCountRecord& record);
  void OnGraphLaunch(const model::GraphLaunchRecord& record);
  void OnMemory(const model::MemoryRecord& record);
  void OnSync(const model::SyncRecord& record);
  void OnOverhead(const model::OverheadRecord& record);
  void OnNvtxMarker(const NvtxMarker& marker);
  void OnNvtxMarkerData(std::uint32_t id, std::uint32_t color, std::uint32_t category);
  // A record of a kind we do not translate.
  void OnUnknownRecord(std::uint32_t kind);
  // The rest of a buffer could not be walked (CUPTI refused a record): counted as one
  // unreadable buffer, since how many records followed cannot be known.
  void OnUnreadableRest(std::uint32_t cupti_status);
  // Translating a record failed (an exception): the rest of the buffer is skipped and
  // counted as one unreadable buffer.
  void OnTranslationFailed();

  // The buffer being translated is about to be released (string views die with it).
  void EndOfBuffer() { nvtx_.EndOfBatch(); }
  // CUPTI's dropped-record count so far (it is cumulative here; the collector adds up).
  void SetDroppedRecords(std::uint64_t total) { counters_.dropped_records = total; }
  // Writes the counters and makes everything durable.
  void Commit();
  // End of the session: writes held API records and open NVTX ranges, then Commit().
  void Finish();

  const model::CollectionCounters& counters() const { return counters_; }

 private:
  // The record with its stack id and without a profiled launch's replay time (the .cpp says).
  model::ApiCallRecord Completed(const model::ApiCallRecord& record);
  // A record of gpuscope's own replay of a launch (inject/own_replay_calls.h).
  void SkipOwnReplay() { ++counters_.own_replay_records; }
  void WriteNewStacks();
  void WriteModules();
  void SeeTimestamp(model::Timestamp t) {
    if (t > newest_timestamp_) newest_timestamp_ = t;
  }

  model::RecordSink& sink_;
  ApiNesting nesting_;
  NvtxPairing nvtx_;
  CallStacks* call_stacks_;
  std::set<std::pair<std::string, std::uint64_t>> modules_written_;  // (path, start)
  model::CollectionCounters counters_;
  model::Timestamp newest_timestamp_ = 0;
  std::uint64_t unknown_kinds_seen_ = 0;  // bit per kind < 64, for one debug line each
};

}  // namespace gpuscope::inject
