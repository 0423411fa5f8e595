// ncu_csv_compare <ncu.csv> <gpuscope.csv> [metric,metric,...]: compares the launches of two
// saved profile CSVs (either layout) with issue 3's tolerances, prints one line per value and
// a summary, and exits 0 when they agree, 1 when they do not, 2 on bad input.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "launch_comparison.h"
#include "profile_csv.h"

namespace {

bool ReadFile(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: ncu_csv_compare <ncu.csv> <gpuscope.csv> [metric,metric...]\n");
    return 2;
  }
  using namespace gpuscope::ncu_csv;
  std::vector<ProfiledLaunch> sides[2];
  for (int i = 0; i < 2; ++i) {
    std::string text;
    if (!ReadFile(argv[1 + i], text)) {
      std::fprintf(stderr, "ncu_csv_compare: cannot read %s\n", argv[1 + i]);
      return 2;
    }
    auto launches = ParseProfileCsv(text);
    if (!launches.ok()) {
      std::fprintf(stderr, "ncu_csv_compare: %s: %s\n", argv[1 + i],
                   launches.status().message().c_str());
      return 2;
    }
    sides[i] = std::move(*launches);
  }
  std::vector<std::string> metrics = argc == 4 ? SplitCommas(argv[3]) : std::vector<std::string>{};
  Comparison comparison = CompareLaunches(sides[0], sides[1], metrics, Tolerances{});
  std::fputs(FormatComparison(comparison).c_str(), stdout);
  return comparison.ok() ? 0 : 1;
}
