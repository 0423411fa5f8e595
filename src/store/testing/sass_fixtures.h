// The SASS fixtures of tests/data/sass as records: a cubin file's bytes, and the per-instruction
// values Nsight Compute printed for one kernel (`ncu --page source --csv --print-source sass`)
// turned back into the CUPTI metrics they come from, so that a report built from them can be
// checked against ncu's own numbers.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "model/profile_records.h"

namespace gpuscope::store::testing {

// The file's bytes; aborts the test program when it cannot be read.
std::vector<std::uint8_t> ReadBinaryFile(const std::string& path);

struct NcuSourceKernel {
  std::vector<model::InstructionValue> values;  // names point into `names`
  std::deque<std::string> names;
  std::vector<std::uint64_t> offsets;                  // each instruction's, in order
  std::map<std::uint64_t, std::string> sass;           // offset -> ncu's Source text, trimmed
  std::map<std::string, std::uint64_t> column_totals;  // ncu column header -> sum over rows
};

// The first kernel block of `csv_path` (ncu's CSV of the source page), as the values of
// `function` in cubin `crc`. Offsets are the addresses less the first instruction's.
NcuSourceKernel LoadNcuSourceCsv(const std::string& csv_path, const std::string& function,
                                 std::uint64_t crc);

}  // namespace gpuscope::store::testing
