// The production buffer path end to end, without a GPU: real CUPTI record structs ->
// cupti::BufferRequested/BufferCompleted -> queue -> writer thread -> CUPTI's record walker
// -> translation -> NVTX pairing / API nesting -> sink.
#include <cupti.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include "collector_fixture.h"
#include "inject/late_records.h"
#include "inject/own_replay_calls.h"
#include "inject/record_router.h"
#include "recording_sink.h"

namespace gpuscope::inject::testing {
namespace {

constexpr const char* kKernelName = "_Z6vecAddPKfS0_Pfi";

TEST(CollectorTest, TheProcessRecordComesFirst) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Commit();
  ASSERT_EQ(sink.processes.size(), 1u);
  const auto& process = sink.processes[0];
  EXPECT_EQ(process.record.pid, 4321u);
  EXPECT_EQ(process.record.parent_pid, 1234u);
  EXPECT_EQ(process.record.start, 500u);
  EXPECT_EQ(process.text, "./vector_add --n 1024");
  EXPECT_EQ(process.text2, "gpu-node-1");
  EXPECT_GE(sink.flushes, 1);
}

TEST(CollectorTest, KernelEveryField) {
  // Every field gets a value of its own (none 0 or a model default), so a translation that
  // copies one CUPTI field into another model field fails here. The values need not make a
  // launchable kernel.
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityKernel10& k = w.Kernel();
    k.start = 1'000'000;
    k.end = 1'250'000;
    k.deviceId = 3;
    k.contextId = 4;
    k.streamId = 13;
    k.correlationId = 77;
    k.gridId = 9001;
    k.gridX = 256;
    k.gridY = 5;
    k.gridZ = 6;
    k.blockX = 128;
    k.blockY = 7;
    k.blockZ = 8;
    k.clusterX = 9;
    k.clusterY = 10;
    k.clusterZ = 11;
    k.registersPerThread = 40;
    k.staticSharedMemory = 16896;
    k.dynamicSharedMemory = 1024;
    k.sharedMemoryExecuted = 167936;
    k.localMemoryPerThread = 24;
    k.localMemoryTotal = 12345;  // deprecated 32-bit field: the 64-bit one wins
    k.localMemoryTotal_v2 = 5'000'000'000ull;
    k.graphId = 15;
    k.graphNodeId = 0x100000002ull;
    k.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE;
    k.cacheConfig.both = 0x21;
    k.isDeviceLaunched = 1;
    k.name = kKernelName;
  });
  harness.Commit();
  ASSERT_EQ(sink.kernels.size(), 1u);
  const model::KernelRecord& r = sink.kernels[0].record;
  EXPECT_EQ(r.start, 1'000'000u);
  EXPECT_EQ(r.end, 1'250'000u);
  EXPECT_EQ(r.device_id, 3u);
  EXPECT_EQ(r.context_id, 4u);
  EXPECT_EQ(r.stream_id, 13u);
  EXPECT_EQ(r.correlation_id, 77u);
  EXPECT_EQ(r.grid_id, 9001);
  EXPECT_EQ(r.grid_x, 256);
  EXPECT_EQ(r.grid_y, 5);
  EXPECT_EQ(r.grid_z, 6);
  EXPECT_EQ(r.block_x, 128);
  EXPECT_EQ(r.block_y, 7);
  EXPECT_EQ(r.block_z, 8);
  EXPECT_EQ(r.cluster_x, 9u);
  EXPECT_EQ(r.cluster_y, 10u);
  EXPECT_EQ(r.cluster_z, 11u);
  EXPECT_EQ(r.registers_per_thread, 40);
  EXPECT_EQ(r.static_shared_memory, 16896);
  EXPECT_EQ(r.dynamic_shared_memory, 1024);
  EXPECT_EQ(r.shared_memory_executed, 167936u);
  EXPECT_EQ(r.local_memory_per_thread, 24u);
  EXPECT_EQ(r.local_memory_total, 5'000'000'000ull);
  EXPECT_EQ(r.graph_id, 15u);
  EXPECT_EQ(r.graph_node_id, 0x100000002ull);
  EXPECT_EQ(r.launch_type, 2) << "cooperative multi-device";
  EXPECT_EQ(r.cache_config, 0x21);
  EXPECT_TRUE(r.device_launched);
  EXPECT_EQ(sink.kernels[0].text, kKernelName);
  EXPECT_EQ(sink.counters.kernels_without_timestamp, 0u);
}

