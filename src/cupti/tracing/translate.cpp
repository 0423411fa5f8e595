#include "cupti/tracing/translate.h"

#include <cupti.h>

#include <array>
#include <cstring>
#include <string_view>

#include "inject/captured_api_calls.h"
#include "inject/log.h"
#include "inject/own_replay_calls.h"
#include "util/demangle.h"

namespace gpuscope::cupti {
namespace {

model::CopyKind ToCopyKind(std::uint32_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return model::CopyKind::kHtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return model::CopyKind::kDtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return model::CopyKind::kHtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return model::CopyKind::kAtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      return model::CopyKind::kAtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
      return model::CopyKind::kAtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return model::CopyKind::kDtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return model::CopyKind::kDtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return model::CopyKind::kHtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return model::CopyKind::kPtoP;
    default:
      return model::CopyKind::kUnknown;
  }
}

model::MemoryKind ToMemoryKind(std::uint32_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
      return model::MemoryKind::kPageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
      return model::MemoryKind::kPinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
      return model::MemoryKind::kDevice;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
      return model::MemoryKind::kArray;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
      return model::MemoryKind::kManaged;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
      return model::MemoryKind::kDeviceStatic;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
      return model::MemoryKind::kManagedStatic;
    default:
      return model::MemoryKind::kUnknown;
  }
}

model::SyncKind ToSyncKind(std::uint32_t type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
      return model::SyncKind::kEventSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
      return model::SyncKind::kStreamWaitEvent;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return model::SyncKind::kStreamSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return model::SyncKind::kContextSynchronize;
    default:
      return model::SyncKind::kUnknown;
  }
}

std::string_view OverheadName(std::uint32_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
      return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
      return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
      return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
      return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
      return "runtime triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
      return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
      return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
      return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
      return "UVM activity init";
    default:
      return "unknown";
  }
}

std::string_view View(const char* text) { return text != nullptr ? text : std::string_view(); }

void TranslateKernel(const CUpti_ActivityKernel10& k, inject::RecordRouter& router) {
  model::KernelRecord r;
  r.start = k.start;
  r.end = k.end;
  r.device_id = k.deviceId;
  r.context_id = k.contextId;
  r.stream_id = k.streamId;
  r.correlation_id = k.correlationId;
  r.grid_id = k.gridId;
  r.grid_x = k.gridX;
  r.grid_y = k.gridY;
  r.grid_z = k.gridZ;
  r.block_x = k.blockX;
  r.block_y = k.blockY;
  r.block_z = k.blockZ;
  r.cluster_x = k.clusterX;
  r.cluster_y = k.clusterY;
  r.cluster_z = k.clusterZ;
  r.registers_per_thread = k.registersPerThread;
  r.static_shared_memory = k.staticSharedMemory;
  r.dynamic_shared_memory = k.dynamicSharedMemory;
  r.shared_memory_executed = k.sharedMemoryExecuted;
  r.local_memory_per_thread = k.localMemoryPerThread;
  // localMemoryTotal (32 bit) is deprecated in favour of the 64-bit field.
  r.local_memory_total = k.localMemoryTotal_v2 != 0 ? k.localMemoryTotal_v2 : k.localMemoryTotal;
  r.graph_id = k.graphId;
  r.graph_node_id = k.graphNodeId;
  r.launch_type = k.launchType;
  r.cache_config = k.cacheConfig.both;
  r.device_launched = k.isDeviceLaunched != 0;
  r.mangled_name = View(k.name);
  router.OnKernel(r);
}

