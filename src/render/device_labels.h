// nvprof's Device column: "NVIDIA H200 (0)", the device's name and id, per report.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/report_checks.h"

namespace gpuscope::render {

class DeviceLabels {
 public:
  DeviceLabels() = default;
  // The devices tables of the reports; report indexes follow the order of `reports`.
  explicit DeviceLabels(const analysis::Reports& reports);

  void Add(std::uint32_t report, std::uint32_t device_id, std::string_view name);

  // A device missing from its report's devices table (a report cut short before the
  // table was written) is still shown, as "Device (3)".
  const std::string& Label(std::uint32_t report, std::uint32_t device_id);

  // The longest label known so far, to size the column.
  std::size_t widest() const { return widest_; }

 private:
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> labels_;
  std::size_t widest_ = 0;
};

}  // namespace gpuscope::render
