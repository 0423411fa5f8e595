// `--api-capture callback` without a GPU: CUpti_CallbackData filled as CUPTI fills it, handed
// to the production callback path (cupti::OnApiCallback), drained as the flusher drains it,
// through the production collector and translator into a sink or a real report, and read back
// by the nvprof summary and cuda_api_sum.
//
// The capture's state is per thread and per process (as in the traced process), so each test
// runs its calls on a thread of its own; BeginApiCallbackCapture marks the thread it runs on
// as the one inside cuInit.
#include <cupti.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <future>
#include <map>
#include <memory>
#include <string>
#include <chrono>
#include <thread>
#include <vector>

#include "analysis/nvprof_summary_reports.h"
#include "analysis/stats_reports.h"
#include "collector_fixture.h"
#include "cupti/tracing/api_callback_capture.h"
#include "recording_sink.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/trace_scope_rows.h"
#include "temp_dir.h"

namespace gpuscope::inject::testing {
namespace {

// One thread's calls, as CUPTI calls back for them: enter, nested calls, exit.
class Caller {
 public:
  // A call with `inside` made from within it (the runtime's driver calls).
  void Call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, std::uint32_t correlation,
            const std::function<void()>& inside = {}, int result = 0) {
    Enter(domain, cbid, correlation);
    if (inside) inside();
    Exit(domain, cbid, correlation, result);
  }
  void Enter(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, std::uint32_t correlation) {
    CUpti_CallbackData data = Data(domain, cbid, correlation, CUPTI_API_ENTER);
    cupti::OnApiCallback(domain, cbid, data);
  }
  // The exit alone: a call whose enter came before the capture began.
  void Exit(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, std::uint32_t correlation,
            int result = 0) {
    result_ = result;
    CUpti_CallbackData data = Data(domain, cbid, correlation, CUPTI_API_EXIT);
    data.functionReturnValue = &result_;
    cupti::OnApiCallback(domain, cbid, data);
  }
  void Runtime(CUpti_CallbackId cbid, std::uint32_t correlation,
               const std::function<void()>& inside = {}, int result = 0) {
    Call(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, correlation, inside, result);
  }
  void Driver(CUpti_CallbackId cbid, std::uint32_t correlation,
              const std::function<void()>& inside = {}) {
    Call(CUPTI_CB_DOMAIN_DRIVER_API, cbid, correlation, inside);
  }

 private:
  static CUpti_CallbackData Data(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 std::uint32_t correlation, CUpti_ApiCallbackSite site) {
    CUpti_CallbackData data{};
    data.callbackSite = site;
    data.functionName = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime_v3020" : "driver";
    data.correlationId = correlation;
    (void)cbid;
    return data;
  }
  int result_ = 0;
};

std::uint32_t ThisThreadId() { return static_cast<std::uint32_t>(syscall(SYS_gettid)); }

// Runs `calls` on a new thread (whose capture state starts empty) and returns its id.
std::uint32_t OnNewThread(const std::function<void(Caller&)>& calls) {
  std::uint32_t id = 0;
  std::thread thread([&] {
    id = ThisThreadId();
    Caller caller;
    calls(caller);
  });
  thread.join();
  return id;
}

// The calls of the capture's starting thread: its first driver calls are held until it is
// known whether they ran inside the runtime call that initialised CUDA.
void BeginOnNewThread(const std::function<void(Caller&)>& calls) {
  OnNewThread([&](Caller& caller) {
    cupti::BeginApiCallbackCapture(/*recording=*/true);
    calls(caller);
  });
}

// A launch as the runtime makes it: cudaLaunchKernel, inside it the driver's prologue and
// cuLaunchKernel.
void Launch(Caller& caller, std::uint32_t correlation) {
  caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, correlation, [&] {
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, correlation + 1);
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, correlation + 2);
  });
}

std::map<std::string, int> CountByName(const RecordingSink& sink) {
  std::map<std::string, int> counts;
  for (const ApiCall& call : sink.api_calls) ++counts[call.name];
  return counts;
}

