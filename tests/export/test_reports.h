// Real reports for the export and viewer tests, built with the test fixtures
// (store/testing): a small "rich" report with one of every kind of record (and hostile
// names), and large synthetic launch-bound ones.
#pragma once

#include <cstdint>
#include <string>

#include "model/records.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::exporter::testing {

inline constexpr model::Timestamp kRichStart = 1'700'000'000'000'000'000ull;
inline constexpr std::uint32_t kRichPid = 4242;
inline constexpr std::uint32_t kRichThread = 77;

// Names with everything that breaks careless JSON, CSV and HTML.
inline constexpr const char* kHostileKernel = "</script><script>alert(1)</script>";
inline constexpr const char* kHostileRange = "quote\" back\\slash\ttab\x01 bad\xff utf8, comma";

// The rich report (times relative to kRichStart, in ns):
//   runtime cudaMalloc [0, 1000) corr 1, with a nested driver cuMemAlloc [100, 900) corr 2
//   memory alloc 1 MiB at 500 (device 0, address 0x1000); free at 90000 (bytes 0 in the record)
//   cudaLaunchKernel [2000, 3000) corr 3 -> kernel "_Z3addiiPi" on stream 7 [4000, 7424)
//   cudaLaunchKernel [3000, 3500) corr 4 -> hostile kernel on stream 13 [5000, 6000)
//   cudaMemcpy [8000, 20000) corr 5, driver cuMemcpyDtoH [8100, 19000) corr 6
//       -> memcpy DtoH 4 bytes [10000, 12656), correlation 6, runtime correlation 5
//   cudaMemset [21000, 22000) corr 7 -> memset on stream 7 [23000, 23500)
//   NVTX push/pop "outer" [0, 50000) containing "inner" [1000, 30000); mark "tick" at 25000;
//   start/end hostile range [40000, 60000); an unended push/pop "open" at 70000
//   one kernel without timestamps (corr 8)
//   device 0: store::testing::H200() ("NVIDIA H200", cc 9.0, 132 SMs)
void WriteRichReport(const std::string& path);

// WriteSyntheticTrace with `kernels` kernels (2 * kernels events).
void WriteSyntheticReport(const std::string& path, std::uint64_t kernels);

// Runs `sql` on the report at `path` (read-write), as the tests that mutate a copy of a
// report do; fails the test on an SQL error.
void ExecSql(const std::string& path, const std::string& sql);

// The fixtures' scratch directory, under the name the export and viewer tests use.
using store::testing::ScratchDir;

using ::gpuscope::store::testing::ReadWholeFile;

}  // namespace gpuscope::exporter::testing
