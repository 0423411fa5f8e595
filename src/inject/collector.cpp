#include "inject/collector.h"

#include <exception>
#include <string>

#include "inject/background_thread.h"
#include "inject/captured_api_calls.h"
#include "inject/log.h"

namespace gpuscope::inject {

Collector::Collector(model::RecordSink& sink, std::unique_ptr<BufferTranslator> translator,
                     CollectorOptions options)
    : sink_(sink),
      translator_(std::move(translator)),
      options_(options),
      pool_(options.pool),
      queue_(options.pool.hard_limit),
      router_(sink, options.nesting, options.nvtx_start_end_ids, options.call_stacks) {}

Collector::~Collector() {
  Finish(std::chrono::hours(1));
  if (writer_.joinable()) writer_.join();
}

Status Collector::Start(const ProcessDescription& process) {
  if (start_attempted_.exchange(true)) return Status::Error("the collector was started twice");
  Status started = options_.start_thread(
      "gpuscope-writer", [this, process] { WriterLoop(process); }, writer_);
  // Only a writer that exists may be waited for (Finish) or joined.
  if (started.ok() && writer_.joinable()) started_.store(true, std::memory_order_release);
  return started;
}

void Collector::OnBufferRequested(std::uint8_t** buffer, std::size_t* size,
                                  std::size_t* max_records) {
  *buffer = pool_.Acquire();
  *size = *buffer != nullptr ? pool_.buffer_bytes() : 0;
  *max_records = 0;  // as many as fit
  // Rare events, logged once each (this runs on the program's threads).
  if (*buffer == nullptr) {
    if (!said_pool_exhausted_.exchange(true)) {
      LogError("all " + std::to_string(options_.pool.hard_limit) +
               " activity buffers are in use; CUPTI drops records until one comes back (the "
               "count is in the report)");
    }
  } else if (!said_first_buffer_.exchange(true)) {
    LogDebug("first activity buffer handed to CUPTI (" +
             std::to_string(pool_.buffer_bytes() >> 10) + " KiB)");
  }
}

void Collector::GiveBackLate(const CompletedBuffer& buffer) {
  late_buffers_.fetch_add(1, std::memory_order_relaxed);
  late_bytes_.fetch_add(buffer.valid_bytes, std::memory_order_relaxed);
  // Walking the buffer is O(records), on CUPTI's thread: acceptable, this happens only
  // after the session ended, and what they were is what the user is told.
  try {
    if (buffer.captured_calls) {
      translator_->TallyLateCapturedCalls(buffer.data, buffer.valid_bytes, late_);
    } else {
      translator_->TallyLateRecords(buffer.data, buffer.valid_bytes, late_);
    }
  } catch (...) {
    late_.Add("unreadable buffer");
  }
  pool_.Release(buffer.data, buffer.valid_bytes);
}

void Collector::OnBufferCompleted(std::uint8_t* buffer, std::size_t valid_bytes) {
  Complete({buffer, valid_bytes, /*captured_calls=*/false});
}

void Collector::OnCapturedCallsCompleted(std::uint8_t* buffer, std::size_t valid_bytes) {
  Complete({buffer, valid_bytes, /*captured_calls=*/true});
}

void Collector::Complete(CompletedBuffer buffer) {
  if (buffer.data == nullptr) return;
  if (!pool_.MarkCompleted(buffer.data)) {
    // Not from our pool: another CUPTI client's buffer. Never touch it.
    foreign_buffers_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (buffer.valid_bytes == 0) {
    pool_.Release(buffer.data, 0);
    return;
  }
  if (!queue_.Push(buffer)) GiveBackLate(buffer);
}

std::uint64_t Collector::RequestCommit() { return queue_.RequestCommit(); }

bool Collector::WaitForCommit(std::uint64_t ticket, std::chrono::milliseconds timeout) {
  return queue_.WaitForCommit(ticket, BufferQueue::Clock::now() + timeout);
}

void Collector::SubmitProfiledKernel(OwnedProfiledKernel kernel) {
  {
    std::lock_guard<std::mutex> lock(profiles_mutex_);
    if (profiles_closed_ || !started_.load(std::memory_order_acquire)) {
      profiles_lost_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    pending_profiles_.push_back(std::move(kernel));
  }
  queue_.RequestCommit();  // wakes the writer: a profile is worth committing at once
}

void Collector::WritePendingProfiles() {
  std::vector<OwnedProfiledKernel> profiles;
  {
    std::lock_guard<std::mutex> lock(profiles_mutex_);
    profiles.swap(pending_profiles_);
  }
  for (OwnedProfiledKernel& profile : profiles) {
    try {
      sink_.OnProfiledKernel(profile.View());
      dirty_ = true;
    } catch (const std::exception& error) {
      profiles_lost_.fetch_add(1, std::memory_order_relaxed);
      LogError("writing the metrics of kernel \"" + profile.mangled_name +
               "\" failed: " + error.what());
    } catch (...) {
      profiles_lost_.fetch_add(1, std::memory_order_relaxed);
      LogError("writing the metrics of kernel \"" + profile.mangled_name + "\" failed");
    }
  }
}

void Collector::SubmitClockSamples(std::vector<model::ClockSampleRecord> samples) {
  std::lock_guard<std::mutex> lock(profiles_mutex_);
  if (profiles_closed_ || !started_.load(std::memory_order_acquire)) {
    clock_samples_lost_.fetch_add(samples.size(), std::memory_order_relaxed);
    return;
  }
  try {
    pending_clock_samples_.insert(pending_clock_samples_.end(), samples.begin(), samples.end());
  } catch (...) {
    clock_samples_lost_.fetch_add(samples.size(), std::memory_order_relaxed);
  }
}

void Collector::WritePendingClockSamples() {
  std::vector<model::ClockSampleRecord> samples;
  {
    std::lock_guard<std::mutex> lock(profiles_mutex_);
    samples.swap(pending_clock_samples_);
  }
  for (const model::ClockSampleRecord& sample : samples) {
    try {
      sink_.OnClockSample(sample);
      dirty_ = true;
    } catch (...) {
      clock_samples_lost_.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

void Collector::SubmitGpuMetrics(GpuMetricBatch batch) {
  std::lock_guard<std::mutex> lock(profiles_mutex_);
  if (profiles_closed_ || !started_.load(std::memory_order_acquire)) {
    gpu_metric_samples_lost_.fetch_add(batch.samples(), std::memory_order_relaxed);
    return;
  }
  try {
    pending_gpu_metrics_.push_back(std::move(batch));
  } catch (...) {
    gpu_metric_samples_lost_.fetch_add(batch.samples(), std::memory_order_relaxed);
  }
}

void Collector::WritePendingGpuMetrics() {
  std::vector<GpuMetricBatch> batches;
  {
    std::lock_guard<std::mutex> lock(profiles_mutex_);
    batches.swap(pending_gpu_metrics_);
  }
  for (const GpuMetricBatch& batch : batches) {
    std::size_t written = 0;
    try {
      for (std::size_t i = 0; i < batch.metrics.size(); ++i) {
        const OwnedGpuMetric& metric = batch.metrics[i];
        sink_.OnGpuMetric({batch.device_id, static_cast<std::uint32_t>(i), metric.name,
                           metric.label, metric.unit, metric.role});
      }
      for (; written < batch.samples(); ++written) sink_.OnGpuMetricSample(batch.Sample(written));
      if (batch.sampling) sink_.OnGpuMetricSampling(batch.sampling->View(batch.device_id));
      dirty_ = true;
    } catch (...) {
      gpu_metric_samples_lost_.fetch_add(batch.samples() - written, std::memory_order_relaxed);
      LogError("writing GPU metric samples failed");
    }
  }
}

void Collector::AddDroppedRecords(std::uint64_t count) {
  if (count != 0) dropped_records_.fetch_add(count, std::memory_order_relaxed);
}

void Collector::WriteBuffer(const CompletedBuffer& buffer) {
  try {
    if (buffer.captured_calls) {
      translator_->TranslateCapturedCalls(buffer.data, buffer.valid_bytes, router_);
    } else {
      translator_->Translate(buffer.data, buffer.valid_bytes, router_);
    }
    router_.EndOfBuffer();
  } catch (const std::exception& error) {
    LogError(std::string("writing activity records failed: ") + error.what() +
             "; the rest of this buffer is lost (counted as an unreadable buffer)");
    SkipRestOfBuffer();
  } catch (...) {
    LogError(
        "writing activity records failed; the rest of this buffer is lost (counted as an "
        "unreadable buffer)");
    SkipRestOfBuffer();
  }
  dirty_ = true;
  buffers_written_.fetch_add(1, std::memory_order_relaxed);
  bytes_written_.fetch_add(buffer.valid_bytes, std::memory_order_relaxed);
  pool_.Release(buffer.data, buffer.valid_bytes);
}

void Collector::SkipRestOfBuffer() {
  router_.OnTranslationFailed();
  try {
    router_.EndOfBuffer();  // the buffer is released next: no view into it may survive
  } catch (...) {
  }
}

void Collector::Commit(std::uint64_t ticket) {
  try {
    router_.SetDroppedRecords(dropped_records_.load(std::memory_order_relaxed));
    router_.Commit();
  } catch (const std::exception& error) {
    LogError(std::string("committing the report failed: ") + error.what());
  } catch (...) {
    LogError("committing the report failed");
  }
  dirty_ = false;
  commits_.fetch_add(1, std::memory_order_relaxed);
  if (ticket != 0) queue_.MarkCommitted(ticket);
}

void Collector::WriterLoop(ProcessDescription process) {
  try {
    model::ProcessRecord record;
    record.pid = process.pid;
    record.parent_pid = process.parent_pid;
    record.hostname = process.hostname;
    record.command_line = process.command_line;
    record.start = process.start;
    record.boot_id = process.boot_id;
    record.rank = process.rank;
    record.local_rank = process.local_rank;
    record.world_size = process.world_size;
    record.rank_variable = process.rank_variable;
    router_.OnProcess(record);
    if (!process.trace.empty()) {
      router_.OnTraceScope({process.trace, process.api_capture, process.cuda_graph_trace});
    }
  } catch (...) {
    LogError("writing the process record failed");
  }
  auto next_commit = BufferQueue::Clock::now() + options_.commit_interval;
  for (;;) {
    BufferQueue::Work work = queue_.WaitForWork(next_commit);
    if (work.buffer) {
      WriteBuffer(*work.buffer);
      queue_.MarkProcessed();
    }
    // The ticket is read before the pending profiles are taken: a profile submitted before
    // a commit was requested is then always in that commit (read after, a submission made
    // while the writer was busy here would miss the commit it asked for).
    const std::uint64_t ticket = queue_.DueCommitTicket();
    WritePendingProfiles();
    WritePendingClockSamples();
    WritePendingGpuMetrics();
    const auto now = BufferQueue::Clock::now();
    if (ticket != 0 || (now >= next_commit && dirty_)) {
      Commit(ticket);
      next_commit = now + options_.commit_interval;
    } else if (now >= next_commit) {
      next_commit = now + options_.commit_interval;
    }
    if (work.stop) break;
  }
  {
    std::lock_guard<std::mutex> lock(profiles_mutex_);
    profiles_closed_ = true;  // later submissions are counted as lost
  }
  WritePendingProfiles();
  WritePendingClockSamples();
  WritePendingGpuMetrics();
  try {
    router_.SetDroppedRecords(dropped_records_.load(std::memory_order_relaxed));
    router_.Finish();
    commits_.fetch_add(1, std::memory_order_relaxed);
  } catch (...) {
    LogError("writing the last records failed");
  }
  for (const CompletedBuffer& left : queue_.CloseAfterWriterExit()) {
    GiveBackLate(left);
  }
  {
    std::lock_guard<std::mutex> lock(exit_mutex_);
    writer_exited_.store(true, std::memory_order_release);
  }
  exit_cv_.notify_all();
}

bool Collector::Finish(std::chrono::milliseconds stall_timeout) {
  if (!started_.load(std::memory_order_acquire) ||
      finished_.exchange(true, std::memory_order_acq_rel)) {
    return true;
  }
  queue_.RequestStop();
  std::uint64_t last_progress = queue_.processed();
  std::unique_lock<std::mutex> lock(exit_mutex_);
  for (;;) {
    if (exit_cv_.wait_for(lock, stall_timeout, [&] { return writer_exited_.load(); })) break;
    const std::uint64_t progress = queue_.processed();
    if (progress == last_progress) {
      lock.unlock();
      LogError("the report writer made no progress for " + std::to_string(stall_timeout.count()) +
               " ms; giving up on the last " + std::to_string(queue_.size()) + " buffers");
      if (writer_.joinable()) writer_.detach();
      return false;
    }
    last_progress = progress;
  }
  lock.unlock();
  if (writer_.joinable()) writer_.join();
  return true;
}

CollectorStats Collector::stats() const {
  CollectorStats stats;
  stats.pool = pool_.stats();
  stats.buffers_written = buffers_written_.load();
  stats.bytes_written = bytes_written_.load();
  stats.commits = commits_.load();
  stats.late_buffers = late_buffers_.load();
  stats.late_bytes = late_bytes_.load();
  stats.late_records = late_.total();
  stats.foreign_buffers = foreign_buffers_.load();
  return stats;
}

}  // namespace gpuscope::inject
