// The few CUDA driver functions gpuscope calls itself inside the program (to replay a profiled
// launch for its source and counter passes, to flush L2 between passes, and to read a GPU's
// clock for the clock pairs), looked up in the driver already loaded there: the injection
// library does not link libcuda, which loaded it.
#pragma once

#include <cuda.h>

#include "util/status.h"

namespace gpuscope::cupti {

struct DriverEntryPoints {
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, CUstream, void**, void**) = nullptr;
  CUresult (*launch_kernel_ptsz)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, CUstream, void**, void**) = nullptr;
  CUresult (*launch_kernel_ex)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*launch_kernel_ex_ptsz)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*launch_cooperative)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, CUstream, void**) = nullptr;
  CUresult (*launch_cooperative_ptsz)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, CUstream, void**) = nullptr;
  CUresult (*context_synchronize)() = nullptr;
  // The L2 flush of the counter passes (l2_flush.h): its module, its buffer, the L2 size.
  CUresult (*module_load_data)(CUmodule*, const void*) = nullptr;
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*mem_alloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*context_get_device)(CUdevice*) = nullptr;
  // The PM sampler makes the device's context current on its own thread (pm_sampling_device.h).
  CUresult (*context_set_current)(CUcontext) = nullptr;
  // --replay-mode app-range: the context of an NVTX range (its callback names none).
  CUresult (*context_get_current)(CUcontext*) = nullptr;
  CUresult (*device_get_attribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  // The GPU clock pairs (gpu_clock.h): a context made current on the flusher thread for one
  // sample, a private non-blocking stream, a pinned host slot the clock kernel writes.
  CUresult (*context_push_current)(CUcontext) = nullptr;
  CUresult (*context_pop_current)(CUcontext*) = nullptr;
  CUresult (*stream_create)(CUstream*, unsigned) = nullptr;
  CUresult (*mem_host_alloc)(void**, size_t, unsigned) = nullptr;
  CUresult (*mem_host_get_device_pointer)(CUdeviceptr*, void*, unsigned) = nullptr;
};

// Looked up once; an error names what is missing.
StatusOr<const DriverEntryPoints*> Driver();

}  // namespace gpuscope::cupti
