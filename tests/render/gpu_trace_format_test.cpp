// The GPU and API trace layouts. The expected lines are nvprof's own output (the
// --print-gpu-trace sample of a vector add on a Tesla T4 and nvprof --csv rows of an
// RTX 2080 Ti), rebuilt from the same values.
#include "render/gpu_trace_format.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/gpu_activity.h"
#include "analysis/name_groups.h"
#include "render/api_trace_format.h"
#include "render/device_labels.h"

namespace gpuscope::analysis {
namespace {

using render::ApiTraceFormatter;
using render::ApiTraceRow;
using render::DeviceLabels;
using render::GpuTraceFormatter;
using render::OutputOptions;

using model::CopyKind;
using model::MemoryKind;

constexpr std::uint64_t kBase = 1'700'000'000'000'000'000;

GpuActivity Copy(std::uint64_t start_ms_x100, std::uint64_t duration, CopyKind kind, MemoryKind src,
                 MemoryKind dst, std::uint64_t bytes) {
  model::MemcpyRecord copy;
  copy.start = kBase + start_ms_x100 * 10'000;
  copy.end = copy.start + duration;
  copy.copy_kind = kind;
  copy.src_kind = src;
  copy.dst_kind = dst;
  copy.bytes = bytes;
  copy.context_id = 1;
  copy.stream_id = 7;
  return FromMemcpy(copy);
}

GpuActivity KernelRow(const model::KernelRecord& kernel, std::uint32_t name_group) {
  GpuActivity row = FromKernel(kernel);
  row.name_group = name_group;
  return row;
}

class GpuTraceFormatTest : public ::testing::Test {
 protected:
  GpuTraceFormatTest() { devices_.Add(0, 0, "Tesla T4"); }

  GpuActivity VectorAdd() {
    model::KernelRecord kernel;
    kernel.start = kBase + 466'210'000;
    kernel.end = kernel.start + 4992;
    kernel.grid_x = 64;
    kernel.grid_y = kernel.grid_z = 1;
    kernel.block_x = 1024;
    kernel.block_y = kernel.block_z = 1;
    kernel.registers_per_thread = 16;
    kernel.context_id = 1;
    kernel.stream_id = 7;
    kernel.correlation_id = 130;
    auto group = static_cast<std::uint32_t>(
        names_.GroupFor("vectorAdd(int const *, int const *, int*, int)"));
    return KernelRow(kernel, group);
  }

