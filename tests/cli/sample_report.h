// A real report, built with the test fixtures' ReportBuilder, of reference 002's `add` program:
// the input of the tests that check what gpuscope prints from reports.
#pragma once

#include <cstdint>
#include <string>

#include "model/records.h"

namespace gpuscope::cli::testing {

// One kernel add(int, int, int*) of 3.424 us, one 4-byte DtoH copy of 2.656 us, and the
// runtime calls cudaMalloc 165.86 ms, cudaLaunchKernel 20.007 us, cudaMemcpy 38.522 us and
// cudaFree 81.893 us, by process `pid` running "./sample", with `losses` as its collection
// counters. Fails the test on error.
void WriteAddProgramReport(const std::string& path, std::uint32_t pid,
                           const model::CollectionCounters& losses = {});

// The nvprof summary of that report (written by hand from nvprof's layout, reference 002).
extern const char* const kAddProgramSummary;

}  // namespace gpuscope::cli::testing
