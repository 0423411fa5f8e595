// Writes real CUPTI activity record structs back to back into a buffer, exactly as CUPTI
// lays them out (each record zeroed, its `kind` set, 8-byte aligned, sizes of the CUDA 13
// structs), so tests can push them through the production path with no GPU: the record
// walker is CUPTI's own cuptiActivityGetNextRecord.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace gpuscope::inject::testing {

class CuptiRecordWriter {
 public:
  CuptiRecordWriter(std::uint8_t* buffer, std::size_t capacity)
      : buffer_(buffer), capacity_(capacity) {}

  template <typename Record>
  Record& Add(CUpti_ActivityKind kind) {
    static_assert(sizeof(Record) % 8 == 0, "CUPTI records are 8-byte multiples");
    if (used_ + sizeof(Record) > capacity_) throw std::runtime_error("test buffer full");
    auto* record = reinterpret_cast<Record*>(buffer_ + used_);
    std::memset(static_cast<void*>(record), 0, sizeof(Record));
    reinterpret_cast<CUpti_Activity*>(record)->kind = kind;
    used_ += sizeof(Record);
    return *record;
  }

  // A <<<1, 1>>> launch unless the test sets another configuration: CUPTI never reports a
  // dimension of 0, and readers leave such rows out as damaged (store/damaged_rows.h).
  CUpti_ActivityKernel10& Kernel() {
    CUpti_ActivityKernel10& kernel =
        Add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    kernel.gridX = kernel.gridY = kernel.gridZ = 1;
    kernel.blockX = kernel.blockY = kernel.blockZ = 1;
    return kernel;
  }
  CUpti_ActivityMemcpy6& Memcpy() { return Add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY); }
  CUpti_ActivityMemcpyPtoP4& PeerCopy() {
    return Add<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  }
  CUpti_ActivityMemset4& Memset() { return Add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET); }
  CUpti_ActivityAPI& Runtime() { return Add<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME); }
  CUpti_ActivityAPI& Driver() { return Add<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_DRIVER); }
  CUpti_ActivityMemory4& Memory() {
    return Add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  }
  CUpti_ActivitySynchronization2& Sync() {
    return Add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  }
  CUpti_ActivityMarker2& Marker() { return Add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER); }
  CUpti_ActivityMarkerData2& MarkerData() {
    return Add<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
  }
  CUpti_ActivityOverhead3& Overhead() {
    return Add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  }
  CUpti_ActivityDevice5& Device() { return Add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE); }
  CUpti_ActivityContext3& Context() {
    return Add<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  }
  CUpti_ActivityStream& Stream() { return Add<CUpti_ActivityStream>(CUPTI_ACTIVITY_KIND_STREAM); }

  // The shapes most tests write, fields not named here left zero.
  // A runtime or driver call on one thread of a process.
  CUpti_ActivityAPI& Api(CUpti_ActivityKind kind, std::uint32_t cbid, std::uint64_t start,
                         std::uint64_t end, std::uint32_t process, std::uint32_t thread,
                         std::uint32_t correlation) {
    CUpti_ActivityAPI& call = Add<CUpti_ActivityAPI>(kind);
    call.cbid = cbid;
    call.start = start;
    call.end = end;
    call.processId = process;
    call.threadId = thread;
    call.correlationId = correlation;
    return call;
  }
  // An NVTX marker as CUPTI 13 delivers every one: object kind THREAD. `flags` says what it
  // is (START, END, INSTANTANEOUS); `id` pairs a START with its END.
  CUpti_ActivityMarker2& Marker(CUpti_ActivityFlag flags, std::uint32_t id, std::uint64_t time,
                                std::uint32_t process, std::uint32_t thread, const char* name,
                                const char* domain) {
    CUpti_ActivityMarker2& m = Marker();
    m.flags = flags;
    m.timestamp = time;
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = process;
    m.objectId.pt.threadId = thread;
    m.name = name;
    m.domain = domain;
    return m;
  }
  // The color (ARGB, 0: none) and category of marker `id`.
  CUpti_ActivityMarkerData2& MarkerData(std::uint32_t id, std::uint32_t color,
                                        std::uint32_t category) {
    CUpti_ActivityMarkerData2& d = MarkerData();
    d.id = id;
    d.flags =
        color != 0 ? CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB : CUPTI_ACTIVITY_FLAG_MARKER_COLOR_NONE;
    d.color = color;
    d.category = category;
    return d;
  }

  std::size_t used() const { return used_; }

 private:
  std::uint8_t* buffer_;
  std::size_t capacity_;
  std::size_t used_ = 0;
};

}  // namespace gpuscope::inject::testing
