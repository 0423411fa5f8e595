// A report's kernel launches grouped by name and launch configuration, counted and timed:
// the viewer's kernel pages (launches, total/min/max time, configurations).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "store/launch_config.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

// The launches of one kernel with one launch configuration. Durations go over the launches
// with timestamps only (`timed`); they are 0 when there is none, e.g. when every launch was
// replayed by `gpuscope profile`, which CUPTI does not time.
struct KernelLaunchGroup {
  std::string_view name;          // demangled; valid during the callback only
  std::string_view mangled_name;  // valid during the callback only
  LaunchConfig launch;
  std::int64_t launches = 0;
  std::int64_t timed = 0;
  std::int64_t total_duration = 0, min_duration = 0, max_duration = 0;  // ns
};

// Every group, by name and then most launches first; only the kernels named `name`
// (demangled) when it is given.
Status ForEachKernelLaunchGroup(const ReportReader& report, std::optional<std::string_view> name,
                                const std::function<void(const KernelLaunchGroup&)>& fn);

}  // namespace gpuscope::store
