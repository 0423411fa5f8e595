#include "sample_report.h"

#include <gtest/gtest.h>

#include "store/testing/report_builder.h"

namespace gpuscope::cli::testing {

void WriteAddProgramReport(const std::string& path, std::uint32_t pid,
                           const model::CollectionCounters& losses) {
  store::testing::ReportBuilder report(path, {.pid = pid, .command_line = "./sample"});
  ASSERT_TRUE(report.status().ok()) << report.status().message();
  report.Api("cudaMalloc", 0, 165'860'000, 1);
  report.Api("cudaLaunchKernel", 170'000'000, 20'007, 2);
  report.Kernel(170'010'000, 3'424,
                {.name = "_Z3addiiPi", .stream = 7, .correlation = 2, .block = {1, 1, 1}});
  report.Api("cudaMemcpy", 170'100'000, 38'522, 3);
  report.Copy(170'110'000, 2'656,
              {.kind = model::CopyKind::kDtoH,
               .host = model::MemoryKind::kPageable,
               .is_async = false,
               .bytes = 4,
               .stream = 0,
               .correlation = 3});
  report.Api("cudaFree", 171'000'000, 81'893, 4);
  report.Write(losses);
  Status closed = report.Close();
  ASSERT_TRUE(closed.ok()) << closed.message();
}

const char* const kAddProgramSummary =
    "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
    " GPU activities:   56.32%  3.4240us         1  3.4240us  3.4240us  3.4240us  add(int, int, "
    "int*)\n"
    "                   43.68%  2.6560us         1  2.6560us  2.6560us  2.6560us  [CUDA memcpy "
    "DtoH]\n"
    "      API calls:   99.92%  165.86ms         1  165.86ms  165.86ms  165.86ms  cudaMalloc\n"
    "                    0.05%  81.893us         1  81.893us  81.893us  81.893us  cudaFree\n"
    "                    0.02%  38.522us         1  38.522us  38.522us  38.522us  cudaMemcpy\n"
    "                    0.01%  20.007us         1  20.007us  20.007us  20.007us  "
    "cudaLaunchKernel\n";

}  // namespace gpuscope::cli::testing