TEST(CollectorTest, EveryCopyKindIncludingPeer) {
  struct Case {
    std::uint8_t cupti;
    model::CopyKind model;
  };
  const Case cases[] = {
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, model::CopyKind::kHtoD},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, model::CopyKind::kDtoH},
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOA, model::CopyKind::kHtoA},
      {CUPTI_ACTIVITY_MEMCPY_KIND_ATOH, model::CopyKind::kAtoH},
      {CUPTI_ACTIVITY_MEMCPY_KIND_ATOA, model::CopyKind::kAtoA},
      {CUPTI_ACTIVITY_MEMCPY_KIND_ATOD, model::CopyKind::kAtoD},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOA, model::CopyKind::kDtoA},
      {CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, model::CopyKind::kDtoD},
      {CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, model::CopyKind::kHtoH},
      {CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN, model::CopyKind::kUnknown},
  };
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([&](CuptiRecordWriter& w) {
    std::uint64_t t = 1000;
    for (const Case& c : cases) {
      CUpti_ActivityMemcpy6& m = w.Memcpy();
      m.copyKind = c.cupti;
      m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
      m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
      m.flags = c.cupti % 2 ? CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC : 0;
      m.bytes = 4096u * c.cupti + 1;
      m.start = t;
      m.end = t + 100;
      t += 1000;
      m.deviceId = 2;
      m.contextId = 1;
      m.streamId = 7;
      m.correlationId = 500u + c.cupti;
      m.runtimeCorrelationId = 400u + c.cupti;
      m.graphId = 3;
      m.graphNodeId = 33;
    }
    CUpti_ActivityMemcpyPtoP4& p = w.PeerCopy();
    p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    p.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    p.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    p.bytes = 1 << 20;
    p.start = 90'000;
    p.end = 95'000;
    p.deviceId = 0;
    p.contextId = 1;
    p.streamId = 8;
    p.srcDeviceId = 2;
    p.dstDeviceId = 1;
    p.correlationId = 999;
    p.graphId = 0;
  });
  harness.Commit();
  ASSERT_EQ(sink.memcpys.size(), std::size(cases) + 1);
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const model::MemcpyRecord& r = sink.memcpys[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(r.copy_kind, cases[i].model);
    EXPECT_EQ(r.src_kind, model::MemoryKind::kPageable);
    EXPECT_EQ(r.dst_kind, model::MemoryKind::kDevice);
    EXPECT_EQ(r.is_async, cases[i].cupti % 2 == 1);
    EXPECT_EQ(r.bytes, 4096u * cases[i].cupti + 1);
    EXPECT_EQ(r.end - r.start, 100u);
    EXPECT_EQ(r.device_id, 2u);
    EXPECT_EQ(r.context_id, 1u);
    EXPECT_EQ(r.stream_id, 7u);
    EXPECT_EQ(r.correlation_id, 500u + cases[i].cupti);
    EXPECT_EQ(r.runtime_correlation_id, 400u + cases[i].cupti);
    EXPECT_EQ(r.graph_id, 3u);
    EXPECT_EQ(r.graph_node_id, 33u);
  }
  const model::MemcpyRecord& peer = sink.memcpys.back();
  EXPECT_EQ(peer.copy_kind, model::CopyKind::kPtoP);
  EXPECT_EQ(peer.src_device_id, 2u);
  EXPECT_EQ(peer.dst_device_id, 1u);
  EXPECT_EQ(peer.bytes, 1u << 20);
  EXPECT_TRUE(peer.is_async);
  EXPECT_EQ(peer.stream_id, 8u);
  EXPECT_EQ(peer.correlation_id, 999u);
  EXPECT_EQ(peer.start, 90'000u);
  EXPECT_EQ(peer.end, 95'000u);
}

TEST(CollectorTest, Memsets) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityMemset4& m = w.Memset();
    m.value = 0xAB;
    m.bytes = 123456;
    m.start = 10;
    m.end = 20;
    m.deviceId = 2;
    m.contextId = 3;
    m.streamId = 4;
    m.correlationId = 5;
    m.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED;
    m.graphId = 6;
    m.graphNodeId = 7;
  });
  harness.Commit();
  ASSERT_EQ(sink.memsets.size(), 1u);
  const model::MemsetRecord& r = sink.memsets[0];
  EXPECT_EQ(r.value, 0xABu);
  EXPECT_EQ(r.bytes, 123456u);
  EXPECT_EQ(r.start, 10u);
  EXPECT_EQ(r.end, 20u);
  EXPECT_EQ(r.device_id, 2u);
  EXPECT_EQ(r.context_id, 3u);
  EXPECT_EQ(r.stream_id, 4u);
  EXPECT_EQ(r.correlation_id, 5u);
  EXPECT_TRUE(r.is_async);
  EXPECT_EQ(r.memory_kind, model::MemoryKind::kManaged);
  EXPECT_EQ(r.graph_id, 6u);
  EXPECT_EQ(r.graph_node_id, 7u);
}

