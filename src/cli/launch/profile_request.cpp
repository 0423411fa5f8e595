#include "cli/launch/profile_request.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli/launch/profile_cache.h"
#include "cli/output/step_timer.h"
#include "cli/output/temp_dir.h"
#include "cupti/host/device_chip.h"

namespace gpuscope::cli {

StatusOr<std::string> ChooseChip(const ProfileOptions& options) {
  if (options.chip) return *options.chip;
  if (std::optional<std::string> cached = CachedChip()) return *cached;
  StatusOr<std::string> detected = cupti::host::DetectChip(0);
  if (detected.ok()) RememberChip(*detected);
  return detected;
}

StatusOr<std::string> WriteConfigImage(const ProfileRequestPlan& plan) {
  std::string path = TemporaryDirectory() + "/gpuscope-config-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) return Status::Error("cannot create " + path + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < plan.config_image.size()) {
    ssize_t n = write(fd, plan.config_image.data() + written, plan.config_image.size() - written);
    if (n <= 0) {
      close(fd);
      std::remove(path.c_str());
      return Status::Error("cannot write " + path);
    }
    written += static_cast<std::size_t>(n);
  }
  close(fd);
  return path;
}

StatusOr<ProfileRequestPlan> PlanProfile(const ProfileOptions& options) {
  StepTimer timer;
  ProfileRequestPlan plan;
  std::optional<std::string_view> set;
  if (options.set) set = *options.set;
  // Only --metrics: ncu collects just those (no default set).
  if (!options.set && options.sections.empty() && !options.metrics.empty()) {
    plan.sections = {};
  } else {
    StatusOr<std::vector<const analysis::metrics::Section*>> sections =
        analysis::metrics::SelectSections(set, options.sections);
    if (!sections.ok()) return sections.status();
    plan.sections = *sections;
  }
  for (const analysis::metrics::Section* section : plan.sections) {
    plan.section_ids.push_back(section->identifier);
  }
  plan.extra_metrics = options.metrics;
  // Application replay reruns the program per counter pass; the source passes replay the
  // launch inside one run, so they go with kernel replay only.
  plan.source_counters =
      options.import_source && options.replay_mode == model::ReplayMode::kKernel &&
      std::find(plan.section_ids.begin(), plan.section_ids.end(), "SourceCounters") !=
          plan.section_ids.end();

  StatusOr<std::string> chip = ChooseChip(options);
  timer.Lap("finding the GPU's chip");
  if (!chip.ok()) {
    plan.notes.push_back("cannot check metric names before the start: " + chip.status().message() +
                         " (give --chip to check them here)");
    plan.metrics = analysis::metrics::MetricsToCollect(plan.sections, plan.extra_metrics);
    return plan;
  }
  StatusOr<std::unique_ptr<cupti::host::MetricHost>> host = cupti::host::MetricHost::Open(*chip);
  if (!host.ok()) return host.status();
  plan.chip = (*host)->chip();
  timer.Lap("opening the metric catalog");
  for (const std::string& name : plan.extra_metrics) {
    Status valid = (*host)->CheckMetric(name);
    if (!valid.ok()) return valid;
  }
  cupti::host::MetricHost& catalog = **host;
  plan.metrics = analysis::metrics::MetricsToCollect(
      plan.sections, plan.extra_metrics,
      [&catalog](std::string_view name) { return catalog.CheckMetric(name).ok(); });
  Status all_valid = catalog.CheckMetrics(plan.metrics);
  if (!all_valid.ok()) {
    return Status::Error("a section asks for a metric " + plan.chip +
                         " does not have: " + all_valid.message());
  }
  timer.Lap("checking the metric names");
  std::optional<cupti::host::ConfigImage> cached = CachedConfigImage(plan.chip, plan.metrics);
  StatusOr<cupti::host::ConfigImage> config =
      cached ? StatusOr<cupti::host::ConfigImage>(std::move(*cached))
             : catalog.MakeConfig(plan.metrics);
  timer.Lap(cached ? "reading the cached config image" : "building the config image");
  if (!config.ok()) return config.status();
  if (!cached) RememberConfigImage(plan.chip, plan.metrics, *config);
  plan.passes = config->passes;
  plan.config_image = std::move(config->bytes);
  return plan;
}

StatusOr<contract::ProfileRequest> InjectionRequest(const ProfileOptions& options,
                                                    const ProfileRequestPlan& plan) {
  contract::ProfileRequest request;
  request.metrics = plan.metrics;
  StatusOr<KernelFilterSpec> filter = ToKernelFilterSpec(options.filter);
  if (!filter.ok()) return filter.status();
  request.filter = std::move(*filter);
  request.replay_mode = options.replay_mode;
  StatusOr<NvtxRangeFilter> nvtx = NvtxRangeFilter::Parse(options.nvtx_include);
  if (!nvtx.ok()) return nvtx.status();
  request.nvtx_include = std::move(*nvtx);
  request.cache_control = options.cache_control;
  request.restore_memory = !options.replay_no_restore;
  request.source_counters = plan.source_counters;
  return request;
}

}  // namespace gpuscope::cli
