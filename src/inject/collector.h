// The collector: CUPTI's buffers in, model records out, on one writer thread.
//
//   CUPTI thread ──OnBufferRequested──> BufferPool (bounded, O(1))
//   CUPTI thread ──OnBufferCompleted──> BufferQueue (O(1), only enqueues)
//   writer thread: queue -> BufferTranslator -> RecordRouter (NVTX pairing, API nesting,
//                  loss counters) -> RecordSink; commits at least every commit_interval
//                  and whenever a commit ticket is requested; releases each buffer to the
//                  pool when done with it.
//
// CUPTI-free: the translator is an interface (the CUPTI one lives in cupti), so the
// same production path runs in tests with real CUPTI record structs and no GPU.
//
// Lifetime: in the traced process the collector is never destroyed, because CUPTI may call
// the buffer callbacks until the very end of the process (after our atexit handler); after
// Finish() it keeps serving buffers and gives completed ones straight back, counted as late
// (buffers, bytes and records; the session prints the record count at the very end).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "inject/api_nesting.h"
#include "inject/background_thread.h"
#include "inject/buffer_pool.h"
#include "inject/buffer_queue.h"
#include "inject/config.h"
#include "inject/gpu_metric_batch.h"
#include "inject/late_records.h"
#include "inject/profiled_kernel.h"
#include "inject/record_router.h"
#include "model/record_sink.h"
#include "model/records.h"
#include "util/status.h"

namespace gpuscope::inject {

// Walks one completed buffer and hands each record, translated, to the router.
class BufferTranslator {
 public:
  virtual ~BufferTranslator() = default;
  virtual void Translate(std::uint8_t* buffer, std::size_t valid_bytes, RecordRouter& router) = 0;
  // A buffer of API calls gpuscope captured itself (captured_api_calls.h).
  virtual void TranslateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                                      RecordRouter& router) = 0;
  // What the records of a buffer that arrived after the report was closed are, counted into
  // `late` (gpuscope's own calls left out). Must not use the translator's state: it may run on
  // any thread, also while a writer that gave up is still translating.
  virtual void TallyLateRecords(std::uint8_t* buffer, std::size_t valid_bytes,
                                LateRecords& late) = 0;
  virtual void TallyLateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                                      LateRecords& late) = 0;
};

// The ProcessRecord with owned strings (the sink's views are only valid during a call).
struct ProcessDescription {
  std::uint32_t pid = 0;
  std::uint32_t parent_pid = 0;
  std::string hostname;
  std::string command_line;
  model::Timestamp start = 0;
  std::string boot_id;
  std::optional<std::int64_t> rank, local_rank, world_size;
  std::string rank_variable;
  // What is traced and how (util/trace_scope.h names); empty: not known.
  std::string trace, api_capture, cuda_graph_trace;
};

struct CollectorOptions {
  BufferPoolLimits pool;
  std::chrono::milliseconds commit_interval{kDefaultFlushMs};
  ApiNestingLimits nesting;
  // Ids of NVTX start/end ranges, registered by the tracing backend (may be null).
  NvtxStartEndIds* nvtx_start_end_ids = nullptr;
  // `--backtrace`: the call stacks the enter callbacks take (null: none).
  CallStacks* call_stacks = nullptr;
  // Starts the writer thread (a seam for tests).
  ThreadStarter start_thread = StartBackgroundThread;
};

struct CollectorStats {
  BufferPoolStats pool;
  std::uint64_t buffers_written = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t commits = 0;
  std::uint64_t late_buffers = 0;  // completed after Finish(): given back unread
  std::uint64_t late_bytes = 0;
  std::uint64_t late_records = 0;     // the program's records in the late buffers
  std::uint64_t foreign_buffers = 0;  // completed buffers that were not ours: ignored
};

class Collector {
 public:
  Collector(model::RecordSink& sink, std::unique_ptr<BufferTranslator> translator,
            CollectorOptions options);
  // Tests only: finishes (waiting as long as it takes) and joins the writer.
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  // Starts the writer thread; its first record is the process. When the thread cannot be
  // started the collector stays unstarted: Finish() and the destructor return at once.
  Status Start(const ProcessDescription& process);

  // CUPTI's buffer callbacks (CUpti_BuffersCallbackRequestFunc / CompleteFunc), any thread.
  void OnBufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
  void OnBufferCompleted(std::uint8_t* buffer, std::size_t valid_bytes);
  // A pool buffer (from OnBufferRequested) filled with captured API calls
  // (captured_api_calls.h) instead of CUPTI's records; any thread, O(1).
  void OnCapturedCallsCompleted(std::uint8_t* buffer, std::size_t valid_bytes);

