#include "store/testing/sample_records.h"

#include "store/testing/devices.h"

namespace gpuscope::store::testing {

namespace {

// Where and when a sample GPU activity ran: the fields kernels, copies and memsets share.
// Device 16, not 1, which a true bool field would also read as.
template <typename Record>
void PlaceOnGpu(Record& r, model::Timestamp start, model::Timestamp duration,
                std::uint32_t context_id, std::uint32_t stream_id, std::uint32_t correlation_id) {
  r.start = start;
  r.end = start + duration;
  r.device_id = 16;
  r.context_id = context_id;
  r.stream_id = stream_id;
  r.correlation_id = correlation_id;
}

}  // namespace

model::KernelRecord SampleKernel(int i) {
  static const char* const kNames[] = {"_Z6vecAddPKfS0_Pfi", "_Z3addiiPi", "triton_poi_fused_0"};
  model::KernelRecord r;
  PlaceOnGpu(r, kSampleStart + 1000 * i + 17, 2345 + i, 3 + i, 13 + i, 1001 + i);
  r.grid_id = 77 + i;
  r.grid_x = 120 + i;
  r.grid_y = 31;
  r.grid_z = 32;
  r.block_x = 256;
  r.block_y = 33;
  r.block_z = 34;
  r.cluster_x = 7;
  r.cluster_y = 8;
  r.cluster_z = 12;
  r.registers_per_thread = 40 + i;
  r.static_shared_memory = 4096 + i;
  r.dynamic_shared_memory = 8192 + i;
  r.shared_memory_executed = 167936;
  r.local_memory_per_thread = 24;
  r.local_memory_total = 65'011'712ull + i;
  r.graph_id = 9 + i;
  r.graph_node_id = 0x8000'0000'0000'0010ull + i;  // >= 2^63: stored as a negative integer
  r.launch_type = 2;
  r.cache_config = 0x12;
  r.device_launched = true;
  r.mangled_name = kNames[i % 3];
  return r;
}

model::MemcpyRecord SampleMemcpy(int i) {
  model::MemcpyRecord r;
  PlaceOnGpu(r, kSampleStart + 500 * i + 3, 999, 3, 14, 2001 + i);
  r.runtime_correlation_id = 2000 + i;
  r.copy_kind = i % 2 ? model::CopyKind::kPtoP : model::CopyKind::kDtoH;
  r.src_kind = model::MemoryKind::kDevice;
  r.dst_kind = model::MemoryKind::kPinned;
  r.is_async = true;
  r.bytes = (1ull << 33) + i;
  r.src_device_id = 5;  // not device_id: a swap would go unseen
  r.dst_device_id = 2;
  r.graph_id = 4;
  r.graph_node_id = 55;
  return r;
}

model::MemsetRecord SampleMemset(int i) {
  model::MemsetRecord r;
  PlaceOnGpu(r, kSampleStart + 700 * i + 5, 333, 3, 15, 3001 + i);
  r.value = 0xAB;
  r.memory_kind = model::MemoryKind::kManaged;
  r.is_async = true;
  r.bytes = 4096 + i;
  r.graph_id = 6;
  r.graph_node_id = 66;
  return r;
}

model::ApiCallRecord SampleApiCall(int i) {
  static const char* const kNames[] = {"cudaLaunchKernel", "cuLaunchKernel", "cudaMalloc"};
  model::ApiCallRecord r;
  r.domain = i % 3 == 1 ? model::ApiDomain::kDriver : model::ApiDomain::kRuntime;
  r.cbid = 211 + i;
  r.start = kSampleStart + 900 * i + 1;
  r.end = r.start + 4321;
  r.process_id = 48213;
  r.thread_id = 0xFA5BE740u;  // above 2^31
  r.correlation_id = 1001 + i;
  r.return_value = i % 2 ? 700 : 0;
  r.name = kNames[i % 3];
  r.stack_id = i % 3 == 2 ? 0 : 7 + i;  // some calls without a stack (stored as NULL)
  return r;
}

model::MemoryRecord SampleMemory(int i) {
  model::MemoryRecord r;
  r.timestamp = kSampleStart + 300 * i + 9;
  r.op = i % 2 ? model::MemoryOp::kFree : model::MemoryOp::kAlloc;
  r.memory_kind = model::MemoryKind::kDevice;
  r.address = 0xFFFF'8000'0000'1000ull + i;  // >= 2^63
  r.bytes = 1 << 20;
  r.device_id = 16;
  r.context_id = 3;
  r.stream_id = 0xFFFFFFFFu;
  r.correlation_id = 4001 + i;
  r.is_async = i % 2 == 0;
  r.pc = 0x7f00'1234'5678ull;
  return r;
}

model::SyncRecord SampleSync(int i) {
  model::SyncRecord r;
  r.start = kSampleStart + 1100 * i + 2;
  r.end = r.start + 50'000;
  r.kind = model::SyncKind::kStreamSynchronize;
  r.context_id = 3;
  r.stream_id = 13;
  r.event_id = 8 + i;
  r.correlation_id = 5001 + i;
  return r;
}

model::NvtxRecord SampleNvtx(int i) {
  static const char* const kNames[] = {"forward", "backward", "step 7"};
  model::NvtxRecord r;
  r.kind = i % 2 ? model::NvtxKind::kStartEndRange : model::NvtxKind::kPushPopRange;
  r.start = kSampleStart + 1300 * i + 4;
  r.end = r.start + 100'000;
  r.id = 31 + i;
  r.thread_id = 0x3a5be740u;
  r.process_id = 48213;
  r.category = 2;
  r.color = 0xFF00FF00u;
  r.name = kNames[i % 3];
  r.domain = i % 2 ? "my-domain" : "";
  return r;
}

model::OverheadRecord SampleOverhead(int i) {
  model::OverheadRecord r;
  r.start = kSampleStart + 1700 * i + 6;
  r.end = r.start + 2'200'000;
  r.overhead_kind = 7u << 16;
  r.process_id = 48213;
  r.thread_id = 0x3a5be741u;
  r.name = "activity buffer request";
  return r;
}

model::DeviceRecord SampleDevice(int i) {
  // The H200, with the fields that equal another field (id and ECC 1, warp size and blocks
  // per SM 32, the two register limits) or the model's default (warp size, MIG off) moved.
  model::DeviceRecord r = H200();
  r.id = static_cast<std::uint32_t>(2 + i);
  r.compute_minor = static_cast<std::uint32_t>(3 + i);
  r.warp_size = 48;
  r.max_registers_per_block = 65535;
  r.mig_enabled = true;
  return r;
}

}  // namespace gpuscope::store::testing
