// `gpuscope occupancy --cc 9.0 --threads 256 --regs 40 [--smem N] [--dyn-smem N] ...`: the
// theoretical occupancy of a launch configuration on any supported compute capability,
// without a GPU (NVIDIA's occupancy calculator spreadsheet and Nsight Compute's Occupancy
// section, on the command line).
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 when the result was printed, including a configuration that cannot launch (the output
// says why and shows 0 blocks); 2 for usage errors (unknown option, a value that is not a
// launch on that capability: unsupported --cc, threads outside 1..1024, registers over 255,
// shared memory over the per-block maximum); 1 when the --svg file cannot be written.
int OccupancyCommand(std::span<const std::string> args);

std::string OccupancyUsage();

}  // namespace gpuscope::cli
