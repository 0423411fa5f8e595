#include "inject/api_nesting.h"

#include <gtest/gtest.h>

#include "recording_sink.h"

namespace gpuscope::inject {
namespace {

using testing::RecordingSink;

model::ApiCallRecord Call(model::ApiDomain domain, std::string_view name, model::Timestamp start,
                          model::Timestamp end, std::uint32_t thread = 1) {
  model::ApiCallRecord r;
  r.domain = domain;
  r.name = name;
  r.start = start;
  r.end = end;
  r.thread_id = thread;
  r.process_id = 99;
  return r;
}
constexpr auto kRuntime = model::ApiDomain::kRuntime;
constexpr auto kDriver = model::ApiDomain::kDriver;

bool NestedFlagOf(const RecordingSink& sink, std::string_view name) {
  for (const auto& call : sink.api_calls) {
    if (call.name == name) return call.nested;
  }
  ADD_FAILURE() << name << " was not written";
  return false;
}

TEST(ApiNestingTest, DriverCallsInsideARuntimeCallAreNested) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  // Completion order, as CUPTI writes them: the nested calls finish first.
  nesting.OnApiCall(Call(kDriver, "cuCtxGetCurrent", 110, 120));
  nesting.OnApiCall(Call(kDriver, "cuMemAlloc", 130, 190));
  EXPECT_TRUE(sink.api_calls.empty()) << "driver calls wait for the runtime call";
  nesting.OnApiCall(Call(kRuntime, "cudaMalloc", 100, 200));
  ASSERT_EQ(sink.api_calls.size(), 3u);
  EXPECT_TRUE(NestedFlagOf(sink, "cuCtxGetCurrent"));
  EXPECT_TRUE(NestedFlagOf(sink, "cuMemAlloc"));
  EXPECT_FALSE(NestedFlagOf(sink, "cudaMalloc"));
}

TEST(ApiNestingTest, DriverCallsBeforeTheRuntimeCallAreTheProgramsOwn) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  nesting.OnApiCall(Call(kRuntime, "cudaFree", 10, 20));
  nesting.OnApiCall(Call(kDriver, "cuStreamQuery", 30, 35));   // the program's own
  nesting.OnApiCall(Call(kDriver, "cuLaunchKernel", 45, 60));  // inside cudaLaunchKernel
  nesting.OnApiCall(Call(kRuntime, "cudaLaunchKernel", 40, 70));
  ASSERT_EQ(sink.api_calls.size(), 4u);
  EXPECT_FALSE(NestedFlagOf(sink, "cuStreamQuery"));
  EXPECT_TRUE(NestedFlagOf(sink, "cuLaunchKernel"));
}

TEST(ApiNestingTest, FirstRuntimeCallOfAThreadClaimsTheRuntimeInitialisation) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  // cudaMalloc as the first call: the runtime initialises itself with driver calls.
  nesting.OnApiCall(Call(kDriver, "cuDevicePrimaryCtxRetain", 1010, 50000));
  nesting.OnApiCall(Call(kDriver, "cuModuleGetFunction", 50010, 50020));
  nesting.OnApiCall(Call(kRuntime, "cudaMalloc", 1000, 60000));
  EXPECT_TRUE(NestedFlagOf(sink, "cuDevicePrimaryCtxRetain"));
  EXPECT_TRUE(NestedFlagOf(sink, "cuModuleGetFunction"));
}

// Measured on CUDA 13 / H200 (launch_loop): cuKernelGetName ends 222 ns before each
// cudaLaunchKernel starts; the first launch of a kernel also loads its library.
TEST(ApiNestingTest, TheRuntimesPrologueCallsCountAsNested) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  nesting.OnApiCall(Call(kDriver, "cuLibraryLoadData", 244'859'590, 244'951'502));
  nesting.OnApiCall(Call(kDriver, "cuLibraryGetKernel", 244'952'551, 244'952'762));
  nesting.OnApiCall(Call(kDriver, "cuKernelGetName", 244'958'773, 244'959'264));
  nesting.OnApiCall(Call(kRuntime, "cudaLaunchKernel", 244'959'974, 245'069'557));
  nesting.OnApiCall(Call(kRuntime, "cudaGetLastError", 245'071'054, 245'072'073));
  nesting.OnApiCall(Call(kDriver, "cuKernelGetName", 245'072'624, 245'072'828));
  nesting.OnApiCall(Call(kRuntime, "cudaLaunchKernel", 245'073'050, 245'080'528));
  ASSERT_EQ(sink.api_calls.size(), 7u);
  for (const auto& call : sink.api_calls) {
    if (call.record.domain == kDriver) {
      EXPECT_TRUE(call.nested) << call.name;
    }
  }
}

