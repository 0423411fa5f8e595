// `gpuscope source REPORT... [-k name|regex:expr] [--kernel-id ...] [--print-source
// sass|cuda|cuda,sass] [--sort COLUMN] [--csv]`: Nsight Compute's source page of the kernels
// profiled with source counters (`gpuscope profile --set full`): per SASS instruction and/or
// source line, executions, memory sectors and wavefronts, divergent branches and warp stall
// samples. No GPU is needed; the SASS text needs nvdisasm (CUDA toolkit).
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 when printed; 2 for usage errors; 1 when a report cannot be read, holds no profiled
// kernels, or none matches the filters.
int SourceCommand(std::span<const std::string> args);

std::string SourceUsage();

}  // namespace gpuscope::cli
