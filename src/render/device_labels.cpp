#include "render/device_labels.h"

#include <algorithm>

namespace gpuscope::render {

using analysis::Reports;
namespace {

std::string MakeLabel(std::string_view name, std::uint32_t device_id) {
  return std::string(name) + " (" + std::to_string(device_id) + ")";
}

}  // namespace

DeviceLabels::DeviceLabels(const Reports& reports) {
  for (std::size_t report = 0; report < reports.size(); ++report) {
    if (reports[report] == nullptr) continue;
    for (const store::DeviceInfo& device : reports[report]->devices()) {
      Add(static_cast<std::uint32_t>(report), device.record.id, device.name);
    }
  }
}

void DeviceLabels::Add(std::uint32_t report, std::uint32_t device_id, std::string_view name) {
  std::string& label = labels_[{report, device_id}];
  label = MakeLabel(name, device_id);
  widest_ = std::max(widest_, label.size());
}

const std::string& DeviceLabels::Label(std::uint32_t report, std::uint32_t device_id) {
  auto found = labels_.find({report, device_id});
  if (found != labels_.end()) return found->second;
  std::string& label = labels_[{report, device_id}];
  label = MakeLabel("Device", device_id);
  widest_ = std::max(widest_, label.size());
  return label;
}

}  // namespace gpuscope::render