  // Asks for everything completed so far to be written and committed; the ticket can be
  // waited for.
  std::uint64_t RequestCommit();
  bool WaitForCommit(std::uint64_t ticket, std::chrono::milliseconds timeout);

  // A kernel measured by replay (any thread); written by the writer thread before its next
  // commit, which this requests. After Finish() it is counted as lost, never dropped silently.
  void SubmitProfiledKernel(OwnedProfiledKernel kernel);
  std::uint64_t profiled_kernels_lost() const { return profiles_lost_.load(); }

  // Clock samples (any thread; the session takes them when tracing starts, at each flush and
  // at the end): written by the writer thread before its next commit. Samples that come after
  // Finish() or cannot be kept are counted, never dropped silently. Never throws.
  void SubmitClockSamples(std::vector<model::ClockSampleRecord> samples);
  std::uint64_t clock_samples_lost() const { return clock_samples_lost_.load(); }

  // GPU metrics of one device (any thread; the PM sampling thread): written by the writer thread
  // before its next commit. Samples that come after Finish() or cannot be kept are counted,
  // never dropped silently. Never throws.
  void SubmitGpuMetrics(GpuMetricBatch batch);
  std::uint64_t gpu_metric_samples_lost() const { return gpu_metric_samples_lost_.load(); }

  // Adds to CUPTI's dropped-record count (CUPTI resets its counter when read).
  void AddDroppedRecords(std::uint64_t count);

  // Writes everything queued, finishes NVTX pairing and API nesting, writes the final
  // counters, commits and stops the writer. Gives up (returns false, writer left running
  // detached) when the writer makes no progress for `stall_timeout`. Returns true at once
  // when no writer was ever started.
  bool Finish(std::chrono::milliseconds stall_timeout);
  bool finished() const { return finished_.load(std::memory_order_acquire); }

  CollectorStats stats() const;
  // What the late records were ("2 cuLibraryUnload, 1 kernel k(int)"); empty: none came.
  std::string LateRecordsDescription() const { return late_.Describe(); }
  const model::CollectionCounters& counters() const { return router_.counters(); }  // after Finish

 private:
  void WriterLoop(ProcessDescription process);
  void WriteBuffer(const CompletedBuffer& buffer);
  void SkipRestOfBuffer();
  void Commit(std::uint64_t ticket);
  void GiveBackLate(const CompletedBuffer& buffer);
  void Complete(CompletedBuffer buffer);
  void WritePendingProfiles();
  void WritePendingClockSamples();
  void WritePendingGpuMetrics();

  model::RecordSink& sink_;
  std::unique_ptr<BufferTranslator> translator_;
  const CollectorOptions options_;
  BufferPool pool_;
  BufferQueue queue_;
  RecordRouter router_;  // writer thread only
  std::thread writer_;
  std::mutex exit_mutex_;
  std::condition_variable exit_cv_;
  std::atomic<bool> start_attempted_{false};
  std::atomic<bool> started_{false};  // the writer thread exists
  std::atomic<bool> finished_{false};
  std::atomic<bool> writer_exited_{false};
  std::atomic<std::uint64_t> dropped_records_{0};
  std::atomic<std::uint64_t> buffers_written_{0};
  std::atomic<std::uint64_t> bytes_written_{0};
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<std::uint64_t> late_buffers_{0};
  std::atomic<std::uint64_t> late_bytes_{0};
  LateRecords late_;
  std::atomic<std::uint64_t> foreign_buffers_{0};
  std::atomic<bool> said_first_buffer_{false};
  std::atomic<bool> said_pool_exhausted_{false};
  std::mutex profiles_mutex_;  // guards the pending profiles and clock samples
  std::vector<OwnedProfiledKernel> pending_profiles_;
  std::vector<model::ClockSampleRecord> pending_clock_samples_;
  std::vector<GpuMetricBatch> pending_gpu_metrics_;
  bool profiles_closed_ = false;  // under profiles_mutex_: the writer wrote its last ones
  std::atomic<std::uint64_t> profiles_lost_{0};
  std::atomic<std::uint64_t> clock_samples_lost_{0};
  std::atomic<std::uint64_t> gpu_metric_samples_lost_{0};
  bool dirty_ = false;  // writer thread: records written since the last commit
};

}  // namespace gpuscope::inject
