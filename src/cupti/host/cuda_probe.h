// Why a traced program left no report: gpuscope must not just print nothing, because "no
// output" looks the same as "gpuscope is broken". The injection library is loaded by the
// CUDA driver in cuInit, so a program without reports either could not reach the driver,
// found no GPU, or never initialised CUDA (or the driver did not load the library: an
// older driver without CUDA_INJECTION64_PATH support, say).
//
// Behind the vendor boundary with the rest of what speaks to NVIDIA's libraries: the driver
// is loaded at run time (the launcher must start on a machine without one) and its functions
// are typed by <cuda.h>.
#pragma once

#include <string>

namespace gpuscope::cupti::host {

// One phrase for "==PID== gpuscope: no CUDA activity was recorded: <reason>". Probes in
// this process: dlopen("libcuda.so.1"), then cuInit(0) through dlsym (with
// CUDA_INJECTION64_PATH removed from this process's environment first, so the driver does
// not load the injection library into the launcher).
std::string ExplainMissingCudaActivity();

}  // namespace gpuscope::cupti::host
