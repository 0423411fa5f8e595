// source_csv_compare <ncu_source.csv> <gpuscope_source.csv>: compares two saved source pages
// (`ncu --import r.ncu-rep --page source --csv --print-source sass` and `gpuscope source r
// --csv --print-source sass`, as tests/gpu/source_vs_ncu_test.cpp keeps them when it fails)
// launch by launch and instruction by instruction within 1%; prints one line per launch and
// per difference, and exits 0 when they agree, 1 when they do not, 2 on bad input.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "source_comparison.h"
#include "source_csv.h"

namespace {

bool ReadFile(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: source_csv_compare <ncu_source.csv> <gpuscope_source.csv>\n");
    return 2;
  }
  using namespace gpuscope::ncu_csv;
  std::string texts[2];
  for (int i = 0; i < 2; ++i) {
    if (!ReadFile(argv[1 + i], texts[i])) {
      std::fprintf(stderr, "source_csv_compare: cannot read %s\n", argv[1 + i]);
      return 2;
    }
  }
  auto ncu = ParseNcuSourcePage(texts[0]);
  auto gpuscope = ParseGpuscopeSourceCsv(texts[1]);
  if (!ncu.ok() || !gpuscope.ok()) {
    std::fprintf(stderr, "source_csv_compare: %s\n",
                 (!ncu.ok() ? ncu.status() : gpuscope.status()).message().c_str());
    return 2;
  }
  const std::vector<std::string> columns = {"Instructions Executed",
                                            "Thread Instructions Executed",
                                            "Predicated-On Thread Instructions Executed",
                                            "L2 Theoretical Sectors Global",
                                            "L2 Theoretical Sectors Global Ideal",
                                            "L1 Wavefronts Shared",
                                            "L1 Wavefronts Shared Ideal"};
  const auto ncu_launches = ByLaunch(*ncu);
  const auto gpuscope_launches = ByLaunch(*gpuscope);
  std::set<LaunchKey> keys;
  for (const auto& [key, function] : ncu_launches) keys.insert(key);
  for (const auto& [key, function] : gpuscope_launches) keys.insert(key);
  bool agree = true;
  for (const LaunchKey& key : keys) {
    auto reference = ncu_launches.find(key);
    auto measured = gpuscope_launches.find(key);
    if (reference == ncu_launches.end() || measured == gpuscope_launches.end()) {
      std::printf("%s launch %d: only on %s's page\n", key.first.c_str(), key.second,
                  reference == ncu_launches.end() ? "gpuscope" : "ncu");
      agree = false;
      continue;
    }
    SourceComparison comparison =
        CompareSourceFunctions(*reference->second, *measured->second, columns, 0.01);
    std::printf("%s launch %d: %zu instructions, %zu values, %zu differences\n", key.first.c_str(),
                key.second, comparison.matched_instructions, comparison.values_compared,
                comparison.problems.size());
    for (const std::string& problem : comparison.problems) std::printf("  %s\n", problem.c_str());
    agree = agree && comparison.ok();
  }
  return agree ? 0 : 1;
}