  NameGroups names_;
  DeviceLabels devices_;
};

TEST_F(GpuTraceFormatTest, TextMatchesNvprof) {
  GpuTraceFormatter formatter({}, &names_, &devices_);
  std::ostringstream out;
  formatter.WriteHeader(out);
  formatter.WriteRow(
      Copy(46587, 26016, CopyKind::kHtoD, MemoryKind::kPageable, MemoryKind::kDevice, 262144),
      kBase, out);
  formatter.WriteRow(VectorAdd(), kBase, out);
  formatter.WriteRow(
      Copy(46623, 22016, CopyKind::kDtoH, MemoryKind::kDevice, MemoryKind::kPageable, 262144),
      kBase, out);
  formatter.WriteFooter(out);
  const char* expected =
      // clang-format off
      "   Start  Duration            Grid Size      Block Size     Regs*    SSMem*    DSMem*      Size  Throughput  SrcMemType  DstMemType           Device   Context    Stream  Name\n"
      "465.87ms  26.016us                    -               -         -         -         -  256.00KB  9.3842GB/s    Pageable      Device     Tesla T4 (0)         1         7  [CUDA memcpy HtoD]\n"
      "466.21ms  4.9920us             (64 1 1)      (1024 1 1)        16        0B        0B         -           -           -           -     Tesla T4 (0)         1         7  vectorAdd(int const *, int const *, int*, int) [130]\n"
      "466.23ms  22.016us                    -               -         -         -         -  256.00KB  11.089GB/s      Device    Pageable     Tesla T4 (0)         1         7  [CUDA memcpy DtoH]\n"
      "\n"
      "Regs: Number of registers used per CUDA thread. This number includes registers used internally by the CUDA driver and/or tools and can be more than what the compiler shows.\n"
      "SSMem: Static shared memory allocated per CUDA block.\n"
      "DSMem: Dynamic shared memory allocated per CUDA block.\n"
      "SrcMemType: The type of source memory accessed by memory operation/copy\n"
      "DstMemType: The type of destination memory accessed by memory operation/copy\n";
  // clang-format on
  EXPECT_EQ(out.str(), expected);
}

TEST_F(GpuTraceFormatTest, MemsetsUntimedRowsAndUnknownDevices) {
  model::MemsetRecord memset;
  memset.start = kBase;
  memset.end = kBase + 1888;
  memset.bytes = 1028;
  memset.memory_kind = MemoryKind::kDevice;
  memset.device_id = 0;
  memset.context_id = 1;
  memset.stream_id = 7;
  model::KernelRecord untimed;  // start = end = 0: CUPTI could not time it
  untimed.device_id = 3;        // and the devices table does not list its device
  untimed.grid_x = untimed.grid_y = untimed.grid_z = 2;
  untimed.block_x = untimed.block_y = untimed.block_z = 8;
  untimed.static_shared_memory = 16384;
  untimed.dynamic_shared_memory = 1000;
  untimed.correlation_id = 9;
  auto group = static_cast<std::uint32_t>(names_.GroupFor("k"));
  GpuTraceFormatter formatter({}, &names_, &devices_);
  std::ostringstream out;
  formatter.WriteRow(FromMemset(memset), kBase, out);
  formatter.WriteRow(KernelRow(untimed, group), kBase, out);
  const char* expected =
      // clang-format off
      "     0ns  1.8880us                    -               -         -         -         -  1.0039KB  519.27MB/s      Device           -     Tesla T4 (0)         1         7  [CUDA memset]\n"
      "       -         -              (2 2 2)         (8 8 8)         0  16.000KB     1000B         -           -           -           -       Device (3)         0         0  k [9]\n";
  // clang-format on
  EXPECT_EQ(out.str(), expected);
}

TEST_F(GpuTraceFormatTest, CsvMatchesNvprof) {
  DeviceLabels devices;
  devices.Add(0, 0, "GeForce RTX 2080 Ti");
  OutputOptions options;
  options.csv = true;
  GpuTraceFormatter formatter(options, &names_, &devices);
  model::MemsetRecord memset;
  memset.start = kBase;
  memset.end = kBase + 1888;
  memset.bytes = 1028;
  memset.memory_kind = MemoryKind::kDevice;
  memset.context_id = 1;
  memset.stream_id = 7;
  memset.correlation_id = 272;
  model::MemcpyRecord copy;
  copy.start = kBase + 4'421'878;  // 4421.878us
  copy.end = copy.start + 1408;
  copy.bytes = 128;
  copy.copy_kind = CopyKind::kHtoD;
  copy.src_kind = MemoryKind::kPinned;
  copy.dst_kind = MemoryKind::kDevice;
  copy.context_id = 1;
  copy.stream_id = 22;
  copy.correlation_id = 305;
  std::ostringstream out;
  formatter.WriteHeader(out);
  formatter.WriteRow(FromMemset(memset), kBase, out);
  formatter.WriteRow(FromMemcpy(copy), kBase, out);
  GpuActivity kernel = VectorAdd();
  kernel.static_shared_memory = 2048;
  formatter.WriteRow(kernel, kBase, out);
  const char* expected =
      // clang-format off
      "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\",\"Block Z\",\"Registers Per Thread\",\"Static SMem\",\"Dynamic SMem\",\"Size\",\"Throughput\",\"SrcMemType\",\"DstMemType\",\"Device\",\"Context\",\"Stream\",\"Name\",\"Correlation_ID\"\n"
      "us,us,,,,,,,,KB,KB,KB,GB/s,,,,,,,\n"
      "0.000000,1.888000,,,,,,,,,,1.003906,0.507097,\"Device\",,\"GeForce RTX 2080 Ti (0)\",\"1\",\"7\",\"[CUDA memset]\",272\n"
      "4421.878000,1.408000,,,,,,,,,,0.125000,0.084666,\"Pinned\",\"Device\",\"GeForce RTX 2080 Ti (0)\",\"1\",\"22\",\"[CUDA memcpy HtoD]\",305\n"
      "466210.000000,4.992000,64,1,1,1024,1,1,16,2.000000,0.000000,,,,,\"GeForce RTX 2080 Ti (0)\",\"1\",\"7\",\"vectorAdd(int const *, int const *, int*, int)\",130\n";
  // clang-format on
  EXPECT_EQ(out.str(), expected);
}

TEST_F(GpuTraceFormatTest, FixedUnitWidensTheTimeColumns) {
  OutputOptions options;
  options.unit = TimeUnit::kMicroseconds;
  GpuTraceFormatter formatter(options, &names_, &devices_);
  std::ostringstream out;
  formatter.WriteHeader(out);
  formatter.WriteRow(VectorAdd(), kBase, out);
  std::string text = out.str();
  EXPECT_EQ(text.substr(0, 32), "           Start        Duration");
  EXPECT_EQ(text.substr(text.find('\n') + 1, 32), "    466210.000us         4.992us");
}

TEST(ApiTraceFormat, TextAndCsv) {
  NameGroups names;
  ApiTraceRow first{kBase, kBase + 2415,
                    static_cast<std::uint32_t>(names.GroupFor("cuDeviceGetPCIBusId")), 1};
  ApiTraceRow second{kBase + 38'829'000, kBase + 38'829'000 + 2405,
                     static_cast<std::uint32_t>(names.GroupFor("cuDeviceGetCount")), 2};
  ApiTraceRow third{kBase + 38'833'000, kBase + 38'833'180, second.name_group, 3};
  std::ostringstream text;
  ApiTraceFormatter formatter({}, &names);
  formatter.WriteHeader(text);
  for (const ApiTraceRow& row : {first, second, third}) formatter.WriteRow(row, kBase, text);
  EXPECT_EQ(text.str(),
            "   Start  Duration  Name\n"
            "     0ns  2.4150us  cuDeviceGetPCIBusId\n"
            "38.829ms  2.4050us  cuDeviceGetCount\n"
            "38.833ms     180ns  cuDeviceGetCount\n");

  OutputOptions options;
  options.csv = true;
  std::ostringstream csv;
  ApiTraceFormatter csv_formatter(options, &names);
  csv_formatter.WriteHeader(csv);
  csv_formatter.WriteRow(first, kBase, csv);
  csv_formatter.WriteRow(third, kBase, csv);
  EXPECT_EQ(csv.str(),
            "\"Start\",\"Duration\",\"Name\",\"Correlation_ID\"\n"
            "us,us,,\n"
            "0.000000,2.415000,\"cuDeviceGetPCIBusId\",1\n"
            "38833.000000,0.180000,\"cuDeviceGetCount\",3\n");
}

}  // namespace
}  // namespace gpuscope::analysis