// The fields CUPTI's two copy records share (MEMCPY and MEMCPY2, the peer-to-peer one).
template <typename CuptiCopy>
model::MemcpyRecord TranslateCopyCommon(const CuptiCopy& m) {
  model::MemcpyRecord r;
  r.start = m.start;
  r.end = m.end;
  r.device_id = m.deviceId;
  r.context_id = m.contextId;
  r.stream_id = m.streamId;
  r.correlation_id = m.correlationId;
  r.copy_kind = ToCopyKind(m.copyKind);
  r.src_kind = ToMemoryKind(m.srcKind);
  r.dst_kind = ToMemoryKind(m.dstKind);
  r.is_async = (m.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
  r.bytes = m.bytes;
  r.graph_id = m.graphId;
  r.graph_node_id = m.graphNodeId;
  return r;
}

void TranslateMemcpy(const CUpti_ActivityMemcpy6& m, inject::RecordRouter& router) {
  model::MemcpyRecord r = TranslateCopyCommon(m);
  r.runtime_correlation_id = m.runtimeCorrelationId;
  router.OnMemcpy(r);
}

void TranslatePeerCopy(const CUpti_ActivityMemcpyPtoP4& m, inject::RecordRouter& router) {
  model::MemcpyRecord r = TranslateCopyCommon(m);
  r.src_device_id = m.srcDeviceId;
  r.dst_device_id = m.dstDeviceId;
  router.OnMemcpy(r);
}

void TranslateMemset(const CUpti_ActivityMemset4& m, inject::RecordRouter& router) {
  model::MemsetRecord r;
  r.start = m.start;
  r.end = m.end;
  r.device_id = m.deviceId;
  r.context_id = m.contextId;
  r.stream_id = m.streamId;
  r.correlation_id = m.correlationId;
  r.value = m.value;
  r.memory_kind = ToMemoryKind(m.memoryKind);
  r.is_async = (m.flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0;
  r.bytes = m.bytes;
  r.graph_id = m.graphId;
  r.graph_node_id = m.graphNodeId;
  router.OnMemset(r);
}

void TranslateMemory(const CUpti_ActivityMemory4& m, inject::RecordRouter& router) {
  model::MemoryRecord r;
  switch (m.memoryOperationType) {
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION:
      r.op = model::MemoryOp::kAlloc;
      break;
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE:
      r.op = model::MemoryOp::kFree;
      break;
    default:
      router.OnUnknownRecord(CUPTI_ACTIVITY_KIND_MEMORY2);
      return;
  }
  r.timestamp = m.timestamp;
  r.memory_kind = ToMemoryKind(m.memoryKind);
  r.address = m.address;
  r.bytes = m.bytes;
  r.device_id = m.deviceId;
  r.context_id = m.contextId;
  r.stream_id = m.streamId;
  r.correlation_id = m.correlationId;
  r.is_async = m.isAsync != 0;
  r.pc = m.PC;
  router.OnMemory(r);
}

void TranslateSync(const CUpti_ActivitySynchronization2& s, inject::RecordRouter& router) {
  model::SyncRecord r;
  r.start = s.start;
  r.end = s.end;
  r.kind = ToSyncKind(s.type);
  r.context_id = s.contextId;
  r.stream_id = s.streamId;
  r.event_id = s.cudaEventId;
  r.correlation_id = s.correlationId;
  router.OnSync(r);
}

void TranslateMarker(const CUpti_ActivityMarker2& m, inject::RecordRouter& router) {
  inject::NvtxMarker marker;
  if (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
    marker.phase = inject::MarkerPhase::kStart;
  } else if (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
    marker.phase = inject::MarkerPhase::kEnd;
  } else if (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
    marker.phase = inject::MarkerPhase::kInstant;
  } else {
    // Sync-object markers (nvtxDomainSync*): not ranges or marks.
    router.OnUnknownRecord(CUPTI_ACTIVITY_KIND_MARKER);
    return;
  }
  // See nvtx_pairing.h: process-wide markers are start/end ranges, thread markers push/pop.
  marker.process_scoped = m.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS;
  marker.id = m.id;
  marker.timestamp = m.timestamp;
  if (m.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS ||
      m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
    marker.process_id = m.objectId.pt.processId;
    marker.thread_id = m.objectId.pt.threadId;
  }
  marker.name = View(m.name);
  marker.domain = View(m.domain);
  router.OnNvtxMarker(marker);
}

void TranslateMarkerData(const CUpti_ActivityMarkerData2& d, inject::RecordRouter& router) {
  const std::uint32_t color = (d.flags & CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB) ? d.color : 0;
  router.OnNvtxMarkerData(d.id, color, d.category);
}

void TranslateOverhead(const CUpti_ActivityOverhead3& o, inject::RecordRouter& router) {
  model::OverheadRecord r;
  r.start = o.start;
  r.end = o.end;
  r.overhead_kind = o.overheadKind;
  if (o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS ||
      o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
    r.process_id = o.objectId.pt.processId;
    r.thread_id = o.objectId.pt.threadId;
  }
  r.name = OverheadName(o.overheadKind);
  router.OnOverhead(r);
}

void TranslateDevice(const CUpti_ActivityDevice5& d, inject::RecordRouter& router) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::array<char, 32> uuid{};
  for (int i = 0; i < 16; ++i) {
    const auto byte = static_cast<unsigned char>(d.uuid.bytes[i]);
    uuid[2 * i] = kHex[byte >> 4];
    uuid[2 * i + 1] = kHex[byte & 0xF];
  }
  model::DeviceRecord r;
  r.id = d.id;
  r.name = View(d.name);
  r.uuid = std::string_view(uuid.data(), uuid.size());
  r.compute_major = d.computeCapabilityMajor;
  r.compute_minor = d.computeCapabilityMinor;
  r.num_sms = d.numMultiprocessors;
  r.warp_size = d.numThreadsPerWarp;
  r.max_threads_per_block = d.maxThreadsPerBlock;
  r.max_warps_per_sm = d.maxWarpsPerMultiprocessor;
  r.max_blocks_per_sm = d.maxBlocksPerMultiprocessor;
  r.max_registers_per_sm = d.maxRegistersPerMultiprocessor;
  r.max_registers_per_block = d.maxRegistersPerBlock;
  r.max_shared_memory_per_sm = d.maxSharedMemoryPerMultiprocessor;
  r.max_shared_memory_per_block = d.maxSharedMemoryPerBlock;
  // CUPTI does not report the opt-in limit. CUDA reserves 1 KiB of each SM's shared memory
  // per block from compute capability 8.0 on (cudaDevAttrReservedSharedMemoryPerBlock),
  // and the opt-in limit is the rest of the SM: H200 233472 - 1024 = 232448, A100
  // 167936 - 1024 = 166912, both as cudaDevAttrMaxSharedMemoryPerBlockOptin reports; on 7.x
  // nothing is reserved (V100: 98304 = 98304).
  const std::uint32_t reserved = d.computeCapabilityMajor >= 8 ? 1024 : 0;
  r.max_shared_memory_per_block_optin = d.maxSharedMemoryPerMultiprocessor > reserved
                                            ? d.maxSharedMemoryPerMultiprocessor - reserved
                                            : d.maxSharedMemoryPerMultiprocessor;
  r.global_memory_bytes = d.globalMemorySize;
  r.global_memory_bandwidth_kbps = d.globalMemoryBandwidth;
  r.core_clock_khz = d.coreClockRate;
  r.l2_cache_bytes = d.l2CacheSize;
  r.max_ipc = d.maxIPC;
  r.ecc_enabled = d.eccEnabled;
  r.mig_enabled = d.isMigEnabled != 0;
  router.OnDevice(r);
}

void TranslateContext(const CUpti_ActivityContext3& c, inject::RecordRouter& router) {
  model::ContextRecord r;
  r.context_id = c.contextId;
  r.device_id = c.deviceId;
  r.null_stream_id = c.nullStreamId;
  router.OnContext(r);
}

void TranslateStream(const CUpti_ActivityStream& s, inject::RecordRouter& router) {
  model::StreamRecord r;
  r.stream_id = s.streamId;
  r.context_id = s.contextId;
  r.priority = static_cast<std::int32_t>(s.priority);
  r.flags = static_cast<std::uint32_t>(s.flag);
  r.correlation_id = s.correlationId;
  router.OnStream(r);
}


// A late record in words, with what identifies it in the debug log.
struct LateRecord {
  std::string label;
  std::uint32_t correlation_id = 0;
  std::uint64_t time = 0;
  std::uint32_t thread_id = 0;
};

LateRecord DescribeLateRecord(const CUpti_Activity& record) {
  LateRecord late;
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& k = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
      std::string name = k.name != nullptr ? Demangle(k.name) : "?";
      if (name.size() > 80) name = name.substr(0, 77) + "...";
      late.label = "kernel " + name;
      late.correlation_id = k.correlationId;
      late.time = k.start;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemcpy6&>(record);
      late.label = "memcpy";
      late.correlation_id = m.correlationId;
      late.time = m.start;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemset4&>(record);
      late.label = "memset";
      late.correlation_id = m.correlationId;
      late.time = m.start;
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto& api = reinterpret_cast<const CUpti_ActivityAPI&>(record);
      late.label = ApiName(record.kind == CUPTI_ACTIVITY_KIND_RUNTIME ? model::ApiDomain::kRuntime
                                                                      : model::ApiDomain::kDriver,
                           api.cbid);
      late.correlation_id = api.correlationId;
      late.time = api.start;
      late.thread_id = api.threadId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemory4&>(record);
      late.label = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                       ? "memory release"
                       : "memory allocation";
      late.correlation_id = m.correlationId;
      late.time = m.timestamp;
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto& s = reinterpret_cast<const CUpti_ActivitySynchronization2&>(record);
      late.label = "synchronization";
      late.correlation_id = s.correlationId;
      late.time = s.start;
      break;
    }
    default:
      late.label = "activity record of kind " + std::to_string(record.kind);
      break;
  }
  return late;
}

}  // namespace