TEST(CollectorTest, ApiCallsAreNamedAndNested) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    // Thread 31: cudaMalloc (100..200) made cuMemAlloc_v2 (120..180); then the program
    // called cuCtxSynchronize itself (300..310).
    w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 120, 180, 4321, 31, 2);
    CUpti_ActivityAPI& outer =
        w.Api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 100, 200,
              4321, 31, 1);
    outer.returnValue = 2;  // cudaErrorMemoryAllocation
    w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 300, 310, 4321, 31,
          3);
    w.Api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, 400, 450,
          4321, 31, 4);
  });
  harness.Commit();
  ASSERT_EQ(sink.api_calls.size(), 4u);
  auto find = [&](std::string_view name) -> const ApiCall& {
    for (const ApiCall& call : sink.api_calls) {
      if (call.name == name) return call;
    }
    ADD_FAILURE() << "no " << name;
    return sink.api_calls[0];
  };
  const ApiCall& malloc_call = find("cudaMalloc");
  EXPECT_EQ(malloc_call.record.domain, model::ApiDomain::kRuntime);
  EXPECT_EQ(malloc_call.record.cbid, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020);
  EXPECT_EQ(malloc_call.record.return_value, 2);
  EXPECT_EQ(malloc_call.record.correlation_id, 1u);
  EXPECT_EQ(malloc_call.record.thread_id, 31u);
  EXPECT_EQ(malloc_call.record.process_id, 4321u);
  EXPECT_FALSE(malloc_call.nested);
  const ApiCall& alloc = find("cuMemAlloc");
  EXPECT_EQ(alloc.record.domain, model::ApiDomain::kDriver);
  EXPECT_TRUE(alloc.nested);
  EXPECT_FALSE(find("cuCtxSynchronize").nested);
  EXPECT_EQ(find("cudaMemcpy").record.start, 400u);
}

TEST(CollectorTest, MemoryAllocationsAndFrees) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityMemory4& alloc = w.Memory();
    alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    alloc.address = 0x7f0000000000ull;
    alloc.bytes = 1 << 26;
    alloc.timestamp = 5000;
    alloc.PC = 0x401234;
    alloc.deviceId = 0;
    alloc.contextId = 1;
    alloc.streamId = 0xFFFFFFFFu;
    alloc.correlationId = 10;
    CUpti_ActivityMemory4& release = w.Memory();
    release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    release.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    release.address = 0x7f0000000000ull;
    release.bytes = 1 << 26;
    release.timestamp = 9000;
    release.streamId = 14;
    release.isAsync = 1;
    release.correlationId = 11;
  });
  harness.Commit();
  ASSERT_EQ(sink.memory.size(), 2u);
  EXPECT_EQ(sink.memory[0].op, model::MemoryOp::kAlloc);
  EXPECT_EQ(sink.memory[0].memory_kind, model::MemoryKind::kDevice);
  EXPECT_EQ(sink.memory[0].address, 0x7f0000000000ull);
  EXPECT_EQ(sink.memory[0].bytes, 1u << 26);
  EXPECT_EQ(sink.memory[0].timestamp, 5000u);
  EXPECT_EQ(sink.memory[0].pc, 0x401234u);
  EXPECT_EQ(sink.memory[0].stream_id, 0xFFFFFFFFu);
  EXPECT_EQ(sink.memory[0].context_id, 1u);
  EXPECT_EQ(sink.memory[0].correlation_id, 10u);
  EXPECT_FALSE(sink.memory[0].is_async);
  EXPECT_EQ(sink.memory[1].op, model::MemoryOp::kFree);
  EXPECT_TRUE(sink.memory[1].is_async);
  EXPECT_EQ(sink.memory[1].stream_id, 14u);
  EXPECT_EQ(sink.memory[1].timestamp, 9000u);
}

