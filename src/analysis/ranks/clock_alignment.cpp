#include "analysis/ranks/clock_alignment.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace gpuscope::analysis::ranks {
namespace {

constexpr std::int64_t kUnknownError = -1;

// One host's offset against the reference host from the matched collectives: each
// collective ends on a host when its last rank there ends it.
struct HostFit {
  std::int64_t offset = 0;
  std::int64_t error = 0;
};

HostFit FitHost(const std::vector<MatchedCollective>& matched,
                const std::vector<const RankSource*>& ordered,
                const std::vector<std::size_t>& reference_ranks,
                const std::vector<std::size_t>& host_ranks) {
  auto host_end = [&](const MatchedCollective& collective, const std::vector<std::size_t>& ranks) {
    std::int64_t end = 0;
    bool first = true;
    for (std::size_t r : ranks) {
      std::int64_t rank_end = ordered[r]->collectives[collective.event[r]].end;
      end = first ? rank_end : std::max(end, rank_end);
      first = false;
    }
    return end;
  };
  std::vector<std::int64_t> differences;
  differences.reserve(matched.size());
  for (const MatchedCollective& collective : matched) {
    differences.push_back(host_end(collective, reference_ranks) - host_end(collective, host_ranks));
  }
  std::vector<std::int64_t> sorted = differences;
  HostFit fit;
  fit.offset = LowerMedian(sorted);
  for (std::int64_t difference : differences) {
    const std::int64_t residual = difference - fit.offset;
    fit.error = std::max(fit.error, residual < 0 ? -residual : residual);
  }
  return fit;
}

}  // namespace

std::vector<std::size_t> RankOrder(const std::vector<RankIdentity>& identities) {
  std::vector<std::size_t> order(identities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const RankIdentity& x = identities[a];
    const RankIdentity& y = identities[b];
    if (x.rank.has_value() != y.rank.has_value()) return x.rank.has_value();
    if (x.rank && *x.rank != *y.rank) return *x.rank < *y.rank;
    if (x.path != y.path) return x.path < y.path;
    return a < b;
  });
  return order;
}

std::vector<RankClock> AlignSources(const std::vector<RankSource>& sources) {
  if (sources.empty()) return {};
  std::vector<RankIdentity> identities;
  identities.reserve(sources.size());
  for (const RankSource& source : sources) identities.push_back(source.identity);
  const std::vector<std::size_t> order = RankOrder(identities);

  // From here on, ranks are positions in rank order.
  std::vector<const RankSource*> ordered;
  std::vector<std::vector<CollectiveEvent>> collectives;
  for (std::size_t i : order) {
    ordered.push_back(&sources[i]);
    collectives.push_back(sources[i].collectives);
  }
  const std::vector<MatchedCollective> matched = MatchCollectives(collectives);
  collectives.clear();

  std::map<std::string, std::vector<std::size_t>> ranks_of_host;
  for (std::size_t r = 0; r < ordered.size(); ++r) {
    ranks_of_host[ordered[r]->identity.host_key].push_back(r);
  }
  const RankSource& reference = *ordered[0];
  const std::vector<std::size_t>& reference_ranks = ranks_of_host[reference.identity.host_key];
  std::map<std::string, HostFit> fits;
  if (!matched.empty()) {
    for (const auto& [host, ranks] : ranks_of_host) {
      if (host != reference.identity.host_key) {
        fits[host] = FitHost(matched, ordered, reference_ranks, ranks);
      }
    }
  }

  std::vector<RankClock> clocks;
  clocks.reserve(ordered.size());
  for (std::size_t r = 0; r < ordered.size(); ++r) {
    const RankSource& source = *ordered[r];
    RankClock clock;
    clock.path = source.identity.path;
    clock.rank = source.identity.rank;
    clock.host = source.identity.hostname;
    clock.pid = source.identity.pid;
    clock.index = order[r];
    clock.gpu_minus_realtime = source.clock.gpu_minus_realtime;
    if (source.clock.gpu_minus_realtime) clock.gpu_spread = source.clock.gpu_spread;
    if (source.identity.host_key == reference.identity.host_key) {
      clock.error_ns = source.clock.spread;
      clock.method = r == 0 ? "reference" : "same host";
    } else if (auto fit = fits.find(source.identity.host_key); fit != fits.end()) {
      clock.offset_ns = fit->second.offset;
      clock.error_ns = fit->second.error;
      clock.method = "collectives (" + std::to_string(matched.size()) + " matched)";
    } else {
      if (reference.clock.cupti_minus_realtime && source.clock.cupti_minus_realtime) {
        clock.offset_ns =
            *reference.clock.cupti_minus_realtime - *source.clock.cupti_minus_realtime;
      }
      clock.error_ns = kUnknownError;
      clock.method = "clock samples only";
    }
    clocks.push_back(std::move(clock));
  }
  return clocks;
}

StatusOr<std::vector<RankClock>> AlignReports(const std::vector<std::string>& paths) {
  StatusOr<std::vector<RankSource>> sources = ReadRankSources(paths);
  if (!sources.ok()) return sources.status();
  return AlignSources(sources.value());
}

StatusOr<std::vector<RankClock>> AlignReports(const Reports& reports) {
  StatusOr<std::vector<RankSource>> sources = ReadRankSources(reports);
  if (!sources.ok()) return sources.status();
  return AlignSources(sources.value());
}

}  // namespace gpuscope::analysis::ranks
