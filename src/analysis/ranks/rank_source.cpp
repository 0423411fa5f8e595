#include "analysis/ranks/rank_source.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

#include "analysis/ranks/parallel_reports.h"

namespace gpuscope::analysis::ranks {

std::int64_t LowerMedian(std::vector<std::int64_t>& values) {
  if (values.empty()) return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

RankIdentity IdentityOf(const store::ReportReader& report) {
  const store::ProcessInfo& process = report.process();
  RankIdentity identity;
  identity.path = report.path();
  identity.rank = process.rank;
  identity.hostname = process.hostname;
  identity.host_key = process.boot_id.empty() ? process.hostname : process.boot_id;
  identity.pid = process.pid;
  return identity;
}

ClockSummary SummarizeClockSamples(const std::vector<store::ClockSample>& samples) {
  ClockSummary summary;
  if (samples.empty()) return summary;
  std::vector<std::int64_t> differences;
  differences.reserve(samples.size());
  for (const store::ClockSample& sample : samples) {
    differences.push_back(static_cast<std::int64_t>(sample.cupti_ns) - sample.realtime_ns);
  }
  auto [low, high] = std::minmax_element(differences.begin(), differences.end());
  summary.spread = *high - *low;
  summary.cupti_minus_realtime = LowerMedian(differences);
  // GPU pairs: per device the range of gpu - realtime (a few devices per report at most).
  std::vector<std::int64_t> gpu_differences;
  std::map<std::uint32_t, std::pair<std::int64_t, std::int64_t>> range_of_device;
  for (const store::ClockSample& sample : samples) {
    if (!sample.device_id || !sample.gpu_ns) continue;
    const std::int64_t difference = *sample.gpu_ns - sample.realtime_ns;
    gpu_differences.push_back(difference);
    auto [range, added] = range_of_device.try_emplace(*sample.device_id, difference, difference);
    range->second.first = std::min(range->second.first, difference);
    range->second.second = std::max(range->second.second, difference);
    summary.gpu_uncertainty = std::max(summary.gpu_uncertainty, sample.gpu_uncertainty_ns.value_or(0));
  }
  if (gpu_differences.empty()) return summary;
  summary.gpu_pairs = gpu_differences.size();
  summary.gpu_minus_realtime = LowerMedian(gpu_differences);
  for (const auto& [device, range] : range_of_device) {
    summary.gpu_spread = std::max(summary.gpu_spread, range.second - range.first);
  }
  return summary;
}

StatusOr<RankSource> ReadRankSource(const store::ReportReader& report) {
  RankSource source;
  source.identity = IdentityOf(report);
  source.clock = SummarizeClockSamples(report.ClockSamples());
  // Names repeat: whether a name is NCCL's, and its kind, are decided once per name id
  // (a map, not a vector by id: ids come from the file).
  std::unordered_map<std::uint32_t, std::optional<std::string>> kind_of_name;
  Status read = report.ForEachKernel([&](const store::KernelRow& row) {
    auto [entry, added] = kind_of_name.try_emplace(row.name_id);
    if (added && IsNcclKernel(row.demangled_name)) {
      entry->second = CollectiveKind(row.demangled_name);
    }
    if (entry->second) {
      source.collectives.push_back({*entry->second, static_cast<std::int64_t>(row.record.start),
                                    static_cast<std::int64_t>(row.record.end)});
    }
    return true;
  });
  if (!read.ok()) return read;
  return source;
}

StatusOr<std::vector<RankSource>> ReadRankSources(const Reports& reports) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  std::vector<RankSource> sources(reports.size());
  GPUSCOPE_RETURN_IF_ERROR(ForEachReportInParallel(reports.size(), [&](std::size_t i) -> Status {
    StatusOr<RankSource> source = ReadRankSource(*reports[i]);
    if (!source.ok())
      return Status::Error(NamingPath(source.status().message(), reports[i]->path()));
    sources[i] = std::move(source.value());
    return {};
  }));
  return sources;
}

StatusOr<std::vector<RankSource>> ReadRankSources(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::Error("no report given");
  std::vector<RankSource> sources(paths.size());
  GPUSCOPE_RETURN_IF_ERROR(ForEachReportInParallel(paths.size(), [&](std::size_t i) -> Status {
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(paths[i]);
    if (!reader.ok()) return Status::Error(NamingPath(reader.status().message(), paths[i]));
    StatusOr<RankSource> source = ReadRankSource(*reader.value());
    if (!source.ok()) return Status::Error(NamingPath(source.status().message(), paths[i]));
    sources[i] = std::move(source.value());
    return {};
  }));
  return sources;
}

std::string RankLabel(const RankIdentity& identity) {
  std::string where = identity.hostname + ", " + std::to_string(identity.pid);
  if (!identity.rank) return where;
  return "rank " + std::to_string(*identity.rank) + " (" + where + ")";
}

}  // namespace gpuscope::analysis::ranks