void ActivityTranslator::TallyLateRecords(std::uint8_t* buffer, std::size_t valid_bytes,
                                          inject::LateRecords& late) {
  CUpti_Activity* record = nullptr;
  CUptiResult status = CUPTI_SUCCESS;
  while ((status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record)) == CUPTI_SUCCESS) {
    const LateRecord what = DescribeLateRecord(*record);
    if (what.correlation_id != 0 && inject::IsOwnReplayCall(what.correlation_id)) continue;
    if (inject::DebugLoggingEnabled()) {
      inject::LogDebug("late record: " + what.label + ", correlation " +
                       std::to_string(what.correlation_id) + ", time " +
                       std::to_string(what.time) + ", thread " + std::to_string(what.thread_id));
    }
    late.Add(what.label);
  }
  if (status != CUPTI_ERROR_MAX_LIMIT_REACHED) late.Add("unreadable buffer");
}

void ActivityTranslator::TallyLateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                                                inject::LateRecords& late) {
  const bool whole = inject::ForEachCapturedSection(
      buffer, valid_bytes,
      [&](const inject::CapturedSection& section, const std::uint8_t* calls,
          const std::uint8_t* counts) {
        for (std::uint32_t i = 0; i < section.calls; ++i) {
          inject::CapturedCall call;
          std::memcpy(&call, calls + i * sizeof(call), sizeof(call));
          if (inject::IsOwnReplayCall(call.correlation_id)) continue;
          late.Add(ApiName(static_cast<model::ApiDomain>(call.domain), call.cbid));
        }
        for (std::uint32_t i = 0; i < section.counts; ++i) {
          inject::CapturedCallCount count;
          std::memcpy(&count, counts + i * sizeof(count), sizeof(count));
          late.Add(ApiName(static_cast<model::ApiDomain>(count.domain), count.cbid) + " (counted)",
                   count.calls);
        }
      });
  if (!whole) late.Add("unreadable buffer");
}

