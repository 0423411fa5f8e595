#include "store/testing/sass_fixtures.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gpuscope::store::testing {
namespace {

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "sass_fixtures: %s\n", why.c_str());
  std::abort();
}

// One CSV line of quoted fields ("a","b,c","d""e").
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(std::move(field));
  return fields;
}

// ncu's column -> the CUPTI counter behind it (written here independently of
// analysis/source, so that the production mapping is checked, not copied).
std::string MetricOfColumn(const std::string& column) {
  static const std::map<std::string, std::string> kDirect = {
      {"Instructions Executed", "smsp__sass_inst_executed"},
      {"Thread Instructions Executed", "smsp__sass_thread_inst_executed"},
      {"Predicated-On Thread Instructions Executed", "smsp__sass_thread_inst_executed_pred_on"},
      {"Divergent Branches", "smsp__sass_branch_targets_threads_divergent"},
      {"L2 Theoretical Sectors Global", "smsp__sass_sectors_mem_global"},
      {"L2 Theoretical Sectors Global Ideal", "smsp__sass_sectors_mem_global_ideal"},
      {"# Samples", "smsp__pcsamp_sample_count"},
  };
  static const std::map<std::string, std::string> kReasons = {
      {"barrier", "barrier"},
      {"branch_resolving", "branch_resolving"},
      {"dispatch", "dispatch_stall"},
      {"drain", "drain"},
      {"imc", "imc_miss"},
      {"lg", "lg_throttle"},
      {"long_sb", "long_scoreboard"},
      {"math", "math_pipe_throttle"},
      {"membar", "membar"},
      {"mio", "mio_throttle"},
      {"misc", "misc"},
      {"no_inst", "no_instructions"},
      {"not_selected", "not_selected"},
      {"selected", "selected"},
      {"short_sb", "short_scoreboard"},
      {"sleep", "sleeping"},
      {"sleeping", "sleeping"},
      {"tex", "tex_throttle"},
      {"wait", "wait"},
  };
  if (auto found = kDirect.find(column); found != kDirect.end()) return found->second;
  if (!column.starts_with("stall_")) return "";
  std::string reason = column.substr(6);
  std::string suffix;
  if (reason.ends_with(" (Not Issued)")) {
    reason.resize(reason.size() - 13);
    suffix = "_not_issued";
  }
  auto found = kReasons.find(reason);
  return found == kReasons.end() ? ""
                                 : "smsp__pcsamp_warps_issue_stalled_" + found->second + suffix;
}

std::string Trimmed(const std::string& text) {
  std::size_t begin = text.find_first_not_of(' ');
  std::size_t end = text.find_last_not_of(' ');
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

}  // namespace

std::vector<std::uint8_t> ReadBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

NcuSourceKernel LoadNcuSourceCsv(const std::string& csv_path, const std::string& function,
                                 std::uint64_t crc) {
  std::ifstream in(csv_path);
  if (!in) Die("cannot read " + csv_path);
  NcuSourceKernel kernel;
  std::string line;
  std::vector<std::string> header;
  std::uint64_t first_address = 0;
  bool started = false;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = SplitCsvLine(line);
    if (fields.size() >= 1 && fields[0] == "Kernel Name") {
      if (started) break;  // the next kernel's block
      started = true;
      continue;
    }
    if (fields.size() >= 2 && fields[0] == "Address") {
      header = fields;
      continue;
    }
    if (header.empty() || fields.size() != header.size()) continue;
    const std::uint64_t address = std::stoull(fields[0], nullptr, 16);
    if (kernel.offsets.empty()) first_address = address;
    const std::uint64_t offset = address - first_address;
    kernel.offsets.push_back(offset);
    kernel.sass[offset] = Trimmed(fields[1]);
    for (std::size_t c = 2; c < header.size(); ++c) {
      // "-" (not applicable) and texts ("Global(16)") are not counts.
      if (fields[c].empty() || fields[c].find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      const std::uint64_t value = std::stoull(fields[c]);
      kernel.column_totals[header[c]] += value;
      const std::string metric = MetricOfColumn(header[c]);
      // PC sampling reports only the reasons it saw; SASS patching every instruction.
      if (metric.empty() || (value == 0 && metric.find("pcsamp") != std::string::npos)) continue;
      kernel.names.push_back(metric);
      const std::string_view name = kernel.names.back();
      kernel.names.push_back(function);
      kernel.values.push_back({crc, kernel.names.back(), offset, name, value});
    }
  }
  if (kernel.offsets.empty()) Die("no instructions in " + csv_path);
  return kernel;
}

}  // namespace gpuscope::store::testing