// Measured on the H100 (tests/data/reports/h100_add.sqlite, the program's only launch): the
// chain's links are 1.1 and 11 us apart while the kernel's module loads, past the 10 us that
// holds before other runtime calls; before a launch the chain still belongs to it.
TEST(ApiNestingTest, AFirstLaunchsPrologueStaysTheRuntimesWhileItsModuleLoads) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  nesting.OnApiCall(Call(kDriver, "cuLibraryLoadData", 242'776'737, 242'846'575));
  nesting.OnApiCall(Call(kDriver, "cuLibraryGetKernel", 242'847'668, 242'847'842));
  nesting.OnApiCall(Call(kDriver, "cuKernelGetName", 242'858'901, 242'859'675));
  nesting.OnApiCall(Call(kRuntime, "cudaLaunchKernel", 242'860'522, 242'966'623));
  EXPECT_TRUE(NestedFlagOf(sink, "cuLibraryLoadData"));
  EXPECT_TRUE(NestedFlagOf(sink, "cuLibraryGetKernel"));
  EXPECT_TRUE(NestedFlagOf(sink, "cuKernelGetName"));
  // Before any other runtime call the links must be close: 11 us apart they are the program's.
  RecordingSink sink2;
  ApiNesting nesting2(sink2);
  nesting2.OnApiCall(Call(kDriver, "cuLibraryGetKernel", 1'000, 1'200));
  nesting2.OnApiCall(Call(kDriver, "cuKernelGetName", 12'300, 12'500));
  nesting2.OnApiCall(Call(kRuntime, "cudaMemcpy", 13'000, 20'000));
  EXPECT_FALSE(NestedFlagOf(sink2, "cuLibraryGetKernel"));
  EXPECT_TRUE(NestedFlagOf(sink2, "cuKernelGetName"));
}

TEST(ApiNestingTest, PrologueNamesFarFromTheRuntimeCallAreTheProgramsOwn) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  // The program asks for a kernel's name itself, 1 ms before its next runtime call.
  nesting.OnApiCall(Call(kDriver, "cuKernelGetName", 1'000'000, 1'000'500));
  // A driver call that is not a runtime prologue call, right before a runtime call.
  nesting.OnApiCall(Call(kDriver, "cuDevicePrimaryCtxGetState", 2'000'000, 2'000'100));
  nesting.OnApiCall(Call(kRuntime, "cudaGetDevice", 2'000'300, 2'000'400));
  EXPECT_FALSE(NestedFlagOf(sink, "cuKernelGetName"));
  EXPECT_FALSE(NestedFlagOf(sink, "cuDevicePrimaryCtxGetState"));
  // A prologue chain is broken by a call that is not part of it.
  RecordingSink sink2;
  ApiNesting nesting2(sink2);
  nesting2.OnApiCall(Call(kDriver, "cuKernelGetName", 100, 200));
  nesting2.OnApiCall(Call(kDriver, "cuCtxGetCurrent", 300, 400));
  nesting2.OnApiCall(Call(kRuntime, "cudaLaunchKernel", 500, 900));
  EXPECT_FALSE(NestedFlagOf(sink2, "cuKernelGetName"));
  EXPECT_FALSE(NestedFlagOf(sink2, "cuCtxGetCurrent"));
}

TEST(ApiNestingTest, ThreadsAreIndependent) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  nesting.OnApiCall(Call(kDriver, "cuMemcpyHtoD", 150, 160, /*thread=*/2));  // thread 2's own
  nesting.OnApiCall(Call(kDriver, "cuMemAlloc", 120, 130, /*thread=*/1));
  nesting.OnApiCall(Call(kRuntime, "cudaMalloc", 100, 200, /*thread=*/1));
  EXPECT_TRUE(NestedFlagOf(sink, "cuMemAlloc"));
  EXPECT_EQ(sink.api_calls.size(), 2u) << "thread 2's call is not decided by thread 1's runtime";
  nesting.Finish();
  ASSERT_EQ(sink.api_calls.size(), 3u);
  EXPECT_FALSE(NestedFlagOf(sink, "cuMemcpyHtoD"));
}

