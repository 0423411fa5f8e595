#include "profile_csv.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "csv_line.h"

namespace gpuscope::ncu_csv {
namespace {

// A metric column's name has a "__" (dram__bytes.sum); identity columns ("Kernel Name") do
// not, whichever ncu version added them ("Kernel Time", "Host Name", ...).
bool IsMetricColumn(std::string_view name) { return name.find("__") != std::string_view::npos; }

struct Table {
  std::vector<std::string> header;
  std::map<std::string, size_t> column;  // name -> index
  std::vector<std::vector<std::string>> records;
  std::vector<size_t> record_lines;  // 1-based line of each record, for messages

  std::optional<size_t> Find(const std::string& name) const {
    auto it = column.find(name);
    if (it == column.end()) return std::nullopt;
    return it->second;
  }
  const std::string& Field(const std::vector<std::string>& record, const std::string& name) const {
    static const std::string kEmpty;
    auto index = Find(name);
    return index ? record[*index] : kEmpty;
  }
};

bool IsHeader(const std::vector<std::string>& fields) {
  return !fields.empty() && fields[0] == "ID" &&
         std::find(fields.begin(), fields.end(), "Kernel Name") != fields.end();
}

// Finds the header and collects every record of the same width after it.
StatusOr<Table> ReadTable(std::string_view text) {
  Table table;
  size_t line_number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!LooksLikeQuotedRecord(line)) {
      if (end == text.size()) break;
      continue;
    }
    auto fields = SplitCsvLine(line);
    if (!fields) {
      if (table.header.empty()) continue;  // not ours: quoted output before the table
      return Status::Error("line " + std::to_string(line_number) +
                           ": malformed CSV record: " + std::string(line.substr(0, 80)));
    }
    if (table.header.empty()) {
      if (!IsHeader(*fields)) continue;
      table.header = *fields;
      for (size_t i = 0; i < fields->size(); ++i) table.column.emplace((*fields)[i], i);
      continue;
    }
    if (*fields == table.header) continue;  // the header repeated (another process)
    if (fields->size() != table.header.size()) {
      return Status::Error("line " + std::to_string(line_number) + ": " +
                           std::to_string(fields->size()) + " fields where the header has " +
                           std::to_string(table.header.size()));
    }
    table.records.push_back(std::move(*fields));
    table.record_lines.push_back(line_number);
    if (end == text.size()) break;
  }
  if (table.header.empty()) {
    return Status::Error(
        "no profiler CSV header (a line starting with \"ID\" that has a \"Kernel Name\" "
        "column) in the text");
  }
  return table;
}

StatusOr<long> ParseId(const std::string& text, size_t line) {
  auto number = ParseMetricNumber(text);
  if (!number || *number < 0 || *number != static_cast<double>(static_cast<long>(*number))) {
    return Status::Error("line " + std::to_string(line) + ": ID \"" + text +
                         "\" is not a launch number");
  }
  return static_cast<long>(*number);
}

// The identity fields every layout shares.
StatusOr<ProfiledLaunch> LaunchFromRecord(const Table& table, const std::vector<std::string>& r,
                                          size_t line) {
  ProfiledLaunch launch;
  auto id = ParseId(table.Field(r, "ID"), line);
  if (!id.ok()) return id.status();
  launch.id = *id;
  launch.process_id = table.Field(r, "Process ID");
  launch.kernel_name = table.Field(r, "Kernel Name");
  launch.function_name = KernelFunctionName(launch.kernel_name);
  launch.context = table.Field(r, "Context");
  launch.stream = table.Field(r, "Stream");
  launch.device = table.Field(r, "Device");
  launch.cc = table.Field(r, "CC");
  launch.grid_size = table.Field(r, "Grid Size");
  launch.block_size = table.Field(r, "Block Size");
  if (table.Find("Invocation")) {
    auto invocation = ParseMetricNumber(table.Field(r, "Invocation"));
    if (!invocation) {
      return Status::Error("line " + std::to_string(line) + ": Invocation \"" +
                           table.Field(r, "Invocation") + "\" is not a number");
    }
    launch.invocation = static_cast<long>(*invocation);
  }
  return launch;
}

void SortByProfileOrder(std::vector<ProfiledLaunch>& launches) {
  std::stable_sort(launches.begin(), launches.end(),
                   [](const ProfiledLaunch& a, const ProfiledLaunch& b) { return a.id < b.id; });
}

}  // namespace

StatusOr<std::vector<ProfiledLaunch>> ParseWideCsv(std::string_view text) {
  auto table = ReadTable(text);
  if (!table.ok()) return table.status();
  if (table->Find("Metric Name")) {
    return Status::Error("this is the metric-per-row layout (--page details), not --page raw");
  }
  std::vector<std::string> units(table->header.size());
  std::vector<ProfiledLaunch> launches;
  for (size_t i = 0; i < table->records.size(); ++i) {
    const auto& record = table->records[i];
    // The units row: no ID, a unit (or nothing) under each metric.
    if (i == 0 && record[0].empty()) {
      units = record;
      continue;
    }
    auto launch = LaunchFromRecord(*table, record, table->record_lines[i]);
    if (!launch.ok()) return launch.status();
    for (size_t c = 0; c < table->header.size(); ++c) {
      if (!IsMetricColumn(table->header[c])) continue;
      launch->metrics[table->header[c]] = MakeMetricValue(record[c], units[c]);
    }
    launches.push_back(std::move(*launch));
  }
  SortByProfileOrder(launches);
  return launches;
}

StatusOr<std::vector<ProfiledLaunch>> ParseMetricRowsCsv(std::string_view text) {
  auto table = ReadTable(text);
  if (!table.ok()) return table.status();
  for (const char* needed : {"Metric Name", "Metric Value"}) {
    if (!table->Find(needed)) {
      return Status::Error(std::string("the CSV header has no \"") + needed + "\" column");
    }
  }
  const bool has_metric_id = table->Find("Metric Id").has_value();
  std::vector<ProfiledLaunch> launches;
  std::map<std::pair<std::string, long>, size_t> index_of;  // (process, ID) -> launch
  for (size_t i = 0; i < table->records.size(); ++i) {
    const auto& record = table->records[i];
    auto launch = LaunchFromRecord(*table, record, table->record_lines[i]);
    if (!launch.ok()) return launch.status();
    auto key = std::make_pair(launch->process_id, launch->id);
    auto found = index_of.find(key);
    if (found == index_of.end()) {
      found = index_of.emplace(key, launches.size()).first;
      launches.push_back(std::move(*launch));
    } else if (launches[found->second].kernel_name != launch->kernel_name) {
      return Status::Error("line " + std::to_string(table->record_lines[i]) + ": ID " +
                           std::to_string(launch->id) + " names two kernels, \"" +
                           launches[found->second].kernel_name + "\" and \"" + launch->kernel_name +
                           "\"");
    }
    std::string metric = has_metric_id ? table->Field(record, "Metric Id") : "";
    if (metric.empty()) metric = table->Field(record, "Metric Name");
    launches[found->second].metrics[metric] =
        MakeMetricValue(table->Field(record, "Metric Value"), table->Field(record, "Metric Unit"));
  }
  SortByProfileOrder(launches);
  return launches;
}

StatusOr<std::vector<ProfiledLaunch>> ParseProfileCsv(std::string_view text) {
  auto table = ReadTable(text);
  if (!table.ok()) return table.status();
  return table->Find("Metric Name") ? ParseMetricRowsCsv(text) : ParseWideCsv(text);
}

}  // namespace gpuscope::ncu_csv
