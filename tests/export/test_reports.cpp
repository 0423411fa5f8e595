#include "test_reports.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store/report_writer.h"
#include "store/testing/synthetic_trace.h"

namespace gpuscope::exporter::testing {
namespace {

constexpr model::Timestamp T(model::Timestamp relative) { return kRichStart + relative; }

void Api(store::ReportWriter& writer, model::ApiDomain domain, std::string_view name,
         model::Timestamp start, model::Timestamp end, std::uint32_t correlation, bool nested) {
  model::ApiCallRecord call;
  call.domain = domain;
  call.name = name;
  call.start = T(start);
  call.end = T(end);
  call.process_id = kRichPid;
  call.thread_id = kRichThread;
  call.correlation_id = correlation;
  writer.OnApiCall(call, nested);
}

model::KernelRecord Kernel(std::string_view name, std::uint32_t stream, model::Timestamp start,
                           model::Timestamp end, std::uint32_t correlation) {
  model::KernelRecord kernel;
  kernel.start = start ? T(start) : 0;
  kernel.end = end ? T(end) : 0;
  kernel.stream_id = stream;
  kernel.correlation_id = correlation;
  kernel.grid_x = 4;
  kernel.grid_y = kernel.grid_z = 1;
  kernel.block_x = 256;
  kernel.block_y = kernel.block_z = 1;
  kernel.registers_per_thread = 32;
  kernel.mangled_name = name;
  return kernel;
}

void Nvtx(store::ReportWriter& writer, model::NvtxKind kind, std::string_view name,
          model::Timestamp start, model::Timestamp end, std::uint32_t id) {
  model::NvtxRecord range;
  range.kind = kind;
  range.name = name;
  range.start = T(start);
  range.end = end == 0 ? 0 : T(end);
  range.id = id;
  range.thread_id = kRichThread;
  range.process_id = kRichPid;
  writer.OnNvtx(range);
}

}  // namespace

void WriteRichReport(const std::string& path) {
  auto created = store::ReportWriter::Create(path, true);
  ASSERT_TRUE(created.ok()) << created.status().message();
  store::ReportWriter& writer = *created.value();
  model::ProcessRecord process;
  process.pid = kRichPid;
  process.parent_pid = 1;
  process.hostname = "node\"1";
  process.command_line = "./app --name=\"a,b\"";
  process.start = kRichStart;
  writer.OnProcess(process);
  model::DeviceRecord device;
  device.id = 0;
  device.name = "NVIDIA H200";
  device.uuid = "abcd";
  device.compute_major = 9;
  device.compute_minor = 0;
  device.num_sms = 132;
  writer.OnDevice(device);

  using model::ApiDomain;
  Api(writer, ApiDomain::kRuntime, "cudaMalloc", 0, 1000, 1, false);
  Api(writer, ApiDomain::kDriver, "cuMemAlloc_v2", 100, 900, 2, true);
  model::MemoryRecord alloc;
  alloc.timestamp = T(500);
  alloc.op = model::MemoryOp::kAlloc;
  alloc.memory_kind = model::MemoryKind::kDevice;
  alloc.address = 0x1000;
  alloc.bytes = 1 << 20;
  alloc.correlation_id = 2;
  writer.OnMemory(alloc);
  Api(writer, ApiDomain::kRuntime, "cudaLaunchKernel", 2000, 3000, 3, false);
  Api(writer, ApiDomain::kRuntime, "cudaLaunchKernel", 3000, 3500, 4, false);
  writer.OnKernel(Kernel("_Z3addiiPi", 7, 4000, 7424, 3));
  writer.OnKernel(Kernel(kHostileKernel, 13, 5000, 6000, 4));
  Api(writer, ApiDomain::kRuntime, "cudaMemcpy", 8000, 20000, 5, false);
  Api(writer, ApiDomain::kDriver, "cuMemcpyDtoH_v2", 8100, 19000, 6, true);
  model::MemcpyRecord copy;
  copy.start = T(10000);
  copy.end = T(12656);
  copy.stream_id = 7;
  copy.correlation_id = 6;
  copy.runtime_correlation_id = 5;
  copy.copy_kind = model::CopyKind::kDtoH;
  copy.src_kind = model::MemoryKind::kDevice;
  copy.dst_kind = model::MemoryKind::kPageable;
  copy.bytes = 4;
  writer.OnMemcpy(copy);
  Api(writer, ApiDomain::kRuntime, "cudaMemset", 21000, 22000, 7, false);
  model::MemsetRecord memset;
  memset.start = T(23000);
  memset.end = T(23500);
  memset.stream_id = 7;
  memset.correlation_id = 7;
  memset.bytes = 64;
  writer.OnMemset(memset);
  Nvtx(writer, model::NvtxKind::kPushPopRange, "outer", 0, 50000, 1);
  Nvtx(writer, model::NvtxKind::kPushPopRange, "inner", 1000, 30000, 2);
  Nvtx(writer, model::NvtxKind::kMark, "tick", 25000, 25000, 3);
  Nvtx(writer, model::NvtxKind::kStartEndRange, kHostileRange, 40000, 60000, 4);
  Nvtx(writer, model::NvtxKind::kPushPopRange, "open", 70000, 0, 5);
  writer.OnKernel(Kernel("_Z3addiiPi", 7, 0, 0, 8));
  model::MemoryRecord free_record = alloc;
  free_record.timestamp = T(90000);
  free_record.op = model::MemoryOp::kFree;
  free_record.bytes = 0;
  writer.OnMemory(free_record);
  model::CollectionCounters counters;
  counters.kernels_without_timestamp = 1;
  counters.unfinished_nvtx_ranges = 1;
  writer.OnCounters(counters);
  writer.Flush();
  Status closed = writer.Close();
  ASSERT_TRUE(closed.ok()) << closed.message();
}

void WriteSyntheticReport(const std::string& path, std::uint64_t kernels) {
  auto created = store::ReportWriter::Create(path, true);
  ASSERT_TRUE(created.ok()) << created.status().message();
  store::testing::SyntheticTraceOptions options;
  options.kernels = kernels;
  options.flush_every_kernels = 100000;
  store::testing::WriteSyntheticTrace(*created.value(), options);
  created.value()->Flush();
  Status closed = created.value()->Close();
  ASSERT_TRUE(closed.ok()) << closed.message();
}

ScratchDir::ScratchDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gpuscope-test-XXXXXX").string();
  char* made = mkdtemp(pattern.data());
  path_ = made ? made : "";
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gpuscope::exporter::testing
