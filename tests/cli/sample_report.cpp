#include "sample_report.h"

#include <gtest/gtest.h>

#include "store/report_writer.h"

namespace gpuscope::cli::testing {
namespace {

constexpr model::Timestamp kT0 = 1'700'000'000'000'000'000;  // an absolute CUPTI time

void Api(store::ReportWriter& writer, std::string_view name, model::Timestamp start,
         model::Timestamp duration, std::uint32_t correlation) {
  model::ApiCallRecord call;
  call.domain = model::ApiDomain::kRuntime;
  call.name = name;
  call.start = start;
  call.end = start + duration;
  call.process_id = 4242;
  call.thread_id = 1;
  call.correlation_id = correlation;
  writer.OnApiCall(call, false);
}

}  // namespace

void WriteAddProgramReport(const std::string& path, std::uint32_t pid,
                           const model::CollectionCounters& losses) {
  StatusOr<std::unique_ptr<store::ReportWriter>> created = store::ReportWriter::Create(path, false);
  ASSERT_TRUE(created.ok()) << created.status().message();
  store::ReportWriter& writer = *created.value();
  model::ProcessRecord process;
  process.pid = pid;
  process.parent_pid = 1;
  process.hostname = "node";
  process.command_line = "./sample";
  process.start = kT0;
  writer.OnProcess(process);

  Api(writer, "cudaMalloc", kT0, 165'860'000, 1);
  Api(writer, "cudaLaunchKernel", kT0 + 170'000'000, 20'007, 2);
  model::KernelRecord kernel;
  kernel.start = kT0 + 170'010'000;
  kernel.end = kernel.start + 3'424;
  kernel.correlation_id = 2;
  kernel.stream_id = 7;
  kernel.grid_x = kernel.grid_y = kernel.grid_z = 1;
  kernel.block_x = kernel.block_y = kernel.block_z = 1;
  kernel.mangled_name = "_Z3addiiPi";
  writer.OnKernel(kernel);
  Api(writer, "cudaMemcpy", kT0 + 170'100'000, 38'522, 3);
  model::MemcpyRecord copy;
  copy.start = kT0 + 170'110'000;
  copy.end = copy.start + 2'656;
  copy.correlation_id = 3;
  copy.copy_kind = model::CopyKind::kDtoH;
  copy.src_kind = model::MemoryKind::kDevice;
  copy.dst_kind = model::MemoryKind::kPageable;
  copy.bytes = 4;
  writer.OnMemcpy(copy);
  Api(writer, "cudaFree", kT0 + 171'000'000, 81'893, 4);
  writer.OnCounters(losses);
  writer.Flush();
  Status closed = writer.Close();
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
