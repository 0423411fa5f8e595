// What a writer could not store after a write error, and how the report records it: one
// vocabulary for the writer, which counts and stores it, and the reader, which shows it.
//
// Losses are counted by the table each record was meant for (the event tables, then the
// process, devices, contexts, streams, profiled kernels, clock samples, API call counts, graph
// launches, stack frames, modules and the GPU metric samples and rows); the report keeps the
// total as counters.records_not_written, each table's share as
// counters."records_not_written.<table>", and in meta why writing stopped (write_error) and up to
// when the data is complete (complete_until_ns, absolute, like process.end).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/event_tables.h"

namespace gpuscope::store {

inline constexpr std::size_t kLossProcess = kNumEventTables;
inline constexpr std::size_t kLossDevices = kNumEventTables + 1;
inline constexpr std::size_t kLossContexts = kNumEventTables + 2;
inline constexpr std::size_t kLossStreams = kNumEventTables + 3;
inline constexpr std::size_t kLossProfiledKernels = kNumEventTables + 4;
inline constexpr std::size_t kLossClockSamples = kNumEventTables + 5;
inline constexpr std::size_t kLossApiCallCounts = kNumEventTables + 6;
inline constexpr std::size_t kLossGraphLaunches = kNumEventTables + 7;
inline constexpr std::size_t kLossStackFrames = kNumEventTables + 8;
inline constexpr std::size_t kLossModules = kNumEventTables + 9;
inline constexpr std::size_t kLossGpuMetricSamples = kNumEventTables + 10;
inline constexpr std::size_t kLossGpuMetricRows = kNumEventTables + 11;  // gpu_metrics, _sampling
inline constexpr std::size_t kNumLossKinds = kNumEventTables + 12;

inline constexpr std::string_view kRecordsNotWrittenCounter = "records_not_written";
inline constexpr std::string_view kRecordsNotWrittenPrefix = "records_not_written.";
inline constexpr std::string_view kWriteErrorMeta = "write_error";
inline constexpr std::string_view kCompleteUntilMeta = "complete_until_ns";

// The table a kind of record goes to: an event table's name, or "process", "devices", ...
std::string_view LossKindTable(std::size_t kind);

// Records lost per table, in the order above; zero counts are left out.
using LossByTable = std::vector<std::pair<std::string, std::uint64_t>>;
LossByTable NonZeroLosses(const std::array<std::uint64_t, kNumLossKinds>& by_kind);

// Puts losses read back from a report into the order above (tables not named there last).
void SortByKind(LossByTable& losses);

// "kernels 1200, api_calls 1201" (empty for no losses).
std::string DescribeLossByTable(const LossByTable& losses);

}  // namespace gpuscope::store
