#include "inject/session.h"

#include <unistd.h>

#include <string>

#include "contract/manifest_line.h"
#include "contract/report_path_rules.h"
#include "inject/call_stacks.h"
#include "inject/log.h"
#include "inject/manifest_append.h"
#include "inject/nvtx_start_end_ids.h"
#include "inject/process_info.h"
#include "inject/report_file_claim.h"
#include "inject/signal_flush.h"
#include "model/sticky_errors.h"
#include "util/path_pattern.h"

namespace gpuscope::inject {
namespace {

std::string Ms(std::chrono::milliseconds duration) {
  return std::to_string(duration.count()) + " ms";
}

}  // namespace

Session::Session(const InjectionConfig& config, std::unique_ptr<TracingBackend> backend,
                 SessionTimeouts timeouts)
    : config_(config), timeouts_(timeouts), backend_(std::move(backend)) {}

std::unique_ptr<Session> Session::Begin(const InjectionConfig& config,
                                        std::unique_ptr<TracingBackend> backend,
                                        const SinkFactory& make_sink, SessionTimeouts timeouts,
                                        BufferPoolLimits pool_limits) {
  const unsigned pid = static_cast<unsigned>(getpid());
  if (!ShouldTrace(config, pid)) {
    LogDebug("child process " + std::to_string(pid) + " is not traced (children not followed)");
    return nullptr;
  }
  for (const std::string& warning : config.warnings) LogError(warning);

  Status attached = backend->Attach();
  if (!attached.ok()) {
    LogError(attached.message());
    return nullptr;
  }

  PatternContext context = CurrentProcessPatternContext();
  StatusOr<std::string> requested =
      contract::ExpandReportPath(config.report_pattern, context, IsRootProcess(config, pid));
  if (!requested.ok()) {
    LogError("cannot name the report: " + requested.status().message() +
             "; this process is not traced");
    backend->Release();
    return nullptr;
  }
  StatusOr<ClaimedReportPath> claimed =
      ClaimReportPath(*requested, config.force_overwrite, config.report_permissions);
  if (!claimed.ok()) {
    LogError(claimed.status().message() + "; this process is not traced");
    backend->Release();
    return nullptr;
  }
  if (claimed->renamed) {
    LogError(*requested + " already exists; writing " + claimed->path + " instead (-f overwrites)");
  }
  // The placeholder we created is ours to replace.
  StatusOr<std::unique_ptr<model::RecordSink>> sink =
      make_sink.create(claimed->path, config.force_overwrite || claimed->created_empty);
  if (!sink.ok()) {
    if (claimed->created_empty) unlink(claimed->path.c_str());
    LogError("cannot create report " + claimed->path + ": " + sink.status().message() +
             "; this process is not traced");
    backend->Release();
    return nullptr;
  }

  std::unique_ptr<Session> session(new Session(config, std::move(backend), timeouts));
  session->report_path_ = AbsolutePath(claimed->path);
  session->sink_ = std::move(*sink);
  session->close_sink_ = make_sink.close;
  ProcessDescription process = DescribeThisProcess(session->backend_->Now(), config.identity);
  process.trace = TraceListName(config.trace);
  process.api_capture = std::string(ApiCaptureName(config.trace.api_capture));
  process.cuda_graph_trace = std::string(CudaGraphTraceName(config.trace.cuda_graph_trace));

  Status manifest = AppendToManifest(
      config.manifest_path,
      contract::FormatManifestLine({process.pid, process.parent_pid, session->report_path_}));
  if (!manifest.ok()) LogError(manifest.message());
  if (!config.quiet) {
    LogBanner("gpuscope is profiling process " + std::to_string(process.pid) +
              ", command: " + process.command_line);
  }
  LogDebug("report " + session->report_path_ + ", flush every " + std::to_string(config.flush_ms) +
           " ms, " +
           (config.profile_from_start ? "recording from the start"
                                      : "recording between cudaProfilerStart/Stop"));

  CollectorOptions options;
  options.pool = pool_limits;
  options.commit_interval = std::chrono::milliseconds(config.flush_ms);
  options.nvtx_start_end_ids = &ProcessNvtxStartEndIds();
  if (config.backtrace) {
    // Never destroyed, like the collector: enter callbacks may come until the process ends.
    options.call_stacks = new CallStacks();
    PublishCallStacks(options.call_stacks);
  }
  session->collector_ =
      std::make_unique<Collector>(*session->sink_, session->backend_->MakeTranslator(), options);
  Status started = session->collector_->Start(process);
  if (!started.ok()) {
    // Without a writer nothing could ever be written; leave CUPTI to others.
    LogError(started.message() + "; this process is not traced");
    session->backend_->Release();
    session->state_ = State::kEnded;
    return nullptr;
  }

  Session* self = session.get();
  session->flusher_ = std::make_unique<Flusher>(
      std::chrono::milliseconds(config.flush_ms),
      Flusher::Actions{[self] { self->PeriodicFlush(); },
                       [self](bool dies) { self->FlushForSignal(dies); },
                       [self] { self->FinalFlush(ClockSampling::kWithGpus); }, [self] { self->UrgentFlush(); }});
  Status flusher = session->flusher_->Start();
  if (!flusher.ok()) {
    LogError(flusher.message() + "; records are written only when buffers fill and at exit");
  }

  TracingOptions tracing;
  tracing.record_from_start = config.profile_from_start;
  tracing.scope = config.trace;
  tracing.flush_period_ms = config.flush_ms;
  tracing.profile = &session->config_.profile;
  tracing.profile_progress = !config.quiet;
  tracing.gpu_metrics = &session->config_.gpu_metrics;
  tracing.call_stacks = options.call_stacks;
  tracing.on_sticky_error = [self](std::string_view api, model::ApiDomain domain,
                                   std::int32_t code) {
    self->SaveOnStickyError(api, domain, code);
  };
  Status tracing_started = session->backend_->StartTracing(*session->collector_, tracing);
  if (!tracing_started.ok()) LogError(tracing_started.message());
  session->SampleClocks(ClockSampling::kHostOnly);
  return session;
}

Session::~Session() { End(); }

bool Session::ended() const {
  State state = state_.load();
  return state == State::kEnded || state == State::kAbandoned;
}

void Session::SampleClocks(ClockSampling sampling) {
  collector_->SubmitClockSamples(backend_->SampleClocks(sampling));
}

void Session::PeriodicFlush() {
  if (state_.load() != State::kRunning) return;
  Status flushed = backend_->Flush(/*forced=*/false);
  if (!flushed.ok()) LogDebug(flushed.message());
  collector_->AddDroppedRecords(backend_->TakeDroppedRecords(/*at_exit=*/false));
  SampleClocks(ClockSampling::kWithGpus);
  collector_->RequestCommit();
  if (DebugLoggingEnabled()) {
    CollectorStats stats = collector_->stats();
    if (stats.buffers_written != last_logged_buffers_) {
      last_logged_buffers_ = stats.buffers_written;
      LogStats("flush");
    }
  }
}

void Session::FlushForSignal(bool process_dies) {
  if (state_.load() != State::kRunning) return;
  // First make durable what CUPTI already delivered: the signal may have interrupted a
  // thread inside CUDA or CUPTI holding a lock that the CUPTI flush below needs, and then
  // that flush only returns after the handler gave up waiting (seen on the H200: SIGTERM
  // during a launch loop).
  const std::uint64_t delivered = collector_->RequestCommit();
  if (!collector_->WaitForCommit(delivered, timeouts_.signal_wait / 2)) {
    LogDebug("signal: the writer did not commit within " + Ms(timeouts_.signal_wait / 2));
  }
  if (process_dies) {
    // The default action will kill the process as soon as the handler returns: finish the
    // report completely, as at a normal exit, if CUPTI lets us.
    LogDebug("fatal signal: finishing the report before the process dies");
    Finish(/*on_flusher_thread=*/true);
    return;
  }
  LogDebug("signal: flushing before the program's handler runs");
  Status flushed = backend_->Flush(/*forced=*/false);
  if (!flushed.ok()) LogDebug(flushed.message());
  collector_->AddDroppedRecords(backend_->TakeDroppedRecords(/*at_exit=*/false));
  const std::uint64_t ticket = collector_->RequestCommit();
  if (!collector_->WaitForCommit(ticket, timeouts_.signal_wait / 2)) {
    LogDebug("signal: the writer did not commit within " + Ms(timeouts_.signal_wait / 2));
  }
}

void Session::FinalFlush(ClockSampling sampling) {
  // GPU metric sampling stops (its last samples decoded) before the final flush; not on a fatal
  // signal's path (kHostOnly): other threads may be stopped inside the driver.
  if (sampling == ClockSampling::kWithGpus) backend_->StopGpuMetrics();
  // The last clock pair before the flush: a GPU pair launches gpuscope's clock kernel, whose
  // records (the launch, the kernel) this flush then delivers and the router leaves out. Taken
  // after it, they came after the report was closed and were counted as the program's loss.
  SampleClocks(sampling);
  Status flushed = backend_->Flush(/*forced=*/true);
  if (!flushed.ok()) LogError(flushed.message());
  collector_->AddDroppedRecords(backend_->TakeDroppedRecords(/*at_exit=*/true));
  if (sampling == ClockSampling::kWithGpus) backend_->ReleaseGpuMetrics();
}

void Session::UrgentFlush() {
  if (state_.load() != State::kRunning) return;
  Status flushed = backend_->Flush(/*forced=*/true);
  if (!flushed.ok()) LogDebug("sticky error: " + flushed.message());
  collector_->AddDroppedRecords(backend_->TakeDroppedRecords(/*at_exit=*/false));
  const std::uint64_t ticket = collector_->RequestCommit();
  if (!collector_->WaitForCommit(ticket, timeouts_.signal_wait / 2)) {
    LogDebug("sticky error: the writer did not commit within " + Ms(timeouts_.signal_wait / 2));
  }
}

void Session::SaveOnStickyError(std::string_view api, model::ApiDomain domain, std::int32_t code) {
  if (state_.load() != State::kRunning) return;
  const model::StickyError* error = model::FindStickyError(code);
  std::string what = std::string(api) + " returned " +
                     (error != nullptr ? std::string(model::StickyErrorName(*error, domain)) +
                                             " (" + std::string(error->meaning) + ")"
                                       : "error " + std::to_string(code));
  bool saved = true;
  if (flusher_->running()) {
    saved = flusher_->RunUrgentFlush(timeouts_.signal_wait);
  } else {
    UrgentFlush();  // no flusher thread: on this one (CUPTI allows a flush inside a callback)
  }
  LogError(what + ": the CUDA context is unusable from now on; " +
           (saved ? "the report holds everything up to this call"
                  : "saving the report did not finish within " + Ms(timeouts_.signal_wait) +
                        ", it holds what was saved before"));
}

void Session::End() { Finish(/*on_flusher_thread=*/false); }

void Session::Finish(bool on_flusher_thread) {
  State expected = State::kRunning;
  if (!state_.compare_exchange_strong(expected, State::kEnding)) {
    if (expected == State::kEnding) {
      // Someone else (a fatal signal, or exit racing with it) is finishing: let them.
      std::unique_lock<std::mutex> lock(ended_mutex_);
      ended_cv_.wait_for(lock, timeouts_.final_flush + timeouts_.writer_stall,
                         [&] { return state_.load() != State::kEnding; });
    }
    return;
  }
  StopFlushingOnSignals();
  LogDebug("exit: final flush");
  bool flushed = true;
  if (on_flusher_thread || !flusher_->running()) {
    // On the flusher thread here only for a fatal signal: the process is dying, other threads
    // may be stopped inside the driver, so no GPU work of ours.
    FinalFlush(on_flusher_thread ? ClockSampling::kHostOnly : ClockSampling::kWithGpus);
  } else {
    flushed = flusher_->RunFinalFlush(timeouts_.final_flush);
  }
  if (!flushed) {
    LogError("CUPTI's final flush did not return within " + Ms(timeouts_.final_flush) +
             " (is the GPU hung?); the report holds the records delivered before it");
  }
  const bool written = collector_->Finish(timeouts_.writer_stall);
  backend_->StopCallbacks();
  if (!on_flusher_thread) flusher_->Stop(std::chrono::milliseconds(1000));
  LogStats("exit");
  if (std::uint64_t lost = collector_->clock_samples_lost(); lost != 0) {
    LogDebug(std::to_string(lost) + " clock sample(s) could not be written");
  }
  if (std::uint64_t lost = collector_->profiled_kernels_lost(); lost != 0) {
    LogError(std::to_string(lost) +
             " measured kernel(s) came too late or could not be written "
             "to the report; their metrics are lost");
  }
  if (written) {
    if (close_sink_) {
      Status closed = close_sink_(*sink_);
      if (!closed.ok()) LogError("report " + report_path_ + ": " + closed.message());
    }
    sink_.reset();
  } else {
    // The writer still uses the sink: leave both alone, the process is ending.
    (void)sink_.release();
  }
  LogDebug("exit: report closed");
  {
    std::lock_guard<std::mutex> lock(ended_mutex_);
    state_.store(State::kEnded);
  }
  ended_cv_.notify_all();
}

void Session::AbandonInForkedChild() {
  state_.store(State::kAbandoned);
  StopFlushingOnSignals();
  backend_->AbandonInForkedChild();
}

void Session::LogStats(const char* when) {
  if (!DebugLoggingEnabled()) return;
  CollectorStats stats = collector_->stats();
  LogDebug(std::string(when) + ": " + std::to_string(stats.buffers_written) + " buffers (" +
           std::to_string(stats.bytes_written >> 10) + " KiB) written, " +
           std::to_string(stats.commits) + " commits; pool " +
           std::to_string(stats.pool.allocated) + " buffers, " + std::to_string(stats.pool.waits) +
           " waits, " + std::to_string(stats.pool.grown_past_soft_limit) + " grown, " +
           std::to_string(stats.pool.refused) + " refused; " + std::to_string(stats.late_buffers) +
           " late buffers (" + std::to_string(stats.late_records) + " records)");
}

}  // namespace gpuscope::inject
