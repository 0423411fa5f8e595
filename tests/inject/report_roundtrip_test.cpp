// The whole production chain into a real report: CUPTI record structs -> buffer callbacks
// -> collector -> store::ReportWriter -> SQLite file -> store::ReportReader.
#include <cupti.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "collector_fixture.h"
#include "inject/gpu_metric_batch.h"
#include "store/gpu_metric_tables.h"
#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "temp_dir.h"

namespace gpuscope::inject::testing {
namespace {

constexpr const char* kKernel = "_Z6vecAddPKfS0_Pfi";

// Two buffers of a small but complete program: device, context, allocations, copies, a
// memset, kernels (one from a graph, one untimed), API calls (nested and not), a sync,
// NVTX ranges and a mark, an overhead record and a record kind we do not know.
void DeliverProgram(CollectorHarness& harness) {
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityDevice5& d = w.Device();
    d.id = 0;
    d.name = "NVIDIA H200";
    d.computeCapabilityMajor = 9;
    d.numMultiprocessors = 132;
    d.numThreadsPerWarp = 32;
    d.maxSharedMemoryPerMultiprocessor = 233472;
    d.maxSharedMemoryPerBlock = 49152;
    d.globalMemoryBandwidth = 4'814'304'000ull;
    CUpti_ActivityContext3& c = w.Context();
    c.contextId = 1;
    c.nullStreamId = 7;
    w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 1'000'100, 1'000'900,
          4321, 55, 0);
    w.Api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 1'000'000,
          1'001'000, 4321, 55, 1);
    CUpti_ActivityMemory4& m = w.Memory();
    m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.address = 0x7f00'0000'0000ull;
    m.bytes = 4096;
    m.timestamp = 1'000'500;
    m.contextId = 1;
    m.streamId = 0xFFFFFFFFu;
    CUpti_ActivityMemcpy6& h2d = w.Memcpy();
    h2d.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    h2d.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    h2d.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    h2d.bytes = 4096;
    h2d.start = 1'002'000;
    h2d.end = 1'003'000;
    h2d.contextId = 1;
    h2d.streamId = 7;
    h2d.correlationId = 2;
    h2d.runtimeCorrelationId = 3;
    CUpti_ActivityMemcpyPtoP4& p2p = w.PeerCopy();
    p2p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    p2p.bytes = 8192;
    p2p.start = 1'003'500;
    p2p.end = 1'004'000;
    p2p.srcDeviceId = 0;
    p2p.dstDeviceId = 1;
    p2p.contextId = 1;
    p2p.streamId = 7;
    CUpti_ActivityMemset4& ms = w.Memset();
    ms.bytes = 4096;
    ms.value = 0;
    ms.start = 1'004'000;
    ms.end = 1'004'200;
    ms.contextId = 1;
    ms.streamId = 7;
    ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 1'004'500, 4321, 55, "compute", "app");
  });
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityKernel10& k = w.Kernel();
    k.name = kKernel;
    k.start = 1'005'000;
    k.end = 1'006'000;
    k.contextId = 1;
    k.streamId = 7;
    k.gridX = 4;
    k.gridY = k.gridZ = 1;
    k.blockX = 256;
    k.blockY = k.blockZ = 1;
    k.clusterX = 2;
    k.clusterY = k.clusterZ = 1;
    k.registersPerThread = 16;
    k.correlationId = 10;
    CUpti_ActivityKernel10& graph = w.Kernel();
    graph.name = kKernel;
    graph.start = 1'007'000;
    graph.end = 1'007'500;
    graph.contextId = 1;
    graph.streamId = 7;
    graph.graphId = 3;
    graph.graphNodeId = 42;
    graph.correlationId = 11;
    CUpti_ActivityKernel10& untimed = w.Kernel();
    untimed.name = kKernel;
    untimed.contextId = 1;
    untimed.streamId = 7;
    untimed.correlationId = 12;
    CUpti_ActivitySynchronization2& sync = w.Sync();
    sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    sync.start = 1'006'000;
    sync.end = 1'007'600;
    sync.contextId = 1;
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 2, 1'006'500, 4321, 55, "halfway", nullptr);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 1'008'000, 4321, 55, nullptr, nullptr);
    CUpti_ActivityOverhead3& o = w.Overhead();
    o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE;
    o.start = 1'000'000;
    o.end = 1'000'050;
    w.Add<CUpti_ActivityJit2>(CUPTI_ACTIVITY_KIND_JIT);
  });
}

