#include "cupti/profiler/l2_flush.h"

#include <string>

#include "cupti/common/driver_entry_points.h"

namespace gpuscope::cupti {
namespace {

Status Checked(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return Status();
  return Status::Error(std::string("the L2 flush: ") + what + " returned CUDA error " +
                       std::to_string(result));
}

constexpr int kThreadsPerBlock = 512;

}  // namespace

StatusOr<L2Flush::ContextFlush*> L2Flush::For(CUcontext context) {
  auto found = contexts_.find(context);
  if (found != contexts_.end()) return &found->second;
  StatusOr<const DriverEntryPoints*> entry_points = Driver();
  if (!entry_points.ok()) return entry_points.status();
  const DriverEntryPoints& d = **entry_points;
  CUdevice device = 0;
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.context_get_device(&device), "cuCtxGetDevice"));
  int l2_bytes = 0;
  int sms = 0;
  GPUSCOPE_RETURN_IF_ERROR(Checked(
      d.device_get_attribute(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
      "cuDeviceGetAttribute(L2_CACHE_SIZE)"));
  GPUSCOPE_RETURN_IF_ERROR(Checked(
      d.device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
      "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)"));
  if (l2_bytes <= 0) return Status::Error("the L2 flush: the device reports no L2 cache");
  ContextFlush flush;
  CUmodule module = nullptr;
  // The PTX is a C string (the raw literal ends with its NUL), as cuModuleLoadData wants.
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.module_load_data(&module, L2FlushPtx().data()),
                                   "cuModuleLoadData (the flush kernel's PTX)"));
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.module_get_function(&flush.function, module, "gpuscope_l2_flush"),
                                   "cuModuleGetFunction"));
  flush.bytes = 2 * static_cast<std::size_t>(l2_bytes);
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.mem_alloc(&flush.buffer, flush.bytes),
                                   "cuMemAlloc (a buffer twice the size of L2)"));
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.mem_alloc(&flush.sink, sizeof(float)), "cuMemAlloc"));
  // Zeroed once, so that the kernel's sum can never equal its sentinel: it never writes.
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.memset_d8(flush.buffer, 0, flush.bytes), "cuMemsetD8"));
  flush.blocks = 4 * (sms > 0 ? sms : 1);
  return &contexts_.emplace(context, flush).first->second;
}

Status L2Flush::Run(CUcontext context) {
  StatusOr<ContextFlush*> flush = For(context);
  if (!flush.ok()) return flush.status();
  StatusOr<const DriverEntryPoints*> entry_points = Driver();
  if (!entry_points.ok()) return entry_points.status();
  const DriverEntryPoints& d = **entry_points;
  ContextFlush& f = **flush;
  unsigned long long vectors = f.bytes / 16;  // float4 elements
  void* arguments[] = {&f.buffer, &vectors, &f.sink};
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.launch_kernel(f.function, static_cast<unsigned>(f.blocks), 1,
                                                   1, kThreadsPerBlock, 1, 1, 0, nullptr,
                                                   arguments, nullptr),
                                   "cuLaunchKernel (the flush kernel)"));
  return Checked(d.context_synchronize(), "cuCtxSynchronize after the flush");
}

std::size_t L2Flush::buffer_bytes(CUcontext context) const {
  auto found = contexts_.find(context);
  return found == contexts_.end() ? 0 : found->second.bytes;
}

}  // namespace gpuscope::cupti