TEST(CollectorTest, Synchronizations) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    const CUpti_ActivitySynchronizationType types[] = {
        CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE,
        CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT,
        CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE,
        CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE};
    std::uint32_t i = 0;
    for (auto type : types) {
      CUpti_ActivitySynchronization2& s = w.Sync();
      s.type = type;
      s.start = 100 * (i + 1);
      s.end = 100 * (i + 1) + 50;
      s.contextId = 1;
      s.streamId = 20 + i;
      s.cudaEventId = 30 + i;
      s.correlationId = 40 + i;
      ++i;
    }
  });
  harness.Commit();
  ASSERT_EQ(sink.syncs.size(), 4u);
  const model::SyncKind kinds[] = {
      model::SyncKind::kEventSynchronize, model::SyncKind::kStreamWaitEvent,
      model::SyncKind::kStreamSynchronize, model::SyncKind::kContextSynchronize};
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(sink.syncs[i].kind, kinds[i]);
    EXPECT_EQ(sink.syncs[i].start, 100u * (i + 1));
    EXPECT_EQ(sink.syncs[i].end, 100u * (i + 1) + 50);
    EXPECT_EQ(sink.syncs[i].stream_id, 20 + i);
    EXPECT_EQ(sink.syncs[i].event_id, 30 + i);
    EXPECT_EQ(sink.syncs[i].correlation_id, 40 + i);
    EXPECT_EQ(sink.syncs[i].context_id, 1u);
  }
}

TEST(CollectorTest, NvtxRangesMarksAndDomains) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  // As CUPTI 13 delivers them: objectKind THREAD for every marker, one id counter.
  // Thread 7: push "epoch" (data: red, category 1), mark "step" in domain "train", pop,
  // nvtxRangeStart/End "load" (id 5, registered by the nvtxRangeStart callback).
  // Thread 8: nvtxRangeStart "io" in domain "loader", ended by thread 9 in a later buffer.
  harness.start_end_ids().Add(5);
  harness.Deliver([](CuptiRecordWriter& w) {
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 1000, 4321, 7, "epoch", nullptr);
    w.MarkerData(1, 0xFFFF0000u, 1);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 2, 1500, 4321, 7, "step", "train");
    w.MarkerData(2, 0, 0);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 2000, 4321, 7, nullptr, nullptr);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 3, 1200, 4321, 8, "io", "loader");
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, 2100, 4321, 7, "load", nullptr);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 5, 2200, 4321, 7, nullptr, nullptr);
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 4, 2500, 4321, 7, "never popped", nullptr);
  });
  harness.Deliver([](CuptiRecordWriter& w) {
    w.Marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 3, 3000, 4321, 9, nullptr, nullptr);
  });
  harness.Commit();
  ASSERT_EQ(sink.nvtx.size(), 4u);
  auto find = [&](std::string_view name) -> const Owned<model::NvtxRecord>& {
    for (const auto& n : sink.nvtx) {
      if (n.text == name) return n;
    }
    ADD_FAILURE() << "no " << name;
    return sink.nvtx[0];
  };
  const auto& epoch = find("epoch");
  EXPECT_EQ(epoch.record.kind, model::NvtxKind::kPushPopRange);
  EXPECT_EQ(epoch.record.start, 1000u);
  EXPECT_EQ(epoch.record.end, 2000u);
  EXPECT_EQ(epoch.record.color, 0xFFFF0000u);
  EXPECT_EQ(epoch.record.category, 1u);
  EXPECT_EQ(epoch.record.thread_id, 7u);
  EXPECT_EQ(epoch.record.process_id, 4321u);
  EXPECT_EQ(epoch.text2, "") << "default domain";
  const auto& step = find("step");
  EXPECT_EQ(step.record.kind, model::NvtxKind::kMark);
  EXPECT_EQ(step.record.start, 1500u);
  EXPECT_EQ(step.record.end, 1500u);
  EXPECT_EQ(step.text2, "train");
  EXPECT_EQ(step.record.color, 0u);
  const auto& io = find("io");
  EXPECT_EQ(io.record.kind, model::NvtxKind::kStartEndRange);
  EXPECT_EQ(io.record.start, 1200u);
  EXPECT_EQ(io.record.end, 3000u);
  EXPECT_EQ(io.record.thread_id, 8u);
  EXPECT_EQ(io.text2, "loader");
  const auto& load = find("load");
  EXPECT_EQ(load.record.kind, model::NvtxKind::kStartEndRange) << "registered by its callback";
  EXPECT_EQ(load.record.end - load.record.start, 100u);

  harness.Finish();
  ASSERT_EQ(sink.nvtx.size(), 5u);
  const auto& open = find("never popped");
  EXPECT_EQ(open.record.start, 2500u);
  EXPECT_EQ(open.record.end, 0u);
  EXPECT_EQ(sink.counters.unfinished_nvtx_ranges, 1u);
}