// The first cudaMalloc creating the context on a big host: its record arrives after
// seconds of internal driver calls, which are all still nested in it.
TEST(ApiNestingTest, ARuntimeCallLongerThanASecondKeepsItsEarlyDriverCalls) {
  RecordingSink sink;
  ApiNesting nesting(sink);  // production limits
  constexpr model::Timestamp kSecond = 1'000'000'000;
  nesting.OnApiCall(Call(kDriver, "cuCtxCreate", 1000, 2000));
  nesting.OnApiCall(Call(kDriver, "cuModuleLoadData", 3 * kSecond, 3 * kSecond + 10));
  nesting.ExpireOlderThan(3 * kSecond + 10);  // a commit in the middle of it
  EXPECT_TRUE(sink.api_calls.empty()) << "held while the runtime call may still be running";
  nesting.OnApiCall(Call(kRuntime, "cudaMalloc", 500, 4 * kSecond));
  ASSERT_EQ(sink.api_calls.size(), 3u);
  EXPECT_TRUE(NestedFlagOf(sink, "cuCtxCreate")) << "3 s older than the newest: still nested";
  EXPECT_TRUE(NestedFlagOf(sink, "cuModuleLoadData"));
  EXPECT_FALSE(NestedFlagOf(sink, "cudaMalloc"));
}

// Numba: no runtime call ever comes; the driver calls reach the report at the quiet-thread
// horizon, judged at commits against the newest record of the process.
TEST(ApiNestingTest, PureDriverProgramsFlowOutAtTheQuietThreadHorizon) {
  RecordingSink sink;
  ApiNestingLimits limits;
  limits.quiet_thread_age_ns = 1000;
  ApiNesting nesting(sink, limits);
  nesting.OnApiCall(Call(kDriver, "cuInit", 0 + 10, 20));
  nesting.OnApiCall(Call(kDriver, "cuLaunchKernel", 500, 510));
  nesting.OnApiCall(Call(kDriver, "cuCtxSynchronize", 1200, 1300));
  EXPECT_TRUE(sink.api_calls.empty()) << "newer calls of the thread alone expire nothing";
  nesting.ExpireOlderThan(1300);  // cuInit is now > 1000 old
  ASSERT_EQ(sink.api_calls.size(), 1u);
  EXPECT_EQ(sink.api_calls[0].name, "cuInit");
  EXPECT_FALSE(sink.api_calls[0].nested);
  EXPECT_EQ(nesting.pending(), 2u);
}

TEST(ApiNestingTest, HeldRecordsAreBoundedInNumber) {
  RecordingSink sink;
  ApiNestingLimits limits;
  limits.max_pending_per_thread = 100;
  ApiNesting nesting(sink, limits);
  for (int i = 0; i < 10'000; ++i) {
    nesting.OnApiCall(Call(kDriver, "cuLaunchKernel", 1000 + i, 1000 + i + 1));
    ASSERT_LE(nesting.pending(), 100u);
  }
  EXPECT_EQ(sink.api_calls.size(), 9'900u);
  for (std::size_t i = 1; i < sink.api_calls.size(); ++i) {
    ASSERT_LT(sink.api_calls[i - 1].record.start, sink.api_calls[i].record.start)
        << "records leave in order";
  }
  nesting.Finish();
  EXPECT_EQ(sink.api_calls.size(), 10'000u);
  EXPECT_EQ(nesting.pending(), 0u);
}

TEST(ApiNestingTest, QuietThreadsAreWrittenOnceTheProcessMovesOn) {
  RecordingSink sink;
  ApiNestingLimits limits;
  limits.quiet_thread_age_ns = 5000;
  ApiNesting nesting(sink, limits);
  nesting.OnApiCall(Call(kDriver, "cuMemGetInfo", 100, 110, /*thread=*/3));
  nesting.ExpireOlderThan(4000);
  EXPECT_TRUE(sink.api_calls.empty());
  nesting.ExpireOlderThan(6000);
  ASSERT_EQ(sink.api_calls.size(), 1u);
  EXPECT_FALSE(sink.api_calls[0].nested);
}

TEST(ApiNestingTest, FieldsPassThroughUnchanged) {
  RecordingSink sink;
  ApiNesting nesting(sink);
  model::ApiCallRecord call = Call(kRuntime, "cudaMemcpy", 5, 9, 77);
  call.cbid = 31;
  call.correlation_id = 1234;
  call.return_value = 700;
  nesting.OnApiCall(call);
  ASSERT_EQ(sink.api_calls.size(), 1u);
  const auto& written = sink.api_calls[0].record;
  EXPECT_EQ(written.cbid, 31u);
  EXPECT_EQ(written.correlation_id, 1234u);
  EXPECT_EQ(written.return_value, 700);
  EXPECT_EQ(written.thread_id, 77u);
  EXPECT_EQ(written.process_id, 99u);
  EXPECT_EQ(written.start, 5u);
  EXPECT_EQ(written.end, 9u);
}

}  // namespace
}  // namespace gpuscope::inject
