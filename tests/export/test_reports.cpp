#include "test_reports.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "store/testing/devices.h"
#include "store/testing/report_builder.h"
#include "store/testing/synthetic_trace.h"

namespace gpuscope::exporter::testing {

void WriteRichReport(const std::string& path) {
  using model::ApiDomain;
  using model::NvtxKind;
  using store::testing::ApiSpec;
  const ApiSpec driver_in_runtime = {.domain = ApiDomain::kDriver, .nested_in_runtime = true};
  // Every kernel of the report: 4 blocks of 256 threads, 32 registers.
  auto launch = [](std::string_view name, std::uint32_t stream, std::uint32_t correlation) {
    return store::testing::KernelSpec{.name = name,
                                      .stream = stream,
                                      .correlation = correlation,
                                      .grid = {4, 1, 1},
                                      .block = {256, 1, 1},
                                      .registers_per_thread = 32};
  };

  store::testing::ReportBuilder report(path, {.origin = kRichStart,
                                              .pid = kRichPid,
                                              .thread_id = kRichThread,
                                              .command_line = "./app --name=\"a,b\"",
                                              .hostname = "node\"1",
                                              .overwrite = true});
  ASSERT_TRUE(report.status().ok()) << report.status().message();
  report.Write(store::testing::H200());

  report.Api("cudaMalloc", 0, 1000, 1);
  report.Api("cuMemAlloc_v2", 100, 800, 2, driver_in_runtime);
  report.Memory(model::MemoryOp::kAlloc, 500, 0x1000, 1 << 20, 2);
  report.Api("cudaLaunchKernel", 2000, 1000, 3);
  report.Api("cudaLaunchKernel", 3000, 500, 4);
  report.Kernel(4000, 3424, launch("_Z3addiiPi", 7, 3));
  report.Kernel(5000, 1000, launch(kHostileKernel, 13, 4));
  report.Api("cudaMemcpy", 8000, 12000, 5);
  report.Api("cuMemcpyDtoH_v2", 8100, 10900, 6, driver_in_runtime);
  report.Copy(10000, 2656,
              {.kind = model::CopyKind::kDtoH,
               .host = model::MemoryKind::kPageable,
               .is_async = false,
               .bytes = 4,
               .stream = 7,
               .correlation = 6,
               .runtime_correlation = 5});
  report.Api("cudaMemset", 21000, 1000, 7);
  report.Memset(23000, 500,
                {.is_async = false,
                 .bytes = 64,
                 .stream = 7,
                 .memory_kind = model::MemoryKind::kUnknown,
                 .correlation = 7});
  report.Range(NvtxKind::kPushPopRange, "outer", 0, 50000, {.id = 1});
  report.Range(NvtxKind::kPushPopRange, "inner", 1000, 29000, {.id = 2});
  report.Mark("tick", 25000, {.id = 3});
  report.Range(NvtxKind::kStartEndRange, kHostileRange, 40000, 20000, {.id = 4});
  report.OpenRange(NvtxKind::kPushPopRange, "open", 70000, {.id = 5});
  report.UntimedKernel(launch("_Z3addiiPi", 7, 8));
  report.Memory(model::MemoryOp::kFree, 90000, 0x1000, 0, 2);
  model::CollectionCounters counters;
  counters.kernels_without_timestamp = 1;
  counters.unfinished_nvtx_ranges = 1;
  report.Write(counters);
  Status closed = report.Close();
  ASSERT_TRUE(closed.ok()) << closed.message();
}

void WriteSyntheticReport(const std::string& path, std::uint64_t kernels) {
  store::testing::SyntheticTraceOptions options;
  options.kernels = kernels;
  options.flush_every_kernels = 100000;
  Status written = store::testing::WriteSyntheticReport(path, options);
  ASSERT_TRUE(written.ok()) << written.message();
}

void ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "") << "\n" << sql;
  sqlite3_free(error);
  sqlite3_close(db);
}

}  // namespace gpuscope::exporter::testing
