// The session lifecycle with a fake tracing backend: what InitializeInjection does, the
// exit path, signals, standing down, report naming and the manifest. The backend delivers
// real CUPTI record structs through the collector when asked to flush, as CUPTI does.
#include "inject/session.h"

#include <cupti.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cupti/tracing/translate.h"
#include "cupti_record_writer.h"
#include "inject/host_clocks.h"
#include "inject/process_hooks.h"
#include "inject/process_info.h"
#include "inject/rank_identity.h"
#include "recording_sink.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/scratch_dir.h"
#include "temp_dir.h"

namespace gpuscope::inject::testing {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

// What the fake backend saw; owned by the test so it outlives the session.
struct BackendLog {
  std::atomic<int> attach_calls{0};
  std::atomic<int> releases{0};
  std::atomic<int> flushes{0};
  std::atomic<int> forced_flushes{0};
  std::atomic<int> abandoned{0};
  std::atomic<int> callbacks_stopped{0};
  std::atomic<bool> started{false};
  TracingOptions options;
  Status attach_result;
  std::uint64_t dropped_per_flush = 0;
  std::uint64_t dropped_at_exit = 0;
  std::atomic<int> kernels_per_flush{0};
  std::atomic<int> clock_samplings{0};
  // When set, every backend call appends "<pid> <call>" here, so that a test sees what
  // another process (a forked child) did.
  std::string events_path;
};

void AppendEvent(const std::string& path, const std::string& what) {
  if (path.empty()) return;
  std::ofstream(path, std::ios::app) << getpid() << " " << what << "\n";
}

class FakeBackend : public TracingBackend {
 public:
  explicit FakeBackend(BackendLog& log) : log_(log) {}
  Status Attach() override {
    AppendEvent(log_.events_path, "backend attach");
    ++log_.attach_calls;
    return log_.attach_result;
  }
  void Release() override {
    AppendEvent(log_.events_path, "backend release");
    ++log_.releases;
  }
  std::unique_ptr<BufferTranslator> MakeTranslator() override {
    return std::make_unique<cupti::ActivityTranslator>();
  }
  Status StartTracing(Collector& collector, const TracingOptions& options) override {
    collector_ = &collector;
    log_.options = options;
    log_.started = true;
    return Status();
  }
  // Like CUPTI: a flush hands the completed buffers to the buffer-completed callback.
  Status Flush(bool forced) override {
    AppendEvent(log_.events_path, forced ? "backend forced flush" : "backend flush");
    ++(forced ? log_.forced_flushes : log_.flushes);
    const int kernels = forced ? 1 : log_.kernels_per_flush.load();
    if (collector_ == nullptr || kernels == 0) return Status();
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0, max_records = 0;
    collector_->OnBufferRequested(&buffer, &size, &max_records);
    CuptiRecordWriter writer(buffer, size);
    for (int i = 0; i < kernels; ++i) {
      CUpti_ActivityKernel10& k = writer.Kernel();
      k.name = forced ? "final_kernel" : "periodic_kernel";
      // After the process start (Now() below), as every record of a real run.
      k.start = 1'234'567'990;
      k.end = 1'234'568'090;
    }
    collector_->OnBufferCompleted(buffer, writer.used());
    return Status();
  }
  std::uint64_t TakeDroppedRecords(bool at_exit) override {
    AppendEvent(log_.events_path, "backend dropped");
    return at_exit ? log_.dropped_at_exit : log_.dropped_per_flush;
  }
  model::Timestamp Now() override {
    AppendEvent(log_.events_path, "backend now");
    return 1'234'567'890;
  }
  // The host pair, as the CUPTI backend gives it, at a CUPTI time after the process start
  // that grows with each sampling (so that their order shows in the report).
  std::vector<model::ClockSampleRecord> SampleClocks(ClockSampling /*sampling*/) override {
    AppendEvent(log_.events_path, "backend clocks");
    const int n = ++log_.clock_samplings;
    return {HostClockSample(1'234'567'900 + 10 * static_cast<model::Timestamp>(n))};
  }
  void StopGpuMetrics() override { AppendEvent(log_.events_path, "backend stop gpu metrics"); }
  void ReleaseGpuMetrics() override {
    AppendEvent(log_.events_path, "backend release gpu metrics");
  }
  void StopCallbacks() override {
    AppendEvent(log_.events_path, "backend stop callbacks");
    ++log_.callbacks_stopped;
  }
  void AbandonInForkedChild() override { ++log_.abandoned; }

 private:
  BackendLog& log_;
  Collector* collector_ = nullptr;
};

// The session owns and destroys its sink; this one forwards to a sink the test keeps.
class ForwardingSink : public model::RecordSink {
 public:
  ForwardingSink(RecordingSink& target, std::atomic<int>& destroyed)
      : target_(target), destroyed_(destroyed) {}
  ~ForwardingSink() override { ++destroyed_; }
  void OnProcess(const model::ProcessRecord& r) override { target_.OnProcess(r); }
  void OnDevice(const model::DeviceRecord& r) override { target_.OnDevice(r); }
  void OnContext(const model::ContextRecord& r) override { target_.OnContext(r); }
  void OnStream(const model::StreamRecord& r) override { target_.OnStream(r); }
  void OnKernel(const model::KernelRecord& r) override { target_.OnKernel(r); }
  void OnMemcpy(const model::MemcpyRecord& r) override { target_.OnMemcpy(r); }
  void OnMemset(const model::MemsetRecord& r) override { target_.OnMemset(r); }
  void OnApiCall(const model::ApiCallRecord& r, bool nested) override {
    target_.OnApiCall(r, nested);
  }
  void OnMemory(const model::MemoryRecord& r) override { target_.OnMemory(r); }
  void OnTraceScope(const model::TraceScopeRecord& r) override { target_.OnTraceScope(r); }
  void OnApiCallCount(const model::ApiCallCountRecord& r) override { target_.OnApiCallCount(r); }
  void OnGraphLaunch(const model::GraphLaunchRecord& r) override { target_.OnGraphLaunch(r); }
  void OnSync(const model::SyncRecord& r) override { target_.OnSync(r); }
  void OnNvtx(const model::NvtxRecord& r) override { target_.OnNvtx(r); }
  void OnOverhead(const model::OverheadRecord& r) override { target_.OnOverhead(r); }
  void OnProfiledKernel(const model::ProfiledKernelRecord& r) override {
    target_.OnProfiledKernel(r);
  }
  void OnClockSample(const model::ClockSampleRecord& r) override { target_.OnClockSample(r); }
  void OnCounters(const model::CollectionCounters& c) override { target_.OnCounters(c); }
  void Flush() override { target_.Flush(); }

 private:
  RecordingSink& target_;
  std::atomic<int>& destroyed_;
};

class SessionTest : public ::testing::Test {
 protected:
  // The launcher creates the manifest before the program starts (cli/launch/manifest_file.h).
  void SetUp() override { std::ofstream(dir_.path() + "/manifest").close(); }

  SinkFactory Factory() {
    SinkFactory factory;
    factory.create = [this](const std::string& path,
                            bool overwrite) -> StatusOr<std::unique_ptr<model::RecordSink>> {
      created_path_ = path;
      created_overwrite_ = overwrite;
      if (fail_create_) return Status::Error("disk full");
      return std::unique_ptr<model::RecordSink>(new ForwardingSink(sink_, sink_destroyed_));
    };
    factory.close = [this](model::RecordSink&) {
      ++closes_;
      return Status();
    };
    return factory;
  }

  InjectionConfig Config() {
    InjectionConfig config;
    config.report_pattern = dir_.path() + "/report_%p.sqlite";
    config.manifest_path = dir_.path() + "/manifest";
    config.flush_ms = 60'000;  // no periodic flush unless a test asks for one
    return config;
  }

  std::unique_ptr<Session> Begin(const InjectionConfig& config) {
    SessionTimeouts timeouts;
    timeouts.final_flush = std::chrono::milliseconds(5000);
    timeouts.writer_stall = std::chrono::milliseconds(5000);
    timeouts.signal_wait = std::chrono::milliseconds(5000);
    BufferPoolLimits pool;
    pool.buffer_bytes = 64 * 1024;
    return Session::Begin(config, std::make_unique<FakeBackend>(log_), Factory(), timeouts, pool);
  }

  TempDir dir_;
  BackendLog log_;
  RecordingSink sink_;
  std::atomic<int> sink_destroyed_{0};
  std::atomic<int> closes_{0};
  std::string created_path_;
  bool created_overwrite_ = false;
  bool fail_create_ = false;
};

TEST_F(SessionTest, BeginCreatesTheReportRegistersItAndPrintsTheBanner) {
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(Config());
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_NE(session, nullptr) << err;
  const std::string pid = std::to_string(getpid());
  const std::string expected_path = dir_.path() + "/report_" + pid + ".sqlite";
  EXPECT_EQ(created_path_, expected_path);
  EXPECT_TRUE(created_overwrite_) << "the placeholder claimed for us may be replaced";
  EXPECT_EQ(session->report_path(), expected_path);
  EXPECT_EQ(ReadWholeFile(dir_.path() + "/manifest"),
            pid + "\t" + std::to_string(getppid()) + "\t" + expected_path + "\n");
  EXPECT_EQ(err, "==" + pid + "== gpuscope is profiling process " + pid +
                     ", command: " + CommandLineOfThisProcess() + "\n");
  EXPECT_EQ(log_.attach_calls, 1);
  EXPECT_TRUE(log_.started);
  EXPECT_TRUE(log_.options.record_from_start);
  EXPECT_EQ(log_.options.flush_period_ms, 60'000u);

  session->End();
  ASSERT_EQ(sink_.processes.size(), 1u);
  EXPECT_EQ(sink_.processes[0].record.pid, static_cast<std::uint32_t>(getpid()));
  EXPECT_EQ(sink_.processes[0].record.parent_pid, static_cast<std::uint32_t>(getppid()));
  EXPECT_EQ(sink_.processes[0].record.start, 1'234'567'890u);
  EXPECT_EQ(sink_.processes[0].text, CommandLineOfThisProcess());
}

// The end of a run, in its order (issue 25): GPU metric sampling stops (its last samples
// decoded); the last clock pair, which launches gpuscope's clock kernel, comes before the final
// flush (after it, its records came after the report was closed and were counted as the
// program's loss at every exit); after the flush, GPU metric sampling lets go of the devices
// (left enabled, the CUDA runtime's teardown of the contexts crashed in CUPTI); then the
// callbacks stop.
TEST_F(SessionTest, TheEndStopsSamplingTakesTheLastClockPairFlushesThenReleasesSampling) {
  log_.events_path = dir_.path() + "/events";
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  session->End();
  std::vector<std::string> events;
  std::istringstream lines(ReadWholeFile(log_.events_path));
  for (std::string line; std::getline(lines, line);) events.push_back(line.substr(line.find(' ') + 1));
  const auto at = [&](const char* event) {
    return std::find(events.begin(), events.end(), event) - events.begin();
  };
  const auto forced = at("backend forced flush");
  ASSERT_LT(forced, static_cast<std::ptrdiff_t>(events.size()));
  const auto last_clocks = std::find(events.rbegin(), events.rend(), "backend clocks");
  ASSERT_NE(last_clocks, events.rend());
  EXPECT_LT(last_clocks.base() - 1 - events.begin(), forced)
      << "no clock sample after the final flush";
  EXPECT_LT(at("backend stop gpu metrics"), last_clocks.base() - 1 - events.begin());
  EXPECT_GT(at("backend release gpu metrics"), forced);
  EXPECT_LT(at("backend release gpu metrics"), at("backend stop callbacks"));
  EXPECT_LT(at("backend release gpu metrics"), static_cast<std::ptrdiff_t>(events.size()));
}

TEST_F(SessionTest, EndFlushesForcedDrainsCountsAndCloses) {
  log_.dropped_at_exit = 17;
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  session->End();
  EXPECT_EQ(log_.forced_flushes, 1);
  ASSERT_EQ(sink_.kernels.size(), 1u) << "the records of the forced flush are in the report";
  EXPECT_EQ(sink_.kernels[0].text, "final_kernel");
  EXPECT_EQ(sink_.counters.dropped_records, 17u);
  EXPECT_EQ(closes_, 1);
  EXPECT_EQ(sink_destroyed_, 1) << "the report is closed at exit";
  EXPECT_EQ(log_.callbacks_stopped, 1) << "late CUDA teardown callbacks do nothing";
  EXPECT_TRUE(session->ended());
  session->End();  // a second exit path does nothing
  EXPECT_EQ(log_.forced_flushes, 1);
  EXPECT_EQ(closes_, 1);
}

TEST_F(SessionTest, PeriodicFlushesReachTheReport) {
  InjectionConfig config = Config();
  config.flush_ms = 40;
  log_.kernels_per_flush = 2;
  log_.dropped_per_flush = 1;
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  for (int i = 0; i < 300 && log_.flushes < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  log_.kernels_per_flush = 0;
  for (int i = 0; i < 300; ++i) {
    {
      auto lock = sink_.lock();
      if (sink_.kernels_at_last_flush >= 6) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  {
    auto lock = sink_.lock();
    EXPECT_GE(sink_.kernels_at_last_flush, 6u) << "three periodic flushes were committed";
    EXPECT_GE(sink_.counters.dropped_records, 3u);
  }
  EXPECT_EQ(log_.forced_flushes, 0) << "periodic flushes never force";
  session->End();
}

// The clocks are sampled when tracing starts, at every periodic flush and at the end, and
// every sample reaches the report in the order taken.
TEST_F(SessionTest, ClockSamplesAtTheStartEachFlushAndTheEnd) {
  InjectionConfig config = Config();
  config.flush_ms = 40;
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(log_.clock_samplings, 1) << "sampled when tracing started";
  for (int i = 0; i < 300 && log_.flushes < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  session->End();
  const int samplings = log_.clock_samplings;
  EXPECT_GE(samplings, 4) << "start, two periodic flushes, the end";
  EXPECT_EQ(samplings, log_.flushes + 2) << "one per periodic flush, plus the start and the end";
  auto lock = sink_.lock();
  ASSERT_EQ(sink_.clock_samples.size(), static_cast<std::size_t>(samplings));
  for (std::size_t i = 0; i < sink_.clock_samples.size(); ++i) {
    const model::ClockSampleRecord& sample = sink_.clock_samples[i];
    EXPECT_EQ(sample.cupti_ns, 1'234'567'900u + 10 * (i + 1)) << "in the order taken";
    EXPECT_GT(sample.realtime_ns, 1'600'000'000'000'000'000) << "CLOCK_REALTIME, read now";
    EXPECT_GT(sample.monotonic_ns, 0);
    EXPECT_FALSE(sample.device_id.has_value());
  }
}

// The first record of the report names the process's rank, as the launcher's variables gave
// it, and the host's boot id.
TEST_F(SessionTest, TheProcessRecordCarriesTheRankAndTheBootId) {
  InjectionConfig config = Config();
  config.identity.rank = 6;
  config.identity.local_rank = 2;
  config.identity.world_size = 8;
  config.identity.rank_variable = "RANK";
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  session->End();
  ASSERT_EQ(sink_.processes.size(), 1u);
  const RecordedProcess& process = sink_.processes[0];
  EXPECT_EQ(process.record.rank, 6);
  EXPECT_EQ(process.record.local_rank, 2);
  EXPECT_EQ(process.record.world_size, 8);
  EXPECT_EQ(process.rank_variable, "RANK");
  EXPECT_EQ(process.boot_id, ReadBootId());
}

// Through the production writer: what a traced rank's report holds, read back.
TEST_F(SessionTest, ARanksReportHoldsItsIdentityAndClockSamples) {
  InjectionConfig config = Config();
  config.identity = ReadInjectionConfig([](const char* name) -> const char* {
                      const std::string_view variable(name);
                      if (variable == "SLURM_PROCID") return "9";
                      if (variable == "SLURM_LOCALID") return "1";
                      if (variable == "SLURM_NTASKS") return "16";
                      return nullptr;
                    }).identity;
  SinkFactory factory;
  factory.create = [](const std::string& path,
                      bool overwrite) -> StatusOr<std::unique_ptr<model::RecordSink>> {
    auto writer = store::ReportWriter::Create(path, overwrite);
    if (!writer.ok()) return writer.status();
    return std::unique_ptr<model::RecordSink>(std::move(*writer));
  };
  factory.close = [](model::RecordSink& sink) {
    return static_cast<store::ReportWriter&>(sink).Close();
  };
  std::unique_ptr<Session> session =
      Session::Begin(config, std::make_unique<FakeBackend>(log_), factory);
  ASSERT_NE(session, nullptr);
  const std::string path = session->report_path();
  session->End();
  auto opened = store::ReportReader::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  const store::ReportReader& reader = **opened;
  EXPECT_EQ(reader.process().rank, 9);
  EXPECT_EQ(reader.process().local_rank, 1);
  EXPECT_EQ(reader.process().world_size, 16);
  EXPECT_EQ(reader.process().rank_variable, "SLURM_PROCID");
  EXPECT_EQ(reader.process().boot_id, ReadBootId());
  const std::vector<store::ClockSample>& samples = reader.ClockSamples();
  ASSERT_EQ(samples.size(), 2u) << "the start and the end";
  EXPECT_EQ(samples[0].cupti_ns, 1'234'567'910u) << "absolute again after the relative store";
  EXPECT_EQ(samples[1].cupti_ns, 1'234'567'920u);
  EXPECT_LE(samples[0].realtime_ns, samples[1].realtime_ns);
  EXPECT_LE(samples[0].monotonic_ns, samples[1].monotonic_ns);
}

TEST_F(SessionTest, ASignalTheProgramSurvivesFlushesAndCommits) {
  log_.kernels_per_flush = 3;
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  const char request = Flusher::kSignalProcessContinues;
  ASSERT_EQ(write(session->flusher().wake_fd(), &request, 1), 1);
  pollfd done{session->flusher().done_fd(), POLLIN, 0};
  ASSERT_EQ(poll(&done, 1, 5000), 1) << "the flusher answered the handler";
  {
    auto lock = sink_.lock();
    EXPECT_EQ(sink_.kernels_at_last_flush, 3u) << "committed before the answer";
  }
  EXPECT_EQ(log_.flushes, 1);
  EXPECT_EQ(log_.forced_flushes, 0);
  EXPECT_FALSE(session->ended());
  session->End();
}

TEST_F(SessionTest, AFatalSignalFinishesTheReportBeforeAnswering) {
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  const char request = Flusher::kSignalProcessDies;
  ASSERT_EQ(write(session->flusher().wake_fd(), &request, 1), 1);
  pollfd done{session->flusher().done_fd(), POLLIN, 0};
  ASSERT_EQ(poll(&done, 1, 5000), 1);
  EXPECT_TRUE(session->ended());
  EXPECT_EQ(log_.forced_flushes, 1);
  EXPECT_EQ(sink_.kernels.size(), 1u);
  EXPECT_EQ(closes_, 1) << "the report is complete when the default action kills us";
  session->End();  // the exit path after that finds nothing to do
  EXPECT_EQ(log_.forced_flushes, 1);
}

// A call returned a sticky CUDA error: before it returns to the program, everything CUPTI
// holds (incomplete buffers too) is in the report, committed; gpuscope says so once and goes on.
TEST_F(SessionTest, AStickyErrorSavesTheReportBeforeTheCallReturns) {
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  ASSERT_TRUE(log_.options.on_sticky_error) << "the backend is told whom to tell";
  ::testing::internal::CaptureStderr();
  log_.options.on_sticky_error("cudaDeviceSynchronize", model::ApiDomain::kRuntime, 700);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(log_.forced_flushes, 1) << "incomplete buffers too: nothing runs after the error";
  {
    auto lock = sink_.lock();
    EXPECT_EQ(sink_.kernels_at_last_flush, 1u) << "committed before the call returns";
  }
  EXPECT_NE(said.find("cudaDeviceSynchronize returned cudaErrorIllegalAddress (a kernel accessed "
                      "an illegal memory address): the CUDA context is unusable from now on; the "
                      "report holds everything up to this call"),
            std::string::npos)
      << said;
  EXPECT_FALSE(session->ended()) << "the program goes on; so does the session";
  session->End();
  EXPECT_EQ(closes_, 1);
}

TEST_F(SessionTest, StandsDownWhenTheBackendIsTaken) {
  log_.attach_result = Status::Error(
      "CUPTI is already in use by CUPTI for torch in this process; gpuscope stands down and "
      "records nothing");
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(Config());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(session, nullptr);
  EXPECT_EQ(err, "==" + std::to_string(getpid()) +
                     "== gpuscope: CUPTI is already in use by CUPTI for torch in this process; "
                     "gpuscope stands down and records nothing\n");
  EXPECT_TRUE(created_path_.empty()) << "no report";
  EXPECT_EQ(ReadWholeFile(dir_.path() + "/manifest"), "") << "no manifest line";
  EXPECT_FALSE(log_.started);
}

TEST_F(SessionTest, ChildrenAreNotTracedWhenNotFollowed) {
  InjectionConfig config = Config();
  config.root_pid = static_cast<unsigned>(getpid()) + 1;
  config.follow_children = false;
  config.warnings.push_back("a warning a skipped child must not print");
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(config);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(session, nullptr);
  EXPECT_EQ(log_.attach_calls, 0) << "CUPTI is left alone";
}

TEST_F(SessionTest, AFollowedChildWithoutPidInThePatternGetsItsOwnReport) {
  InjectionConfig config = Config();
  config.report_pattern = dir_.path() + "/run.sqlite";
  config.root_pid = static_cast<unsigned>(getpid()) + 1;
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->report_path(), dir_.path() + "/run." + std::to_string(getpid()) + ".sqlite");
  session->End();
}

TEST_F(SessionTest, AnExistingReportIsNeverOverwrittenWithoutForce) {
  InjectionConfig config = Config();
  config.report_pattern = dir_.path() + "/run.sqlite";
  std::ofstream(dir_.path() + "/run.sqlite") << "earlier";
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(config);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->report_path(), dir_.path() + "/run-1.sqlite");
  EXPECT_NE(err.find("gpuscope: " + dir_.path() + "/run.sqlite already exists; writing " +
                     dir_.path() + "/run-1.sqlite instead (-f overwrites)\n"),
            std::string::npos)
      << err;
  EXPECT_EQ(ReadWholeFile(dir_.path() + "/run.sqlite"), "earlier");
  session->End();
}

TEST_F(SessionTest, ForceOverwriteAsksTheWriterToReplace) {
  InjectionConfig config = Config();
  config.report_pattern = dir_.path() + "/run.sqlite";
  config.force_overwrite = true;
  std::ofstream(dir_.path() + "/run.sqlite") << "earlier";
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(created_path_, dir_.path() + "/run.sqlite");
  EXPECT_TRUE(created_overwrite_);
  session->End();
}

// The program runs on untraced, told once why; the file the link names is untouched and
// no sink is ever asked to write it.
TEST_F(SessionTest, ASymbolicLinkAtTheReportPathIsRefusedOnceAndTheProgramRunsOn) {
  InjectionConfig config = Config();
  config.report_pattern = dir_.path() + "/run.sqlite";
  config.force_overwrite = true;
  std::ofstream(dir_.path() + "/notes.txt") << "the user's notes";
  ASSERT_EQ(symlink((dir_.path() + "/notes.txt").c_str(), (dir_.path() + "/run.sqlite").c_str()),
            0);
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(config);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(session, nullptr);
  EXPECT_EQ(err, "==" + std::to_string(getpid()) + "== gpuscope: report " + dir_.path() +
                     "/run.sqlite is a symbolic link to " + dir_.path() +
                     "/notes.txt; not writing through it; this process is not traced\n");
  EXPECT_TRUE(created_path_.empty()) << "no sink was created";
  EXPECT_EQ(log_.releases, 1);
  EXPECT_EQ(ReadWholeFile(dir_.path() + "/notes.txt"), "the user's notes");
}

TEST_F(SessionTest, AReportThatCannotBeCreatedLeavesCuptiToOthers) {
  fail_create_ = true;
  ::testing::internal::CaptureStderr();
  std::unique_ptr<Session> session = Begin(Config());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(session, nullptr);
  EXPECT_NE(err.find("cannot create report"), std::string::npos) << err;
  EXPECT_NE(err.find("disk full; this process is not traced"), std::string::npos) << err;
  EXPECT_EQ(log_.releases, 1);
  struct stat info;
  EXPECT_NE(stat(created_path_.c_str(), &info), 0) << "the placeholder is removed";
}

TEST_F(SessionTest, ProfileFromStartOffIsPassedToTheBackend) {
  InjectionConfig config = Config();
  config.profile_from_start = false;
  config.flush_ms = 250;
  std::unique_ptr<Session> session = Begin(config);
  ASSERT_NE(session, nullptr);
  EXPECT_FALSE(log_.options.record_from_start);
  EXPECT_EQ(log_.options.flush_period_ms, 250u);
  session->End();
}

TEST_F(SessionTest, AForkedChildNeverTouchesTheReportOrTheBackend) {
  std::unique_ptr<Session> session = Begin(Config());
  ASSERT_NE(session, nullptr);
  session->AbandonInForkedChild();
  EXPECT_EQ(log_.abandoned, 1);
  session->End();  // the child's atexit
  EXPECT_EQ(log_.forced_flushes, 0);
  EXPECT_EQ(closes_, 0);
  EXPECT_TRUE(session->ended());
}

// A real report, whose every write is also logged as "<pid> sink <call>".
class EventLoggingReport : public model::RecordSink {
 public:
  EventLoggingReport(std::unique_ptr<store::ReportWriter> writer, std::string events_path)
      : writer_(std::move(writer)), events_path_(std::move(events_path)) {}
  void OnProcess(const model::ProcessRecord& r) override {
    Log("process");
    writer_->OnProcess(r);
  }
  void OnDevice(const model::DeviceRecord& r) override {
    Log("device");
    writer_->OnDevice(r);
  }
  void OnContext(const model::ContextRecord& r) override {
    Log("context");
    writer_->OnContext(r);
  }
  void OnStream(const model::StreamRecord& r) override {
    Log("stream");
    writer_->OnStream(r);
  }
  void OnKernel(const model::KernelRecord& r) override {
    Log("kernel");
    writer_->OnKernel(r);
  }
  void OnMemcpy(const model::MemcpyRecord& r) override {
    Log("memcpy");
    writer_->OnMemcpy(r);
  }
  void OnMemset(const model::MemsetRecord& r) override {
    Log("memset");
    writer_->OnMemset(r);
  }
  void OnApiCall(const model::ApiCallRecord& r, bool nested) override {
    Log("api");
    writer_->OnApiCall(r, nested);
  }
  void OnMemory(const model::MemoryRecord& r) override {
    Log("memory");
    writer_->OnMemory(r);
  }
  void OnTraceScope(const model::TraceScopeRecord& r) override {
    Log("trace scope");
    writer_->OnTraceScope(r);
  }
  void OnApiCallCount(const model::ApiCallCountRecord& r) override {
    Log("api call count");
    writer_->OnApiCallCount(r);
  }
  void OnGraphLaunch(const model::GraphLaunchRecord& r) override {
    Log("graph launch");
    writer_->OnGraphLaunch(r);
  }
  void OnSync(const model::SyncRecord& r) override {
    Log("sync");
    writer_->OnSync(r);
  }
  void OnNvtx(const model::NvtxRecord& r) override {
    Log("nvtx");
    writer_->OnNvtx(r);
  }
  void OnOverhead(const model::OverheadRecord& r) override {
    Log("overhead"), writer_->OnOverhead(r);
  }
  void OnProfiledKernel(const model::ProfiledKernelRecord& r) override {
    Log("profiled kernel");
    writer_->OnProfiledKernel(r);
  }
  void OnClockSample(const model::ClockSampleRecord& r) override {
    Log("clock sample");
    writer_->OnClockSample(r);
  }
  void OnCounters(const model::CollectionCounters& c) override {
    Log("counters");
    writer_->OnCounters(c);
  }
  void Flush() override {
    Log("flush");
    writer_->Flush();
  }
  Status Close() {
    Log("close");
    return writer_->Close();
  }

 private:
  void Log(const char* what) { AppendEvent(events_path_, std::string("sink ") + what); }
  std::unique_ptr<store::ReportWriter> writer_;
  std::string events_path_;
};

std::vector<std::pair<long, std::string>> ReadEvents(const std::string& path) {
  std::vector<std::pair<long, std::string>> events;
  std::ifstream in(path);
  long pid = 0;
  std::string what;
  while (in >> pid && std::getline(in, what)) events.emplace_back(pid, what.substr(1));
  return events;
}

// The traced program forks a child (no exec) that exits normally, running the atexit
// handlers it inherited. The child must touch neither the report nor the backend; the
// parent's report, finished at its own exit, holds everything.
TEST_F(SessionTest, AForkedChildThatExitsNormallyLeavesTheReportToItsParent) {
  const std::string events = dir_.path() + "/events";
  const std::string report = dir_.path() + "/forked.sqlite";
  const std::string child_pid_file = dir_.path() + "/child_pid";
  std::fflush(nullptr);
  const pid_t program = fork();
  ASSERT_GE(program, 0);
  if (program == 0) {
    // The traced program: a process of its own, since the hooks are process-wide.
    log_.events_path = events;
    log_.kernels_per_flush = 2;
    InjectionConfig config = Config();
    config.report_pattern = report;
    config.quiet = true;
    SinkFactory factory;
    factory.create = [&](const std::string& path,
                         bool overwrite) -> StatusOr<std::unique_ptr<model::RecordSink>> {
      auto writer = store::ReportWriter::Create(path, overwrite);
      if (!writer.ok()) return writer.status();
      return std::unique_ptr<model::RecordSink>(new EventLoggingReport(std::move(*writer), events));
    };
    factory.close = [](model::RecordSink& sink) {
      return static_cast<EventLoggingReport&>(sink).Close();
    };
    std::unique_ptr<Session> session =
        Session::Begin(config, std::make_unique<FakeBackend>(log_), factory);
    if (!session) _exit(10);
    Session* traced = session.release();  // as in InitializeInjection: lives until exit
    if (!InstallProcessHooks(traced).ok()) _exit(11);
    // Two kernels committed before the fork, as a SIGINT the program survives would.
    const char request = Flusher::kSignalProcessContinues;
    if (write(traced->flusher().wake_fd(), &request, 1) != 1) _exit(12);
    pollfd done{traced->flusher().done_fd(), POLLIN, 0};
    if (poll(&done, 1, 5000) != 1) _exit(13);
    const pid_t child = fork();
    if (child == 0) std::exit(0);  // a normal exit: atexit handlers and destructors run
    std::ofstream(child_pid_file) << child;
    int child_status = 0;
    if (waitpid(child, &child_status, 0) != child || !WIFEXITED(child_status) ||
        WEXITSTATUS(child_status) != 0) {
      _exit(14);
    }
    std::exit(0);  // the program's own exit finishes its report
  }
  int status = 0;
  ASSERT_EQ(waitpid(program, &status, 0), program);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);

  long child = 0;
  std::ifstream(child_pid_file) >> child;
  ASSERT_GT(child, 0);
  bool parent_closed = false;
  bool parent_forced_flush = false;
  for (const auto& [pid, what] : ReadEvents(events)) {
    EXPECT_NE(pid, child) << "the forked child called: " << what;
    if (pid == program && what == "sink close") parent_closed = true;
    if (pid == program && what == "backend forced flush") parent_forced_flush = true;
  }
  EXPECT_TRUE(parent_forced_flush);
  EXPECT_TRUE(parent_closed);

  StatusOr<std::unique_ptr<store::ReportReader>> opened = store::ReportReader::Open(report);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  const store::ReportReader& reader = **opened;
  EXPECT_EQ(reader.process().pid, static_cast<std::uint32_t>(program));
  EXPECT_TRUE(reader.finalized()) << "closed by the parent at its exit";
  int periodic = 0;
  int final = 0;
  ASSERT_TRUE(reader
                  .ForEachKernel([&](const store::KernelRow& row) {
                    const std::string name(row.record.mangled_name);
                    if (name == "periodic_kernel") ++periodic;
                    if (name == "final_kernel") ++final;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(periodic, 2);
  EXPECT_EQ(final, 1);
}

TEST(LateRecordsMessageTest, CountsInWords) {
  EXPECT_EQ(LateRecordsMessage(1, ""),
            "1 record arrived after the report was closed and is not in it");
  EXPECT_EQ(LateRecordsMessage(12, "10 cuLibraryUnload, 2 memcpy"),
            "12 records arrived after the report was closed and are not in it: "
            "10 cuLibraryUnload, 2 memcpy");
}

Collector* g_late_collector = nullptr;

// What the CUDA runtime's teardown does after our exit handler: CUPTI hands over one more
// buffer with two kernels.
void DeliverLateBuffer() {
  std::uint8_t* buffer = nullptr;
  std::size_t size = 0, max_records = 0;
  g_late_collector->OnBufferRequested(&buffer, &size, &max_records);
  if (buffer == nullptr) return;
  CuptiRecordWriter writer(buffer, size);
  writer.Kernel().name = "late_kernel";
  writer.Kernel().name = "late_kernel";
  g_late_collector->OnBufferCompleted(buffer, writer.used());
}

TEST_F(SessionTest, RecordsArrivingAfterTheReportClosedAreCountedAtTheVeryEnd) {
  const std::string err_path = dir_.path() + "/stderr";
  std::fflush(nullptr);
  const pid_t program = fork();
  ASSERT_GE(program, 0);
  if (program == 0) {
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err < 0 || dup2(err, STDERR_FILENO) < 0) _exit(10);
    // Registered before our exit handler, so it runs after it, as CUDA's teardown does.
    std::atexit(DeliverLateBuffer);
    InjectionConfig config = Config();
    config.quiet = true;
    std::unique_ptr<Session> session = Begin(config);
    if (!session) _exit(11);
    g_late_collector = &session->collector();
    if (!InstallProcessHooks(session.release()).ok()) _exit(12);
    std::exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(program, &status, 0), program);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const std::string err = ReadWholeFile(err_path);
  const std::string expected = "==" + std::to_string(program) +
                               "== gpuscope: 2 records arrived after the report was closed and "
                               "are not in it: 2 kernel late_kernel\n";
  ASSERT_GE(err.size(), expected.size()) << err;
  EXPECT_EQ(err.substr(err.size() - expected.size()), expected) << "the last line:\n" << err;
}

}  // namespace
}  // namespace gpuscope::inject::testing
