// Shared by the metric host tests: one MetricHost for GH100 (opening one loads CUPTI's metric
// database, ~0.1 s) and the section metric list checked in beside the profile fixtures.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"

namespace gpuscope::cupti::host::testing {

inline MetricHost& Gh100() {
  static std::unique_ptr<MetricHost> host = [] {
    StatusOr<std::unique_ptr<MetricHost>> opened = MetricHost::Open("GH100");
    if (!opened.ok()) ADD_FAILURE() << opened.status().message();
    return opened.ok() ? std::move(*opened) : nullptr;
  }();
  return *host;
}

// The 137 metric names of our Nsight-Compute-like sections (notes/gh100-section-metrics.txt).
inline std::vector<std::string> SectionMetrics() {
  std::ifstream file(std::string(GPUSCOPE_TEST_DATA_DIR) + "/profile/gh100_section_metrics.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return names;
}

}  // namespace gpuscope::cupti::host::testing