TEST(ApiCallbackCapture, RecordsTheProgramsCallsAndCountsTheHotOnes) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  BeginOnNewThread([](Caller&) {});  // a starting thread that made no call of its own
  std::uint32_t thread = OnNewThread([](Caller& caller) {
    caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 10, [&] {
      caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 11);  // the runtime's: not counted
      caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 12);
    });
    Launch(caller, 20);
    Launch(caller, 30);
    for (int i = 0; i < 5; ++i) caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 40 + i);
    for (int i = 0; i < 3; ++i) caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 50 + i);
    // A driver call the program makes itself (Numba, CuPy): recorded, top-level.
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 60);
    caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 70, {}, /*result=*/1);
  });
  cupti::DrainCapturedApiCalls(/*final=*/false);
  harness.Commit();

  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cudaMalloc", 1},
                                                            {"cudaLaunchKernel", 2},
                                                            {"cuMemAlloc", 1},
                                                            {"cudaMemcpy", 1}}));
  std::map<std::uint32_t, const ApiCall*> by_correlation;
  for (const ApiCall& call : sink.api_calls) {
    EXPECT_FALSE(call.nested) << call.name << ": only the program's calls are recorded";
    EXPECT_EQ(call.record.thread_id, thread);
    EXPECT_EQ(call.record.process_id, static_cast<std::uint32_t>(getpid()));
    EXPECT_LE(call.record.start, call.record.end);
    EXPECT_GT(call.record.start, 0u);
    by_correlation[call.record.correlation_id] = &call;
  }
  // Kernels join their launch by the runtime call's correlation id.
  ASSERT_TRUE(by_correlation.count(20));
  EXPECT_EQ(by_correlation[20]->name, "cudaLaunchKernel");
  EXPECT_EQ(by_correlation[20]->record.domain, model::ApiDomain::kRuntime);
  ASSERT_TRUE(by_correlation.count(60));
  EXPECT_EQ(by_correlation[60]->record.domain, model::ApiDomain::kDriver);
  ASSERT_TRUE(by_correlation.count(70));
  EXPECT_EQ(by_correlation[70]->record.return_value, 1);

  std::map<std::string, std::uint64_t> counted;
  for (const auto& count : sink.api_call_counts) {
    EXPECT_EQ(count.record.thread_id, thread);
    EXPECT_LE(count.record.min_ns, count.record.max_ns);
    EXPECT_LE(count.record.first_start, count.record.last_end);
    counted[count.text] += count.record.calls;
  }
  EXPECT_EQ(counted, (std::map<std::string, std::uint64_t>{{"cudaGetDevice", 5},
                                                            {"cuCtxGetCurrent", 3}}));
}

TEST(ApiCallbackCapture, DropsTheDriverCallsOfTheRuntimeCallThatInitialisedCuda) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  BeginOnNewThread([](Caller& caller) {
    // Inside cudaFree(0), whose enter came before the capture: cuInit returns, then the
    // runtime creates the context.
    caller.Exit(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuInit, 1);
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain, 2);
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 3);
    caller.Exit(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, 4);
    caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 5);
  });
  cupti::DrainCapturedApiCalls(/*final=*/false);
  harness.Commit();
  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cudaFree", 1}, {"cudaMalloc", 1}}));
  EXPECT_TRUE(sink.api_call_counts.empty());
}

// On CUDA 13 the runtime calls cuKernelGetName just before its launch call's own callbacks,
// at depth 0 (seen on the H200: 2,000 cuKernelGetName counted as the program's in 2,000
// launches). A prologue call followed at once by a runtime call is the runtime's and is taken
// back; one the program follows with a driver call of its own stays.
TEST(ApiCallbackCapture, TheRuntimesPrologueBeforeALaunchIsNotTheProgramsCall) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  BeginOnNewThread([](Caller&) {});
  OnNewThread([](Caller& caller) {
    for (std::uint32_t i = 0; i < 3; ++i) {
      caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, 100 + 10 * i);
      caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 101 + 10 * i, [&] {
        caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 102 + 10 * i);
      });
    }
    // The program's own (a Numba-like driver program): no runtime call follows.
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, 200);
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 201);
  });
  cupti::DrainCapturedApiCalls(/*final=*/false);
  harness.Commit();
  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cudaLaunchKernel", 3},
                                                            {"cuKernelGetName", 1},
                                                            {"cuLaunchKernel", 1}}));
}