TEST(CollectorTest, OverheadDeviceAndContext) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityOverhead3& o = w.Overhead();
    o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST;
    o.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    o.objectId.pt.processId = 4321;
    o.objectId.pt.threadId = 77;
    o.start = 10;
    o.end = 2'200'010;
    // Device, context and stream fields each get a value of their own (none 0 or a model
    // default such as warp size 32), so a swapped or forgotten field fails; the values need
    // not describe a real GPU.
    CUpti_ActivityDevice5& d = w.Device();
    d.id = 2;
    d.name = "NVIDIA H200";
    for (int i = 0; i < 16; ++i) d.uuid.bytes[i] = static_cast<char>(i * 17);
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 3;
    d.numMultiprocessors = 132;
    d.numThreadsPerWarp = 48;
    d.maxThreadsPerBlock = 1024;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxBlocksPerMultiprocessor = 32;
    d.maxRegistersPerMultiprocessor = 65536;
    d.maxRegistersPerBlock = 65535;
    d.maxSharedMemoryPerMultiprocessor = 233472;
    d.maxSharedMemoryPerBlock = 49152;
    d.globalMemorySize = 150'000'000'000ull;
    d.globalMemoryBandwidth = 4'814'304'000ull;
    d.coreClockRate = 1'980'000;
    d.l2CacheSize = 62'914'560;
    d.maxIPC = 0xFFFFFFFFu;
    d.eccEnabled = 1;
    d.isMigEnabled = 1;
    CUpti_ActivityContext3& c = w.Context();
    c.contextId = 5;
    c.deviceId = 2;
    c.nullStreamId = 7;
    CUpti_ActivityStream& s = w.Stream();
    s.contextId = 5;
    s.streamId = 13;
    s.priority = static_cast<uint32_t>(-2);  // CUDA priorities are negative numbers
    s.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING;
    s.correlationId = 99;
  });
  harness.Commit();
  ASSERT_EQ(sink.overheads.size(), 1u);
  EXPECT_EQ(sink.overheads[0].record.overhead_kind,
            static_cast<std::uint32_t>(CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST));
  EXPECT_EQ(sink.overheads[0].record.thread_id, 77u);
  EXPECT_EQ(sink.overheads[0].record.process_id, 4321u);
  EXPECT_EQ(sink.overheads[0].record.start, 10u);
  EXPECT_EQ(sink.overheads[0].record.end, 2'200'010u);
  EXPECT_EQ(sink.overheads[0].text, "activity buffer request");

  ASSERT_EQ(sink.devices.size(), 1u);
  const model::DeviceRecord& d = sink.devices[0].record;
  EXPECT_EQ(sink.devices[0].text, "NVIDIA H200");
  EXPECT_EQ(sink.devices[0].text2, "00112233445566778899aabbccddeeff");
  EXPECT_EQ(d.id, 2u);
  EXPECT_EQ(d.compute_major, 9u);
  EXPECT_EQ(d.compute_minor, 3u);
  EXPECT_EQ(d.num_sms, 132u);
  EXPECT_EQ(d.warp_size, 48u);
  EXPECT_EQ(d.max_threads_per_block, 1024u);
  EXPECT_EQ(d.max_warps_per_sm, 64u);
  EXPECT_EQ(d.max_blocks_per_sm, 32u);
  EXPECT_EQ(d.max_registers_per_sm, 65536u);
  EXPECT_EQ(d.max_registers_per_block, 65535u);
  EXPECT_EQ(d.max_shared_memory_per_sm, 233472u);
  EXPECT_EQ(d.max_shared_memory_per_block, 49152u);
  EXPECT_EQ(d.max_shared_memory_per_block_optin, 232448u) << "H200's cudaDevAttr...Optin";
  EXPECT_EQ(d.global_memory_bytes, 150'000'000'000ull);
  EXPECT_EQ(d.global_memory_bandwidth_kbps, 4'814'304'000ull);
  EXPECT_EQ(d.core_clock_khz, 1'980'000u);
  EXPECT_EQ(d.l2_cache_bytes, 62'914'560u);
  EXPECT_EQ(d.max_ipc, 0xFFFFFFFFu);
  EXPECT_EQ(d.ecc_enabled, 1u);
  EXPECT_TRUE(d.mig_enabled);

  ASSERT_EQ(sink.contexts.size(), 1u);
  EXPECT_EQ(sink.contexts[0].context_id, 5u);
  EXPECT_EQ(sink.contexts[0].device_id, 2u);
  EXPECT_EQ(sink.contexts[0].null_stream_id, 7u);

  ASSERT_EQ(sink.streams.size(), 1u);
  EXPECT_EQ(sink.streams[0].stream_id, 13u);
  EXPECT_EQ(sink.streams[0].context_id, 5u);
  EXPECT_EQ(sink.streams[0].priority, -2);
  EXPECT_EQ(sink.streams[0].flags, 2u);  // non-blocking
}

TEST(CollectorTest, RecordsWithoutTimestampsAreWrittenAndCounted) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    for (int i = 0; i < 3; ++i) {
      CUpti_ActivityKernel10& k = w.Kernel();
      k.name = kKernelName;
      k.correlationId = 100 + i;
      if (i == 1) {
        k.start = 10;
        k.end = 20;
      }
    }
    CUpti_ActivityKernel10& half = w.Kernel();  // start but no end
    half.name = kKernelName;
    half.start = 30;
    w.Memcpy().copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    w.Memset().bytes = 4;
    w.Memset().bytes = 8;
  });
  harness.Commit();
  EXPECT_EQ(sink.kernels.size(), 4u) << "real launches are written even without times";
  EXPECT_EQ(sink.memcpys.size(), 1u);
  EXPECT_EQ(sink.memsets.size(), 2u);
  EXPECT_EQ(sink.counters.kernels_without_timestamp, 3u);
  EXPECT_EQ(sink.counters.copies_without_timestamp, 1u);
  EXPECT_EQ(sink.counters.memsets_without_timestamp, 2u);
}

