// The few CUDA driver functions gpuscope calls itself inside the program (to replay a profiled
// launch for its source counters), looked up in the driver already loaded there: the
// injection library does not link libcuda, which loaded it.
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
};

// Looked up once; an error names what is missing.
StatusOr<const DriverEntryPoints*> Driver();

}  // namespace gpuscope::cupti