void ActivityTranslator::TranslateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                                                inject::RecordRouter& router) {
  using inject::CapturedCall;
  using inject::CapturedCallCount;
  const bool whole = inject::ForEachCapturedSection(
      buffer, valid_bytes,
      [&](const inject::CapturedSection& section, const std::uint8_t* calls,
          const std::uint8_t* counts) {
        for (std::uint32_t i = 0; i < section.calls; ++i) {
          CapturedCall call;
          std::memcpy(&call, calls + i * sizeof(CapturedCall), sizeof(call));
          model::ApiCallRecord r;
          r.domain = static_cast<model::ApiDomain>(call.domain);
          r.cbid = call.cbid;
          r.start = call.start;
          r.end = call.end;
          r.process_id = section.process_id;
          r.thread_id = section.thread_id;
          r.correlation_id = call.correlation_id;
          r.return_value = call.return_value;
          r.name = api_names_.Name(r.domain, call.cbid);
          router.OnTopLevelApiCall(r);
        }
        for (std::uint32_t i = 0; i < section.counts; ++i) {
          CapturedCallCount count;
          std::memcpy(&count, counts + i * sizeof(CapturedCallCount), sizeof(count));
          model::ApiCallCountRecord r;
          r.domain = static_cast<model::ApiDomain>(count.domain);
          r.cbid = count.cbid;
          r.name = api_names_.Name(r.domain, count.cbid);
          r.process_id = section.process_id;
          r.thread_id = section.thread_id;
          r.calls = count.calls;
          r.total_ns = count.total_ns;
          r.min_ns = count.min_ns;
          r.max_ns = count.max_ns;
          r.first_start = count.first_start;
          r.last_end = count.last_end;
          router.OnApiCallCount(r);
        }
      });
  if (!whole) router.OnUnreadableRest(0);
}