TEST(CollectorTest, UnknownRecordKindsAreCounted) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) {
    w.Add<CUpti_ActivityJit2>(CUPTI_ACTIVITY_KIND_JIT);
    w.Kernel().name = kKernelName;  // records after it are still read
    w.Add<CUpti_ActivityJit2>(CUPTI_ACTIVITY_KIND_JIT);
    // A sync-object NVTX marker is neither a range nor a mark.
    CUpti_ActivityMarker2& sync_marker = w.Marker();
    sync_marker.flags = CUPTI_ACTIVITY_FLAG_MARKER_SYNC_ACQUIRE;
  });
  harness.Commit();
  EXPECT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.counters.unknown_records, 3u);
}

TEST(CollectorTest, ABufferCuptiCannotWalkIsCountedAsUnreadableNotAsARecord) {
  RecordingSink sink;
  RecordRouter router(sink);
  router.OnUnreadableRest(/*cupti_status=*/1);
  router.Commit();
  EXPECT_EQ(sink.counters.unreadable_buffers, 1u);
  EXPECT_EQ(sink.counters.unknown_records, 0u) << "an unknown number of records, not one";
}

// A translator that writes one kernel and then fails, as a std::bad_alloc would.
class FailingTranslator : public BufferTranslator {
 public:
  void Translate(std::uint8_t*, std::size_t, RecordRouter& router) override {
    model::KernelRecord kernel;
    kernel.mangled_name = "before_the_failure";
    kernel.start = 1;
    kernel.end = 2;
    router.OnKernel(kernel);
    throw std::runtime_error("out of memory");
  }
  void TranslateCapturedCalls(std::uint8_t*, std::size_t, RecordRouter&) override {}
  void TallyLateRecords(std::uint8_t*, std::size_t, LateRecords&) override {}
  void TallyLateCapturedCalls(std::uint8_t*, std::size_t, LateRecords&) override {}
};

TEST(CollectorTest, ATranslationFailureCountsTheRestOfTheBufferAsUnreadable) {
  RecordingSink sink;
  Collector collector(sink, std::make_unique<FailingTranslator>(), SmallCollectorOptions());
  ASSERT_TRUE(collector.Start(TestProcess()).ok());
  std::uint8_t* buffer = nullptr;
  std::size_t size = 0, max_records = 0;
  collector.OnBufferRequested(&buffer, &size, &max_records);
  ASSERT_NE(buffer, nullptr);
  ::testing::internal::CaptureStderr();
  collector.OnBufferCompleted(buffer, 64);
  ASSERT_TRUE(collector.Finish(std::chrono::seconds(10)));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("writing activity records failed: out of memory; the rest of this buffer "
                     "is lost (counted as an unreadable buffer)"),
            std::string::npos)
      << err;
  EXPECT_EQ(sink.kernels.size(), 1u) << "what was written before the failure stays";
  EXPECT_EQ(sink.counters.unreadable_buffers, 1u);
  EXPECT_EQ(collector.stats().pool.free, collector.stats().pool.allocated)
      << "the buffer went back to the pool";
}

TEST(CollectorTest, DroppedRecordsReachTheCounters) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.collector().AddDroppedRecords(5);
  harness.collector().AddDroppedRecords(7);
  harness.Commit();
  EXPECT_EQ(sink.counters.dropped_records, 12u);
}

