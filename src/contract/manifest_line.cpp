#include "contract/manifest_line.h"

#include <charconv>

namespace gpuscope::contract {
namespace {

bool ParseNumber(std::string_view text, std::uint32_t& value) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string FormatManifestLine(const ManifestEntry& entry) {
  return std::to_string(entry.pid) + "\t" + std::to_string(entry.parent_pid) + "\t" +
         entry.report_path + "\n";
}

std::optional<ManifestEntry> ParseManifestLine(std::string_view line) {
  if (!line.ends_with('\n')) return std::nullopt;
  line.remove_suffix(1);
  std::size_t first_tab = line.find('\t');
  if (first_tab == std::string_view::npos) return std::nullopt;
  std::size_t second_tab = line.find('\t', first_tab + 1);
  if (second_tab == std::string_view::npos) return std::nullopt;
  ManifestEntry entry;
  entry.report_path = std::string(line.substr(second_tab + 1));
  if (!ParseNumber(line.substr(0, first_tab), entry.pid) ||
      !ParseNumber(line.substr(first_tab + 1, second_tab - first_tab - 1), entry.parent_pid) ||
      entry.report_path.empty()) {
    return std::nullopt;
  }
  return entry;
}

}  // namespace gpuscope::contract
