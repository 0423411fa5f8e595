// The reports of one job on one time axis. Every report keeps CUPTI's clock of its own
// machine; reports of one host share that clock (offset 0), and a host's clock error against
// the reference host is measured on what must happen at the same moment everywhere: the end
// of one NCCL collective on every rank. Without collectives, the clock samples' CUPTI-minus-
// realtime differences give an estimate whose error nothing measures (-1, and said so).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ranks/rank_source.h"
#include "analysis/report_checks.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

struct RankClock {
  std::string path;
  std::optional<std::int64_t> rank;
  std::string host;  // hostname
  std::uint32_t pid = 0;
  std::int64_t offset_ns = 0;  // add to the report's times to put them on the reference's axis
  std::int64_t error_ns = 0;   // bound on the residual; -1: unknown
  // "reference", "same host", "collectives (N matched)", "clock samples only"
  std::string method;
  std::size_t index = 0;  // the report's position in the list given to AlignReports
  // The report's GPU pairs (ClockSummary): the GPU clock's offset from CLOCK_REALTIME and its
  // spread over the run; nullopt without GPU pairs.
  std::optional<std::int64_t> gpu_minus_realtime;
  std::optional<std::int64_t> gpu_spread;
};

// The reports' clocks in rank order (unknown ranks after, by path). The reference is the
// first of them; reports on its host (same boot id, else hostname) get offset 0 and the
// spread of their own clock samples as error. Another host h gets the median over matched
// collectives (collectives.h) of end_ref(c) - end_h(c), where a collective ends on a host
// when the last of the host's ranks ends it, and as error the largest residual of that
// median; with no matched collective, each of h's reports gets the difference of the
// median CUPTI-minus-realtime of the reference and of the report (0 when either has no
// samples), error -1, method "clock samples only".
std::vector<RankClock> AlignSources(const std::vector<RankSource>& sources);

// Reads the reports (threads over reports; streamed) and aligns them.
StatusOr<std::vector<RankClock>> AlignReports(const std::vector<std::string>& paths);
StatusOr<std::vector<RankClock>> AlignReports(const Reports& reports);

// The positions of `identities` in rank order: by rank, unknown ranks after by path (then by
// position, so that the order is total).
std::vector<std::size_t> RankOrder(const std::vector<RankIdentity>& identities);

}  // namespace gpuscope::analysis::ranks
