#include "analysis/metrics/section_catalog.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

namespace gpuscope::analysis::metrics {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

std::string JoinIdentifiers() {
  std::string out;
  for (const Section& s : AllSections()) {
    if (!out.empty()) out += ", ";
    out += s.identifier;
  }
  return out;
}

}  // namespace

std::string SectionEntry::MetricId() const {
  return source == ValueSource::kMetric && !metrics.empty() ? metrics.front() : std::string();
}

const SectionEntry* FindMetricEntry(std::string_view metric_id) {
  for (const Section& section : AllSections()) {
    for (const SectionEntry& entry : section.entries) {
      if (entry.source == ValueSource::kMetric && !entry.metrics.empty() &&
          entry.metrics.front() == metric_id) {
        return &entry;
      }
    }
  }
  return nullptr;
}

std::vector<std::string> AllSetNames() { return {"basic", "full"}; }

StatusOr<std::vector<const Section*>> SectionsOfSet(std::string_view set) {
  const std::string wanted = Lower(Trim(set));
  const auto names = AllSetNames();
  if (std::find(names.begin(), names.end(), wanted) == names.end()) {
    return Status::Error("unknown set '" + std::string(set) + "'; known sets: basic, full");
  }
  std::vector<const Section*> out;
  for (const Section& s : AllSections()) {
    if (std::find(s.sets.begin(), s.sets.end(), wanted) != s.sets.end()) out.push_back(&s);
  }
  return out;
}

StatusOr<const Section*> FindSection(std::string_view name) {
  const std::string wanted = Lower(Trim(name));
  for (const Section& s : AllSections()) {
    if (Lower(s.identifier) == wanted || Lower(s.display_name) == wanted) return &s;
  }
  return Status::Error("unknown section '" + std::string(name) +
                       "'; known sections: " + JoinIdentifiers());
}

StatusOr<std::vector<const Section*>> FindSections(const std::vector<std::string>& names) {
  std::vector<const Section*> sections;
  for (const std::string& name : names) {
    StatusOr<const Section*> section = FindSection(name);
    if (!section.ok()) return section.status();
    sections.push_back(*section);
  }
  return sections;
}

StatusOr<std::vector<const Section*>> SelectSections(std::optional<std::string_view> set,
                                                     const std::vector<std::string>& sections) {
  std::set<const Section*> chosen;
  if (set.has_value() || sections.empty()) {
    auto of_set = SectionsOfSet(set.value_or("basic"));
    if (!of_set.ok()) return of_set.status();
    chosen.insert(of_set->begin(), of_set->end());
  }
  for (const std::string& name : sections) {
    auto found = FindSection(name);
    if (!found.ok()) return found.status();
    chosen.insert(*found);
  }
  // Print order is the catalog's, whatever order the options came in.
  std::vector<const Section*> out;
  for (const Section& s : AllSections()) {
    if (chosen.count(&s)) out.push_back(&s);
  }
  return out;
}

std::vector<std::string> SplitMetricList(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string item = Trim(list.substr(0, comma));
    if (!item.empty()) out.push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<std::string> MetricsToCollect(
    const std::vector<const Section*>& sections, const std::vector<std::string>& extra_metrics,
    const std::function<bool(std::string_view)>& chip_has_metric) {
  std::set<std::string> names(extra_metrics.begin(), extra_metrics.end());
  // The clocks measured during the kernel go with every profile: gpuscope never locks them,
  // so every number is read against them (the details page's "Clocks:" line).
  if (!sections.empty() || !extra_metrics.empty())
    names.insert(kClockMetrics.begin(), kClockMetrics.end());
  for (const Section* section : sections) {
    for (const SectionEntry& entry : section->entries) {
      for (const std::string& name : entry.metrics) {
        if (entry.optional && chip_has_metric && !chip_has_metric(name)) continue;
        names.insert(name);
      }
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> SectionMetricNames(const Section& section) {
  std::set<std::string> names;
  for (const SectionEntry& entry : section.entries)
    names.insert(entry.metrics.begin(), entry.metrics.end());
  return {names.begin(), names.end()};
}

}  // namespace gpuscope::analysis::metrics