TEST(ReportRoundTripTest, EverythingTheCollectorWritesReadsBack) {
  TempDir dir;
  const std::string path = dir.path() + "/report.sqlite";
  {
    StatusOr<std::unique_ptr<store::ReportWriter>> writer =
        store::ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    CollectorHarness harness(**writer);
    DeliverProgram(harness);
    harness.collector().AddDroppedRecords(3);
    harness.Finish();
    ASSERT_TRUE((*writer)->Close().ok());
    EXPECT_EQ((*writer)->records_not_written(), 0u);
  }

  StatusOr<std::unique_ptr<store::ReportReader>> opened = store::ReportReader::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  const store::ReportReader& report = **opened;

  EXPECT_EQ(report.process().pid, 4321u);
  EXPECT_EQ(report.process().parent_pid, 1234u);
  EXPECT_EQ(report.process().command_line, "./vector_add --n 1024");
  EXPECT_EQ(report.process().hostname, "gpu-node-1");

  ASSERT_EQ(report.devices().size(), 1u);
  EXPECT_EQ(report.devices()[0].name, "NVIDIA H200");
  EXPECT_EQ(report.devices()[0].record.num_sms, 132u);
  EXPECT_EQ(report.devices()[0].record.max_shared_memory_per_block_optin, 232448u);
  EXPECT_EQ(*report.CountRows("contexts"), 1u);

  std::vector<store::KernelRow> kernels;
  std::vector<std::string> kernel_names;
  ASSERT_TRUE(report
                  .ForEachKernel([&](const store::KernelRow& row) {
                    kernels.push_back(row);
                    kernel_names.emplace_back(row.record.mangled_name);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(kernels.size(), 3u);
  std::map<std::uint32_t, const store::KernelRow*> by_correlation;
  for (const auto& row : kernels) by_correlation[row.record.correlation_id] = &row;
  EXPECT_EQ(by_correlation[10]->record.start, 1'005'000u);
  EXPECT_EQ(by_correlation[10]->record.end, 1'006'000u);
  EXPECT_EQ(by_correlation[10]->record.grid_x, 4);
  EXPECT_EQ(by_correlation[10]->record.block_x, 256);
  EXPECT_EQ(by_correlation[10]->record.cluster_x, 2u);
  EXPECT_EQ(by_correlation[10]->record.registers_per_thread, 16);
  EXPECT_EQ(by_correlation[11]->record.graph_id, 3u);
  EXPECT_EQ(by_correlation[11]->record.graph_node_id, 42u);
  EXPECT_EQ(by_correlation[12]->record.start, 0u) << "untimed stays untimed";
  for (const std::string& name : kernel_names) EXPECT_EQ(name, kKernel);
  EXPECT_EQ(std::string(kernels[0].demangled_name),
            "vecAdd(float const*, float const*, float*, int)");

  std::vector<model::MemcpyRecord> copies;
  ASSERT_TRUE(report
                  .ForEachMemcpy([&](const model::MemcpyRecord& r) {
                    copies.push_back(r);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].copy_kind, model::CopyKind::kHtoD);
  EXPECT_EQ(copies[0].src_kind, model::MemoryKind::kPageable);
  EXPECT_EQ(copies[0].runtime_correlation_id, 3u);
  EXPECT_EQ(copies[1].copy_kind, model::CopyKind::kPtoP);
  EXPECT_EQ(copies[1].dst_device_id, 1u);
  EXPECT_EQ(copies[1].bytes, 8192u);

  std::uint64_t memsets = 0;
  ASSERT_TRUE(report
                  .ForEachMemset([&](const model::MemsetRecord& r) {
                    EXPECT_EQ(r.bytes, 4096u);
                    EXPECT_EQ(r.end - r.start, 200u);
                    ++memsets;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(memsets, 1u);

  std::map<std::string, bool> nested;
  ASSERT_TRUE(report
                  .ForEachApiCall([&](const store::ApiCallRow& row) {
                    nested[std::string(row.record.name)] = row.nested_in_runtime;
                    EXPECT_EQ(row.record.thread_id, 55u);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(nested.size(), 2u);
  EXPECT_FALSE(nested.at("cudaMalloc"));
  EXPECT_TRUE(nested.at("cuMemAlloc"));

  std::uint64_t memory_rows = 0;
  ASSERT_TRUE(report
                  .ForEachMemory([&](const model::MemoryRecord& r) {
                    EXPECT_EQ(r.op, model::MemoryOp::kAlloc);
                    EXPECT_EQ(r.address, 0x7f00'0000'0000ull);
                    EXPECT_EQ(r.timestamp, 1'000'500u);
                    ++memory_rows;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(memory_rows, 1u);

  std::uint64_t syncs = 0;
  ASSERT_TRUE(report
                  .ForEachSync([&](const model::SyncRecord& r) {
                    EXPECT_EQ(r.kind, model::SyncKind::kContextSynchronize);
                    EXPECT_EQ(r.end - r.start, 1600u);
                    ++syncs;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(syncs, 1u);

  std::map<std::string, model::NvtxRecord> nvtx;
  std::map<std::string, std::string> domains;
  ASSERT_TRUE(report
                  .ForEachNvtx([&](const model::NvtxRecord& r) {
                    nvtx[std::string(r.name)] = r;
                    domains[std::string(r.name)] = std::string(r.domain);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(nvtx.size(), 2u);
  EXPECT_EQ(nvtx["compute"].kind, model::NvtxKind::kPushPopRange);
  EXPECT_EQ(nvtx["compute"].start, 1'004'500u);
  EXPECT_EQ(nvtx["compute"].end, 1'008'000u);
  EXPECT_EQ(domains["compute"], "app");
  EXPECT_EQ(nvtx["halfway"].kind, model::NvtxKind::kMark);
  EXPECT_EQ(nvtx["halfway"].start, 1'006'500u);

  std::uint64_t overheads = 0;
  ASSERT_TRUE(report
                  .ForEachOverhead([&](const model::OverheadRecord& r) {
                    EXPECT_EQ(r.name, "CUPTI resource");
                    ++overheads;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(overheads, 1u);

  const model::CollectionCounters& counters = report.counters();
  EXPECT_EQ(counters.dropped_records, 3u);
  EXPECT_EQ(counters.kernels_without_timestamp, 1u);
  EXPECT_EQ(counters.unknown_records, 1u);
  EXPECT_EQ(counters.unfinished_nvtx_ranges, 0u);
}

// GPU metric batches as the PM sampler hands them over (its thread, one move per batch: the
// metrics once, samples as flat value arrays, how sampling stands) reach the report whole, and
// one that comes after the end is counted, not written. (The path where `run --gpu-metrics`
// programs met a corrupted heap on the H100; CI runs it under AddressSanitizer.)
TEST(ReportRoundTripTest, GpuMetricBatchesFromTheSamplerThreadReadBack) {
  TempDir dir;
  const std::string path = dir.path() + "/report.sqlite";
  constexpr std::size_t kMetrics = 3, kBatches = 20, kSamplesPerBatch = 200;
  {
    StatusOr<std::unique_ptr<store::ReportWriter>> writer =
        store::ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    CollectorHarness harness(**writer);
    DeliverProgram(harness);  // the process and its records, which set the time base
    std::thread sampler([&] {
      for (std::size_t b = 0; b < kBatches; ++b) {
        GpuMetricBatch batch;
        batch.device_id = 0;
        batch.metric_count = kMetrics;
        if (b == 0) {
          batch.metrics = {{"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "SM Active",
                            "%", 0},
                           {"dram__bytes_read.sum.per_second", "DRAM Read", "byte/second", 1},
                           {"dram__bytes_write.sum.per_second", "DRAM Write", "byte/second", 1}};
        }
        for (std::size_t i = 0; i < kSamplesPerBatch; ++i) {
          const model::Timestamp start = 1'000'000 + (b * kSamplesPerBatch + i) * 100;
          batch.starts.push_back(start);
          batch.ends.push_back(start + 100);
          for (std::size_t m = 0; m < kMetrics; ++m) {
            batch.values.push_back(static_cast<double>(b * 1000 + i * 10 + m));
          }
        }
        batch.sampling = OwnedGpuMetricSampling{"GH100", "default", "", 100, 128u << 20,
                                                (b + 1) * kSamplesPerBatch, 0, 0, 0};
        harness.collector().SubmitGpuMetrics(std::move(batch));
      }
    });
    sampler.join();
    harness.Finish();
    GpuMetricBatch late;
    late.starts = {9'000'000};
    late.ends = {9'000'100};
    late.metric_count = 1;
    late.values = {1.0};
    harness.collector().SubmitGpuMetrics(std::move(late));
    EXPECT_EQ(harness.collector().gpu_metric_samples_lost(), 1u) << "counted, not written";
    ASSERT_TRUE((*writer)->Close().ok());
  }
  StatusOr<std::unique_ptr<store::ReportReader>> opened = store::ReportReader::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  StatusOr<std::vector<store::StoredGpuMetric>> metrics = store::ReadGpuMetrics(**opened);
  ASSERT_TRUE(metrics.ok()) << metrics.status().message();
  ASSERT_EQ(metrics->size(), kMetrics);
  EXPECT_EQ((*metrics)[0].label, "SM Active");
  std::size_t samples = 0;
  bool values_right = true;
  ASSERT_TRUE(store::ForEachGpuMetricSample(**opened, [&](const store::StoredGpuMetricSample& s) {
                const std::size_t b = samples / kSamplesPerBatch, i = samples % kSamplesPerBatch;
                values_right = values_right && s.values.size() == kMetrics &&
                               s.values[2] == static_cast<double>(b * 1000 + i * 10 + 2);
                ++samples;
                return true;
              }).ok());
  EXPECT_EQ(samples, kBatches * kSamplesPerBatch);
  EXPECT_TRUE(values_right);
  StatusOr<std::vector<store::StoredGpuMetricSampling>> sampling =
      store::ReadGpuMetricSampling(**opened);
  ASSERT_TRUE(sampling.ok());
  ASSERT_EQ(sampling->size(), 1u);
  EXPECT_EQ((*sampling)[0].samples, kBatches * kSamplesPerBatch) << "the latest state";
}

TEST(ReportRoundTripTest, CommittedRecordsSurviveKill9) {
  TempDir dir;
  const std::string path = dir.path() + "/killed.sqlite";
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The traced process: a periodic commit, then 50 more records that never get one.
    auto writer = store::ReportWriter::Create(path, false);
    if (!writer.ok()) _exit(2);
    auto* harness = new CollectorHarness(**writer);
    harness->Deliver([](CuptiRecordWriter& w) {
      for (int i = 0; i < 100; ++i) {
        CUpti_ActivityKernel10& k = w.Kernel();
        k.name = kKernel;
        k.start = 1000 + i;
        k.end = 2000 + i;
      }
    });
    harness->Commit();
    harness->Deliver([](CuptiRecordWriter& w) {
      for (int i = 0; i < 50; ++i) w.Kernel().name = kKernel;
    });
    raise(SIGKILL);
    _exit(3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  ASSERT_TRUE(store::FinalizeReport(path).ok());
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();
  StatusOr<std::uint64_t> kernels = (*report)->CountRows("kernels");
  ASSERT_TRUE(kernels.ok());
  EXPECT_GE(*kernels, 100u) << "everything up to the last commit is there";
  EXPECT_EQ((*report)->process().pid, 4321u);
}

}  // namespace
}  // namespace gpuscope::inject::testing