// A kernel's first launch: the runtime loads its module (lazy loading) between its prologue and
// the launch's own callback, hundreds of microseconds (one cuKernelGetName of 2,000 launches
// stayed the program's on the H100). Before a launch the prologue may be that far; before any
// other runtime call the gap stays short.
TEST(ApiCallbackCapture, AFirstLaunchsPrologueIsTheRuntimesDespiteTheModuleLoadBetween) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  BeginOnNewThread([](Caller&) {});
  OnNewThread([](Caller& caller) {
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, 100);
    std::this_thread::sleep_for(std::chrono::microseconds(500));  // the module's lazy load
    caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 101, [&] {
      caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 102);
    });
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, 200);  // the program's own
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 201, [] {});
  });
  cupti::DrainCapturedApiCalls(/*final=*/false);
  harness.Commit();
  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cudaLaunchKernel", 1},
                                                            {"cuKernelGetName", 1},
                                                            {"cudaMemcpy", 1}}));
}

TEST(ApiCallbackCapture, KeepsTheDriverCallsOfADriverProgram) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  std::promise<void> called, checked;
  std::thread program([&] {  // alive until the checks are done, as a program's main thread
    Caller caller;
    cupti::BeginApiCallbackCapture(/*recording=*/true);
    caller.Exit(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuInit, 1);  // its own cuInit
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain, 2);
    caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 3);
    called.set_value();
    checked.get_future().wait();
  });
  called.get_future().wait();
  // Held until something tells them apart; at the end of the process they are the program's.
  cupti::DrainCapturedApiCalls(/*final=*/false);
  harness.Commit();
  EXPECT_TRUE(sink.api_calls.empty());
  cupti::DrainCapturedApiCalls(/*final=*/true);
  harness.Commit();
  checked.set_value();
  program.join();
  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cuInit", 1},
                                                            {"cuDevicePrimaryCtxRetain", 1},
                                                            {"cuMemAlloc", 1}}));
}

TEST(ApiCallbackCapture, AFullThreadBufferIsHandedOverByItsThread) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  BeginOnNewThread([](Caller&) {});
  constexpr int kLaunches = 20'000;  // more than two thread buffers
  OnNewThread([](Caller& caller) {
    for (int i = 0; i < kLaunches; ++i) Launch(caller, 100 + 3 * i);
  });  // the thread's end drains the rest
  harness.Commit();
  EXPECT_EQ(CountByName(sink), (std::map<std::string, int>{{"cudaLaunchKernel", kLaunches}}));
  EXPECT_EQ(cupti::CapturedApiCallsLost(), 0u);
}

