#include "render/section_listing.h"

#include <algorithm>
#include <sstream>

#include "analysis/metrics/section_catalog.h"
#include "render/metric_table.h"

namespace gpuscope::render {

using analysis::metrics::AllSections;
using analysis::metrics::AllSetNames;
using analysis::metrics::MetricsToCollect;
using analysis::metrics::Section;
using analysis::metrics::SectionMetricNames;
using analysis::metrics::SectionsOfSet;

namespace {

constexpr std::string_view kDefaultSet = "basic";

std::string PassesCell(const PassCounter& passes, const std::vector<std::string>& names) {
  if (names.empty()) return "0";  // launch fields only (LaunchStats): nothing is replayed
  if (!passes) return "n/a";
  const std::optional<int> count = passes(names);
  return count ? std::to_string(*count) : "n/a";
}

// WriteMetricTable indents by four; these listings start at the margin like ncu's.
std::string Unindent(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) out += line.substr(std::min<std::size_t>(4, line.size())) + '\n';
  return out;
}

template <typename T>
std::string Join(const std::vector<T>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

}  // namespace

std::string FormatSetList(const PassCounter& passes) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& set : AllSetNames()) {
    const auto sections = SectionsOfSet(set);
    std::vector<std::string> ids;
    for (const Section* s : sections.value()) ids.push_back(s->identifier);
    const auto names = MetricsToCollect(sections.value(), {});
    rows.push_back({set, Join(ids), set == kDefaultSet ? "yes" : "no", std::to_string(names.size()),
                    PassesCell(passes, names)});
  }
  std::ostringstream out;
  WriteMetricTable(out, {"Identifier", "Sections", "Enabled", "Metrics", "Passes"}, rows,
                   /*left_aligned=*/3);
  return Unindent(out.str());
}

std::string FormatSectionList(const PassCounter& passes) {
  std::vector<std::vector<std::string>> rows;
  for (const Section& s : AllSections()) {
    const auto names = SectionMetricNames(s);
    const bool in_default = std::find(s.sets.begin(), s.sets.end(), kDefaultSet) != s.sets.end();
    rows.push_back({s.identifier, s.display_name, Join(s.sets), in_default ? "yes" : "no",
                    std::to_string(names.size()), PassesCell(passes, names)});
  }
  std::ostringstream out;
  WriteMetricTable(out, {"Identifier", "Display Name", "Sets", "Enabled", "Metrics", "Passes"},
                   rows, /*left_aligned=*/4);
  return Unindent(out.str());
}

}  // namespace gpuscope::render
