#include "launch_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace gpuscope::ncu_csv {
namespace {

using LaunchKey = std::pair<std::string, int>;  // function name, ordinal

// The launches of one tool by (function name, n-th profiled launch of that name).
std::map<LaunchKey, const ProfiledLaunch*> ByKernelAndOrdinal(
    const std::vector<ProfiledLaunch>& launches, std::vector<LaunchKey>& order) {
  std::map<std::string, int> seen;
  std::map<LaunchKey, const ProfiledLaunch*> keyed;
  for (const auto& launch : launches) {
    LaunchKey key{launch.function_name, seen[launch.function_name]++};
    keyed[key] = &launch;
    order.push_back(key);
  }
  return keyed;
}

std::string KeyText(const LaunchKey& key) { return key.first + "#" + std::to_string(key.second); }

std::optional<double> NumberOf(const ProfiledLaunch& launch, const std::string& metric) {
  auto it = launch.metrics.find(metric);
  if (it == launch.metrics.end()) return std::nullopt;
  return it->second.number;
}

MetricComparison CompareOne(const LaunchKey& key, const std::string& metric,
                            const ProfiledLaunch& reference, const ProfiledLaunch& candidate,
                            const Tolerances& tolerances) {
  MetricComparison result;
  result.kernel = key.first;
  result.ordinal = key.second;
  result.metric = metric;
  result.kind = ClassifyMetric(metric);
  const Tolerance tolerance = tolerances.For(metric);
  result.rule = DescribeTolerance(tolerance, result.kind);
  result.reference = NumberOf(reference, metric);
  result.candidate = NumberOf(candidate, metric);
  if (!result.reference) {
    result.verdict = Verdict::kSkipped;
    return result;
  }
  if (!result.candidate) {
    result.verdict = Verdict::kMissing;
    return result;
  }
  result.allowed = std::max(tolerance.relative * std::fabs(*result.reference), tolerance.absolute);
  result.verdict = std::fabs(*result.candidate - *result.reference) <= result.allowed
                       ? Verdict::kPass
                       : Verdict::kFail;
  return result;
}

// Plain numbers without exponent where they are integral, so that counts read exactly.
std::string Format(std::optional<double> value) {
  if (!value) return "-";
  char buffer[48];
  if (std::fabs(*value) < 1e15 && *value == std::floor(*value)) {
    std::snprintf(buffer, sizeof buffer, "%.0f", *value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.6g", *value);
  }
  return buffer;
}

std::string Ratio(const MetricComparison& c) {
  if (!c.reference || !c.candidate) return "-";
  if (*c.reference == 0) return *c.candidate == 0 ? "1.0000" : "inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", *c.candidate / *c.reference);
  return buffer;
}

}  // namespace

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "PASS";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kMissing:
      return "MISSING";
    case Verdict::kSkipped:
      return "SKIP";
  }
  return "?";
}

int Comparison::Count(Verdict verdict) const {
  return static_cast<int>(std::count_if(metrics.begin(), metrics.end(),
                                        [&](const auto& m) { return m.verdict == verdict; }));
}

bool Comparison::ok() const {
  return launch_problems.empty() && Count(Verdict::kFail) == 0 && Count(Verdict::kMissing) == 0 &&
         Count(Verdict::kPass) > 0;
}

Comparison CompareLaunches(const std::vector<ProfiledLaunch>& reference,
                           const std::vector<ProfiledLaunch>& candidate,
                           const std::vector<std::string>& metrics, const Tolerances& tolerances) {
  Comparison comparison;
  std::vector<LaunchKey> reference_order, candidate_order;
  auto reference_by_key = ByKernelAndOrdinal(reference, reference_order);
  auto candidate_by_key = ByKernelAndOrdinal(candidate, candidate_order);
  for (const auto& key : reference_order) {
    auto found = candidate_by_key.find(key);
    if (found == candidate_by_key.end()) {
      comparison.launch_problems.push_back(KeyText(key) + ": profiled only by the reference");
      continue;
    }
    const ProfiledLaunch& ref = *reference_by_key[key];
    const ProfiledLaunch& cand = *found->second;
    ++comparison.matched_launches;
    if (ref.grid_size != cand.grid_size || ref.block_size != cand.block_size) {
      comparison.launch_problems.push_back(KeyText(key) + ": launch differs: reference " +
                                           ref.grid_size + "x" + ref.block_size + ", candidate " +
                                           cand.grid_size + "x" + cand.block_size);
    }
    std::vector<std::string> names = metrics;
    if (names.empty()) {
      for (const auto& [name, value] : ref.metrics) names.push_back(name);
    }
    for (const auto& name : names) {
      comparison.metrics.push_back(CompareOne(key, name, ref, cand, tolerances));
    }
  }
  for (const auto& key : candidate_order) {
    if (!reference_by_key.count(key)) {
      comparison.launch_problems.push_back(KeyText(key) + ": profiled only by the candidate");
    }
  }
  return comparison;
}

std::string FormatComparison(const Comparison& comparison, std::string_view reference_label,
                             std::string_view candidate_label) {
  std::string out;
  char line[1024];
  for (const auto& c : comparison.metrics) {
    std::string kernel = c.kernel + "#" + std::to_string(c.ordinal);
    std::string diff = (c.reference && c.candidate) ? Format(*c.candidate - *c.reference) : "-";
    std::snprintf(line, sizeof line,
                  "%-7s %-26s %-72s %-7s %.*s=%-16s %.*s=%-16s ratio=%-8s "
                  "diff=%-12s allowed=%s (%s)\n",
                  std::string(VerdictName(c.verdict)).c_str(), kernel.c_str(), c.metric.c_str(),
                  std::string(MetricKindName(c.kind)).c_str(),
                  static_cast<int>(reference_label.size()), reference_label.data(),
                  Format(c.reference).c_str(), static_cast<int>(candidate_label.size()),
                  candidate_label.data(), Format(c.candidate).c_str(), Ratio(c).c_str(),
                  diff.c_str(), Format(c.allowed).c_str(), c.rule.c_str());
    out += line;
  }
  for (const auto& problem : comparison.launch_problems) out += "LAUNCH  " + problem + "\n";
  std::snprintf(line, sizeof line,
                "summary: %s: %zu values of %d matched launches: %d pass, %d fail, %d missing "
                "in %.*s, %d skipped (no value in %.*s); %zu launch problems\n",
                comparison.ok() ? "OK" : "MISMATCH", comparison.metrics.size(),
                comparison.matched_launches, comparison.Count(Verdict::kPass),
                comparison.Count(Verdict::kFail), comparison.Count(Verdict::kMissing),
                static_cast<int>(candidate_label.size()), candidate_label.data(),
                comparison.Count(Verdict::kSkipped), static_cast<int>(reference_label.size()),
                reference_label.data(), comparison.launch_problems.size());
  out += line;
  return out;
}

}  // namespace gpuscope::ncu_csv