void ActivityTranslator::Translate(std::uint8_t* buffer, std::size_t valid_bytes,
                                   inject::RecordRouter& router) {
  CUpti_Activity* record = nullptr;
  for (;;) {
    CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return;  // the normal end of a buffer
    if (status != CUPTI_SUCCESS) {
      router.OnUnreadableRest(static_cast<std::uint32_t>(status));
      return;
    }
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        TranslateKernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_MEMCPY:
        TranslateMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_MEMCPY2:
        TranslatePeerCopy(*reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_MEMSET:
        TranslateMemset(*reinterpret_cast<const CUpti_ActivityMemset4*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_RUNTIME:
      case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto& api = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
        model::ApiCallRecord r;
        r.domain = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? model::ApiDomain::kRuntime
                                                               : model::ApiDomain::kDriver;
        r.cbid = api.cbid;
        r.start = api.start;
        r.end = api.end;
        r.process_id = api.processId;
        r.thread_id = api.threadId;
        r.correlation_id = api.correlationId;
        r.return_value = static_cast<std::int32_t>(api.returnValue);
        r.name = api_names_.Name(r.domain, api.cbid);
        router.OnApiCall(r);
        break;
      }
      case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: {
        const auto& graph = *reinterpret_cast<const CUpti_ActivityGraphTrace2*>(record);
        model::GraphLaunchRecord r;
        r.start = graph.start;
        r.end = graph.end;
        r.device_id = graph.deviceId;
        r.context_id = graph.contextId;
        r.stream_id = graph.streamId;
        r.correlation_id = graph.correlationId;
        r.graph_id = graph.graphId;
        router.OnGraphLaunch(r);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMORY2:
        TranslateMemory(*reinterpret_cast<const CUpti_ActivityMemory4*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        TranslateSync(*reinterpret_cast<const CUpti_ActivitySynchronization2*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_MARKER:
        TranslateMarker(*reinterpret_cast<const CUpti_ActivityMarker2*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        TranslateMarkerData(*reinterpret_cast<const CUpti_ActivityMarkerData2*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_OVERHEAD:
        TranslateOverhead(*reinterpret_cast<const CUpti_ActivityOverhead3*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_DEVICE:
        TranslateDevice(*reinterpret_cast<const CUpti_ActivityDevice5*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_CONTEXT:
        TranslateContext(*reinterpret_cast<const CUpti_ActivityContext3*>(record), router);
        break;
      case CUPTI_ACTIVITY_KIND_STREAM:
        TranslateStream(*reinterpret_cast<const CUpti_ActivityStream*>(record), router);
        break;
      default:
        router.OnUnknownRecord(static_cast<std::uint32_t>(record->kind));
        break;
    }
  }
}

}  // namespace gpuscope::cupti
