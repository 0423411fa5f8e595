// One traced process, from InitializeInjection to exit.
//
// Begin(): decide whether this process is traced, claim CUPTI (or stand down), create the
// report and register it in the manifest, print nvprof's banner, start the collector's
// writer thread (its first record describes the process) and the flusher thread, and
// start tracing.
//
// While the program runs: the flusher asks CUPTI for completed buffers, samples the clocks
// (also when tracing starts and at the end; model::ClockSampleRecord) and the writer
// commits at least every GPUSCOPE_FLUSH_MS; SIGINT/SIGTERM/SIGABRT flush before chaining to the
// program's handler (signal_flush.h).
//
// A call that returns a sticky CUDA error (an illegal address, a device assert) saves the
// report before it returns to the program (SaveOnStickyError), which is likely to die next.
//
// End() (atexit, or a fatal SIGINT/SIGTERM/SIGABRT): forced CUPTI flush, drain, final counters
// (CUPTI's dropped records included), close the report. Every wait is bounded, so a wedged
// GPU (an illegal address, say) cannot hang the program's exit; the report then holds
// everything committed before.
//
// After fork() without exec the child has none of our threads and the report belongs to
// the parent: AbandonInForkedChild() makes sure nothing in the child (atexit included)
// touches CUPTI or the report again.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "inject/collector.h"
#include "inject/config.h"
#include "inject/flusher.h"
#include "inject/tracing_backend.h"
#include "model/record_sink.h"
#include "util/status.h"

namespace gpuscope::inject {

// How reports are made (the production one is store::ReportWriter).
struct SinkFactory {
  // Creates the report at `path`; `overwrite` replaces an existing file.
  std::function<StatusOr<std::unique_ptr<model::RecordSink>>(const std::string& path,
                                                             bool overwrite)>
      create;
  // Optional: completes the report before it is destroyed; an error is printed.
  std::function<Status(model::RecordSink&)> close;
};

struct SessionTimeouts {
  // CUPTI's forced flush at exit; a hung GPU can block it forever.
  std::chrono::milliseconds final_flush{10'000};
  // The writer draining its queue at exit: given up only when it stops making progress.
  std::chrono::milliseconds writer_stall{10'000};
  // How long a SIGINT/SIGTERM/SIGABRT handler, or a call that returned a sticky error, waits
  // for the flush before going on.
  std::chrono::milliseconds signal_wait{3'000};
};

class Session {
 public:
  // nullptr when this process is not traced; the reason was printed (or, for a child we
  // do not follow, logged in debug mode).
  static std::unique_ptr<Session> Begin(const InjectionConfig& config,
                                        std::unique_ptr<TracingBackend> backend,
                                        const SinkFactory& make_sink, SessionTimeouts timeouts = {},
                                        BufferPoolLimits pool_limits = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The exit path. Idempotent; a second caller waits (bounded) for the first to finish.
  void End();
  // The child side of fork(): flags only, no locks, no threads, no I/O.
  void AbandonInForkedChild();

  // A call that waits for the GPU returned a sticky error (TracingOptions::on_sticky_error):
  // says so once and saves everything CUPTI holds to the report (forced flush, commit) before
  // returning, within the signal wait. The program's thread calls it.
  void SaveOnStickyError(std::string_view api, model::ApiDomain domain, std::int32_t code);

  Flusher& flusher() { return *flusher_; }
  Collector& collector() { return *collector_; }
  const std::string& report_path() const { return report_path_; }
  const SessionTimeouts& timeouts() const { return timeouts_; }
  bool ended() const;

 private:
  enum class State { kRunning, kEnding, kEnded, kAbandoned };

  Session(const InjectionConfig& config, std::unique_ptr<TracingBackend> backend,
          SessionTimeouts timeouts);
  void Finish(bool on_flusher_thread);
  void PeriodicFlush();
  void FlushForSignal(bool process_dies);
  // `sampling`: kHostOnly when the process is dying (a fatal signal).
  void FinalFlush(ClockSampling sampling);
  void UrgentFlush();
  // Hands the clocks read now (TracingBackend::SampleClocks) to the collector: when tracing
  // starts (host only: inside the driver's initialisation), at every periodic flush and at
  // the final flush (with the GPUs' pairs, from the flusher thread).
  void SampleClocks(ClockSampling sampling);
  void LogStats(const char* when);

  const InjectionConfig config_;
  const SessionTimeouts timeouts_;
  std::unique_ptr<TracingBackend> backend_;
  std::unique_ptr<model::RecordSink> sink_;
  std::function<Status(model::RecordSink&)> close_sink_;
  std::unique_ptr<Collector> collector_;
  std::unique_ptr<Flusher> flusher_;
  std::string report_path_;
  std::atomic<State> state_{State::kRunning};
  std::mutex ended_mutex_;
  std::condition_variable ended_cv_;
  std::uint64_t last_logged_buffers_ = 0;  // flusher thread
};

}  // namespace gpuscope::inject