TEST(CollectorTest, BuffersReturnToThePoolZeroed) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  std::uint8_t* first =
      harness.Deliver([](CuptiRecordWriter& w) { w.Kernel().name = kKernelName; });
  harness.Commit();
  BufferPoolStats stats = harness.collector().stats().pool;
  EXPECT_EQ(stats.allocated, 1u);
  EXPECT_EQ(stats.free, 1u);
  EXPECT_EQ(stats.awaiting_release, 0u);
  // CUPTI asks again: it gets the same buffer back, zeroed as CUPTI was promised.
  std::uint8_t* buffer = nullptr;
  std::size_t size = 0, max_records = 0;
  cupti::BufferRequested(&buffer, &size, &max_records);
  EXPECT_EQ(buffer, first);
  for (std::size_t i = 0; i < sizeof(CUpti_ActivityKernel10); ++i) ASSERT_EQ(buffer[i], 0) << i;
  cupti::BufferCompleted(nullptr, 0, buffer, size, 0);  // returned empty
  EXPECT_EQ(harness.collector().stats().pool.free, 1u);
  EXPECT_EQ(harness.collector().stats().buffers_written, 1u) << "an empty buffer is not queued";
}

TEST(CollectorTest, ForeignBuffersAreIgnored) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  alignas(8) std::uint8_t foreign[256] = {};
  CuptiRecordWriter(foreign, sizeof(foreign)).Kernel().name = kKernelName;
  cupti::BufferCompleted(nullptr, 0, foreign, sizeof(foreign), sizeof(CUpti_ActivityKernel10));
  harness.Commit();
  EXPECT_TRUE(sink.kernels.empty());
  EXPECT_EQ(harness.collector().stats().foreign_buffers, 1u);
}

TEST(CollectorTest, ABoundedPoolMakesCuptiWaitForASlowWriter) {
  RecordingSink sink;
  sink.kernel_delay_us = 300;
  CollectorOptions options = SmallCollectorOptions();
  options.pool.buffer_bytes = 16 * 1024;  // 75 kernel records per buffer
  options.pool.soft_limit = 3;
  options.pool.hard_limit = 8;
  CollectorHarness harness(sink, options);
  constexpr int kBuffers = 12;
  int records = 0;
  for (int b = 0; b < kBuffers; ++b) {
    harness.Deliver([&](CuptiRecordWriter& w) {
      while (w.used() + sizeof(CUpti_ActivityKernel10) <= options.pool.buffer_bytes) {
        CUpti_ActivityKernel10& k = w.Kernel();
        k.name = kKernelName;
        k.start = 1000 + records;
        k.end = 2000 + records;
        k.correlationId = static_cast<std::uint32_t>(records++);
      }
    });
    ASSERT_LE(harness.collector().stats().pool.allocated, 3u)
        << "the pool waited for the writer instead of growing";
  }
  harness.Commit();
  EXPECT_EQ(sink.kernels.size(), static_cast<std::size_t>(records)) << "nothing dropped";
  BufferPoolStats stats = harness.collector().stats().pool;
  EXPECT_GT(stats.waits, 0u);
  EXPECT_EQ(stats.refused, 0u);
  EXPECT_EQ(stats.grown_past_soft_limit, 0u);
  for (int i = 0; i < records; ++i) {
    ASSERT_EQ(sink.kernels[i].record.correlation_id, static_cast<std::uint32_t>(i))
        << "order is kept";
  }
}

TEST(CollectorTest, CommitsPeriodicallyWithoutBeingAsked) {
  RecordingSink sink;
  CollectorOptions options = SmallCollectorOptions();
  options.commit_interval = std::chrono::milliseconds(50);
  CollectorHarness harness(sink, options);
  harness.Deliver([](CuptiRecordWriter& w) { w.Kernel().name = kKernelName; });
  for (int i = 0; i < 200; ++i) {
    {
      auto lock = sink.lock();
      if (sink.kernels_at_last_flush == 1) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto lock = sink.lock();
  EXPECT_EQ(sink.kernels_at_last_flush, 1u) << "the kernel was committed within the interval";
}

TEST(CollectorTest, BuffersCompletedAfterFinishAreGivenBackAndCounted) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Deliver([](CuptiRecordWriter& w) { w.Kernel().name = kKernelName; });
  harness.Finish();
  EXPECT_EQ(sink.kernels.size(), 1u) << "Finish writes what was queued";
  const int flushes = sink.flushes;
  harness.Deliver([](CuptiRecordWriter& w) { w.Kernel().name = kKernelName; });
  CollectorStats stats = harness.collector().stats();
  EXPECT_EQ(stats.late_buffers, 1u);
  EXPECT_EQ(stats.late_bytes, sizeof(CUpti_ActivityKernel10));
  EXPECT_EQ(stats.late_records, 1u) << "the records lost are counted, not only the buffers";
  EXPECT_EQ(stats.pool.free, stats.pool.allocated) << "the late buffer is reusable";
  EXPECT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.flushes, flushes);
}