TEST(ApiCallbackCapture, CountedCallsReachTheSummaryAndCudaApiSum) {
  TempDir dir;
  const std::string path = dir.path() + "/report.sqlite";
  {
    StatusOr<std::unique_ptr<store::ReportWriter>> writer = store::ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    CollectorHarness harness(**writer);
    BeginOnNewThread([](Caller&) {});
    auto program = [](Caller& caller) {
      Launch(caller, 10);
      for (int i = 0; i < 7; ++i) caller.Runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 20);
      caller.Driver(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 30);
    };
    OnNewThread(program);
    cupti::DrainCapturedApiCalls(/*final=*/false);
    harness.Commit();
    OnNewThread(program);  // a second thread: the counts add up across threads and drains
    harness.Finish();
    ASSERT_TRUE((*writer)->Close().ok());
  }
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();

  StatusOr<std::vector<store::ApiCallCountRow>> rows = store::ReadApiCallCounts(**report);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  std::uint64_t counted = 0;
  for (const store::ApiCallCountRow& row : *rows) counted += row.record.calls;
  EXPECT_EQ(counted, 16u) << "one row per thread and function, 2 x (7 + 1) calls";

  const analysis::Reports reports = {report->get()};
  StatusOr<analysis::NvprofSummary> summary = analysis::SummarizeReports(reports, {});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  std::map<std::string, std::uint64_t> calls;
  for (const analysis::SummaryRow& row : summary->api_calls) calls[row.name] = row.time.count;
  EXPECT_EQ(calls, (std::map<std::string, std::uint64_t>{
                       {"cudaLaunchKernel", 2}, {"cudaGetDevice", 14}, {"cuCtxGetCurrent", 2}}));

  StatusOr<analysis::StatsTable> table = analysis::BuildStatsReport("cuda_api_sum", reports, {});
  ASSERT_TRUE(table.ok()) << table.status().message();
  std::map<std::string, std::uint64_t> table_calls;
  for (const auto& row : table->rows) {
    table_calls[row.back().text] = row[2].integer;
    const bool counted = row.back().text != "cudaLaunchKernel";
    EXPECT_EQ(row[4].empty, counted) << row.back().text << ": a counted call has no median";
  }
  EXPECT_EQ(table_calls, calls);
}

}  // namespace
}  // namespace gpuscope::inject::testing

namespace gpuscope::inject::testing {
namespace {

// --cuda-graph-trace graph: CUPTI's GRAPH_TRACE record through the production translator and
// writer, read back with the scope the process recorded.
TEST(GraphTraceAndScope, AGraphLaunchRecordAndTheScopeReachTheReport) {
  TempDir dir;
  const std::string path = dir.path() + "/report.sqlite";
  {
    StatusOr<std::unique_ptr<store::ReportWriter>> writer = store::ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    CollectorOptions options = SmallCollectorOptions();
    options.nvtx_start_end_ids = nullptr;
    Collector collector(**writer, std::make_unique<cupti::ActivityTranslator>(), options);
    ProcessDescription process = TestProcess();
    process.trace = "cuda";
    process.api_capture = "callback";
    process.cuda_graph_trace = "graph";
    ASSERT_TRUE(collector.Start(process).ok());
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0, max_records = 0;
    collector.OnBufferRequested(&buffer, &size, &max_records);
    ASSERT_NE(buffer, nullptr);
    CuptiRecordWriter records(buffer, size);
    CUpti_ActivityGraphTrace2& graph =
        records.Add<CUpti_ActivityGraphTrace2>(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
    graph.start = 2'000'000;
    graph.end = 2'050'000;
    graph.deviceId = 0;
    graph.contextId = 1;
    graph.streamId = 13;
    graph.correlationId = 77;
    graph.graphId = 5;
    collector.OnBufferCompleted(buffer, records.used());
    ASSERT_TRUE(collector.Finish(std::chrono::seconds(10)));
    ASSERT_TRUE((*writer)->Close().ok());
  }
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();
  StatusOr<std::vector<model::GraphLaunchRecord>> graphs = store::ReadGraphLaunches(**report);
  ASSERT_TRUE(graphs.ok()) << graphs.status().message();
  ASSERT_EQ(graphs->size(), 1u);
  EXPECT_EQ((*graphs)[0].start, 2'000'000u);
  EXPECT_EQ((*graphs)[0].end, 2'050'000u);
  EXPECT_EQ((*graphs)[0].stream_id, 13u);
  EXPECT_EQ((*graphs)[0].correlation_id, 77u);
  EXPECT_EQ((*graphs)[0].graph_id, 5u);

  StatusOr<store::RecordedScope> scope = store::ReadRecordedScope(**report);
  ASSERT_TRUE(scope.ok());
  EXPECT_TRUE(scope->recorded);
  EXPECT_EQ(scope->trace, "cuda");
  EXPECT_EQ(scope->api_capture, "callback");
  EXPECT_EQ(scope->cuda_graph_trace, "graph");
  EXPECT_TRUE(scope->TracedCudaApi());
  EXPECT_FALSE(scope->TracedNvtx());
}

}  // namespace
}  // namespace gpuscope::inject::testing
