// report_events <report.sqlite>: prints a report's event counts and its size per event, for
// scripts/bench-overhead.sh ("report bytes per event" = file size / (kernels + API calls +
// copies)). Reads the report through the store's own reader, so it sees what gpuscope sees.
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "store/event_tables.h"
#include "store/report_reader.h"

namespace {

// The report's bytes on disk: the database and any write-ahead log beside it.
std::uint64_t FileBytes(const std::string& path) {
  std::uint64_t total = 0;
  for (const char* suffix : {"", "-wal", "-journal"}) {
    struct stat info = {};
    if (stat((path + suffix).c_str(), &info) == 0)
      total += static_cast<std::uint64_t>(info.st_size);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: report_events <report.sqlite>\n");
    return 2;
  }
  const std::string path = argv[1];
  auto opened = gpuscope::store::ReportReader::Open(path);
  if (!opened.ok()) {
    std::fprintf(stderr, "report_events: %s\n", opened.status().message().c_str());
    return 1;
  }
  const auto& reader = *opened.value();
  std::uint64_t counted = 0, all_events = 0;
  for (const auto& table : gpuscope::store::kEventTables) {
    auto rows = reader.CountRows(std::string(table.name));
    if (!rows.ok()) {
      std::fprintf(stderr, "report_events: %s\n", rows.status().message().c_str());
      return 1;
    }
    std::printf("%s %llu\n", std::string(table.name).c_str(),
                static_cast<unsigned long long>(rows.value()));
    all_events += rows.value();
    if (table.name == "kernels" || table.name == "api_calls" || table.name == "memcpys") {
      counted += rows.value();
    }
  }
  const std::uint64_t bytes = FileBytes(path);
  std::printf("report_bytes %llu\n", static_cast<unsigned long long>(bytes));
  std::printf("bytes_per_event %.2f\n", counted ? static_cast<double>(bytes) / counted : 0.0);
  std::printf("bytes_per_any_event %.2f\n",
              all_events ? static_cast<double>(bytes) / all_events : 0.0);
  return 0;
}