// What CUDA's teardown and gpuscope's own clock kernel leave after the report closed: the
// program's records are named in the count, gpuscope's own calls are not counted at all.
TEST(CollectorTest, LateRecordsAreNamedAndGpuscopesOwnCallsAreNotCounted) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.Finish();
  NoteOwnReplayCall(90001);  // as the GPU clock's launch callback notes its call
  harness.Deliver([](CuptiRecordWriter& w) {
    CUpti_ActivityAPI& unload = w.Driver();
    unload.cbid = CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload;
    unload.correlationId = 501;
    CUpti_ActivityAPI& unload2 = w.Driver();
    unload2.cbid = CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload;
    unload2.correlationId = 502;
    CUpti_ActivityKernel10& kernel = w.Kernel();
    kernel.name = "_Z5scalePfif";
    kernel.correlationId = 503;
    CUpti_ActivityAPI& own_launch = w.Driver();
    own_launch.cbid = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
    own_launch.correlationId = 90001;
    CUpti_ActivityKernel10& own_kernel = w.Kernel();
    own_kernel.name = "gpuscope_clock_read";
    own_kernel.correlationId = 90001;
  });
  EXPECT_EQ(harness.collector().stats().late_buffers, 1u);
  EXPECT_EQ(harness.collector().stats().late_records, 3u) << "gpuscope's own two are left out";
  EXPECT_EQ(harness.collector().LateRecordsDescription(),
            "2 cuLibraryUnload, 1 kernel scale(float*, int, float)");
}

TEST(LateRecordsTest, TheMostFrequentComeFirstAndTheRestIsCounted) {
  LateRecords late;
  EXPECT_EQ(late.Describe(), "");
  late.Add("memcpy");
  late.Add("cuLibraryUnload", 3);
  late.Add("cuCtxDestroy");
  late.Add("kernel k", 0);  // nothing
  EXPECT_EQ(late.total(), 5u);
  EXPECT_EQ(late.Describe(), "3 cuLibraryUnload, 1 cuCtxDestroy, 1 memcpy");
  EXPECT_EQ(late.Describe(1), "3 cuLibraryUnload and 2 more");
}

// As under a pids cgroup limit: the writer thread cannot be created. The collector must say
// so and then neither wait for a writer that does not exist nor throw from its destructor
// (that would be std::terminate inside cuInit).
TEST(CollectorTest, AWriterThreadThatCannotStartLeavesNothingToWaitFor) {
  RecordingSink sink;
  CollectorOptions options = SmallCollectorOptions();
  options.start_thread = [](const char* name, std::function<void()>, std::thread&) {
    return Status::Error(std::string("cannot start thread ") + name + ": Resource unavailable");
  };
  auto collector =
      std::make_unique<Collector>(sink, std::make_unique<cupti::ActivityTranslator>(), options);
  Status started = collector->Start(TestProcess());
  EXPECT_FALSE(started.ok());
  EXPECT_EQ(started.message(), "cannot start thread gpuscope-writer: Resource unavailable");
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(EXPECT_TRUE(collector->Finish(std::chrono::milliseconds(200))));
  EXPECT_NO_THROW(collector.reset());  // the destructor waits for nothing either
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::milliseconds(150))
      << "nothing was waited for";
  EXPECT_FALSE(collector);
}

TEST(CollectorTest, ManyThreadsDeliverConcurrently) {
  RecordingSink sink;
  CollectorOptions options = SmallCollectorOptions();
  options.pool.buffer_bytes = 8 * 1024;
  CollectorHarness harness(sink, options);
  constexpr int kThreads = 16;
  constexpr int kBuffersPerThread = 20;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int b = 0; b < kBuffersPerThread; ++b) {
        harness.Deliver([&](CuptiRecordWriter& w) {
          for (int i = 0; i < 10; ++i) {
            CUpti_ActivityAPI& api = w.Runtime();
            api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
            api.threadId = static_cast<std::uint32_t>(t);
            api.start = static_cast<std::uint64_t>(b * 100 + i * 10);
            api.end = api.start + 5;
          }
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  harness.Commit();
  EXPECT_EQ(sink.api_calls.size(), static_cast<std::size_t>(kThreads * kBuffersPerThread * 10));
  EXPECT_EQ(harness.collector().stats().pool.refused, 0u);
}

}  // namespace
}  // namespace gpuscope::inject::testing
