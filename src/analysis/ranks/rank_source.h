// What the alignment needs from one report, read once and kept small: who it is (rank,
// host, pid), what its clock samples say, and its NCCL kernels. A job of 512 reports of
// 100,000 kernels each is aligned from these summaries, never from every row at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ranks/collectives.h"
#include "analysis/report_checks.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

struct RankIdentity {
  std::string path;
  std::optional<std::int64_t> rank;  // nullopt: the report does not know (v1/v2, no launcher)
  std::string hostname;
  // What tells hosts apart: the boot id where the report has one (two machines can share a
  // hostname, one machine's boot id changes only when it reboots), else the hostname.
  std::string host_key;
  std::uint32_t pid = 0;
};

// The report's clock samples reduced to what the alignment uses: CUPTI's clock minus
// CLOCK_REALTIME, its median (the lower middle) and its spread (max - min) over the samples;
// and what its GPU pairs (device_id set) say of the GPUs' own clocks against CLOCK_REALTIME:
// the lower median of gpu_ns - realtime_ns over all of them (the GPU clock offset), the largest
// spread (max - min) of that over one device's pairs (its drift and residual over the run), and
// the largest uncertainty of a pair (the spread means nothing below it).
struct ClockSummary {
  std::optional<std::int64_t> cupti_minus_realtime;  // nullopt: no clock samples
  std::int64_t spread = 0;
  std::optional<std::int64_t> gpu_minus_realtime;  // nullopt: no GPU pairs
  std::int64_t gpu_spread = 0;
  std::int64_t gpu_uncertainty = 0;
  std::uint64_t gpu_pairs = 0;
};

struct RankSource {
  RankIdentity identity;
  ClockSummary clock;
  std::vector<CollectiveEvent> collectives;  // the NCCL kernels, in start order
};

RankIdentity IdentityOf(const store::ReportReader& report);
ClockSummary SummarizeClockSamples(const std::vector<store::ClockSample>& samples);

// Reads one report's summary (its kernels are streamed; only NCCL's are kept).
StatusOr<RankSource> ReadRankSource(const store::ReportReader& report);

// Every report's summary, read on several threads; index i is reports[i] or paths[i]. The
// paths are opened one per task and closed when read, so only a few are open at a time.
StatusOr<std::vector<RankSource>> ReadRankSources(const Reports& reports);
StatusOr<std::vector<RankSource>> ReadRankSources(const std::vector<std::string>& paths);

// "rank 3 (node7, 4242)", or "node7, 4242" when the rank is unknown.
std::string RankLabel(const RankIdentity& identity);

// The median of `values` as every multi-rank table computes it: the lower middle of the
// sorted values (an integer stays an integer; both implementations give the same number).
// Reorders `values`; 0 for none.
std::int64_t LowerMedian(std::vector<std::int64_t>& values);

}  // namespace gpuscope::analysis::ranks
