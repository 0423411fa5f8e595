#include "cupti/host/metric_host.h"

#include <algorithm>
#include <cctype>

#include "cupti/host/host_object.h"
#include "cupti/host/metric_names.h"
#include "cupti/host/unit_names.h"

namespace gpuscope::cupti::host {
namespace {

constexpr std::size_t kSuggestions = 3;

constexpr std::pair<CUpti_MetricType, MetricKind> kKinds[] = {
    {CUPTI_METRIC_TYPE_COUNTER, MetricKind::kCounter},
    {CUPTI_METRIC_TYPE_RATIO, MetricKind::kRatio},
    {CUPTI_METRIC_TYPE_THROUGHPUT, MetricKind::kThroughput},
};

CUpti_MetricType CuptiType(MetricKind kind) {
  for (const auto& [type, known] : kKinds) {
    if (known == kind) return type;
  }
  return CUPTI_METRIC_TYPE_COUNTER;
}

MetricKind KindOf(CUpti_MetricType type) {
  for (const auto& [known, kind] : kKinds) {
    if (known == type) return kind;
  }
  return MetricKind::kCounter;
}

std::string Upper(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::string JoinNames(const std::vector<std::string>& names, std::string_view separator) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += separator;
    joined += name;
  }
  return joined;
}

}  // namespace

std::string_view MetricKindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kCounter:
      return "counter";
    case MetricKind::kRatio:
      return "ratio";
    case MetricKind::kThroughput:
      return "throughput";
  }
  return "counter";
}

static CUpti_ProfilerType CuptiProfilerType(ProfilerKind kind) {
  return kind == ProfilerKind::kPmSampling ? CUPTI_PROFILER_TYPE_PM_SAMPLING
                                           : CUPTI_PROFILER_TYPE_RANGE_PROFILER;
}

MetricHost::MetricHost(std::string chip, ProfilerKind kind,
                       std::vector<std::uint8_t> counter_availability,
                       std::unique_ptr<HostObject> host)
    : chip_(std::move(chip)),
      kind_(kind),
      counter_availability_(std::move(counter_availability)),
      host_(std::move(host)) {}

StatusOr<std::unique_ptr<HostObject>> MetricHost::NewHostObject() const {
  return HostObject::Create(chip_, CuptiProfilerType(kind_), counter_availability_);
}

MetricHost::~MetricHost() = default;

StatusOr<std::vector<std::string>> MetricHost::SupportedChips() {
  return HostObject::SupportedChips();
}

StatusOr<std::unique_ptr<MetricHost>> MetricHost::Open(std::string_view chip, ProfilerKind kind,
                                                     std::vector<std::uint8_t> counter_availability) {
  StatusOr<std::vector<std::string>> chips = SupportedChips();
  if (!chips.ok()) return chips.status();
  auto found = std::find_if(chips->begin(), chips->end(),
                            [&](const std::string& known) { return Upper(known) == Upper(chip); });
  if (found == chips->end()) {
    return Status::Error("unknown chip \"" + std::string(chip) +
                         "\"; CUPTI's profiler supports: " + JoinNames(*chips, ", "));
  }
  StatusOr<std::unique_ptr<HostObject>> host =
      HostObject::Create(*found, CuptiProfilerType(kind), counter_availability);
  if (!host.ok()) return host.status();
  std::unique_ptr<MetricHost> metric_host(
      new MetricHost(*found, kind, std::move(counter_availability), std::move(*host)));
  GPUSCOPE_RETURN_IF_ERROR(metric_host->LoadBaseNames());
  return metric_host;
}

// Three calls, ~1 ms: the names and kinds are all that checking needs; sub-metrics and
// descriptions are fetched on demand.
Status MetricHost::LoadBaseNames() {
  for (const auto& [type, kind] : kKinds) {
    StatusOr<std::vector<std::string>> names = host_->BaseMetrics(type);
    if (!names.ok()) return names.status();
    for (std::string& name : *names) {
      if (bases_.emplace(name, BaseEntry{kind, std::nullopt}).second) {
        base_names_.push_back(std::move(name));
      }
    }
  }
  std::sort(base_names_.begin(), base_names_.end());
  if (base_names_.empty()) return Status::Error("CUPTI lists no metrics for " + chip_);
  return Status();
}

MetricHost::BaseEntry* MetricHost::FindBase(std::string_view base) {
  auto found = bases_.find(std::string(base));
  return found == bases_.end() ? nullptr : &found->second;
}

const std::vector<MetricDescription>& MetricHost::BaseMetrics() {
  if (!base_metrics_.empty()) return base_metrics_;
  base_metrics_.reserve(base_names_.size());
  for (const std::string& name : base_names_) base_metrics_.push_back(Describe(name));
  return base_metrics_;
}

const std::vector<std::string>& MetricHost::SubMetrics(std::string_view base) {
  static const std::vector<std::string> kNone;
  BaseEntry* entry = FindBase(base);
  if (!entry) return kNone;
  if (!entry->sub_metrics) {
    StatusOr<std::vector<std::string>> suffixes =
        host_->SubMetrics(CuptiType(entry->kind), std::string(base));
    // A base CUPTI lists but cannot expand has no valid full name: remember it as empty.
    entry->sub_metrics = suffixes.ok() ? std::move(*suffixes) : std::vector<std::string>{};
  }
  return *entry->sub_metrics;
}

bool MetricHost::HasSubMetric(std::string_view base, std::string_view suffix) {
  const std::vector<std::string>& suffixes = SubMetrics(base);
  return std::find(suffixes.begin(), suffixes.end(), suffix) != suffixes.end();
}

Status MetricHost::CheckMetric(std::string_view name) {
  if (name.empty()) return Status::Error("empty metric name");
  MetricNameParts parts = SplitMetricName(name);
  BaseEntry* entry = FindBase(parts.base);
  if (entry && !parts.suffix.empty() && HasSubMetric(parts.base, parts.suffix)) {
    return Status();
  }
  std::string quoted;  // built piecewise: GCC 12 warns falsely on "\"" + std::string(...)
  quoted.append(1, '"').append(name).append(1, '"');
  std::string message;
  if (!entry) {
    message = "unknown metric " + quoted + " on " + chip_;
  } else if (parts.suffix.empty()) {
    message = "metric " + quoted + " is a base metric and needs a sub-metric";
  } else {
    message = "unknown metric " + quoted + " on " + chip_ + ": " + std::string(parts.base) +
              " has no sub-metric \"" + std::string(parts.suffix) + "\"";
  }
  std::vector<std::string> nearest = NearestNames(name, kSuggestions);
  if (!nearest.empty()) message += "; did you mean " + JoinNames(nearest, ", ") + "?";
  return Status::Error(std::move(message));
}

Status MetricHost::CheckMetrics(const std::vector<std::string>& names) {
  for (const std::string& name : names) GPUSCOPE_RETURN_IF_ERROR(CheckMetric(name));
  return Status();
}

std::vector<std::string> MetricHost::NearestNames(std::string_view name, std::size_t count) {
  MetricNameParts parts = SplitMetricName(name);
  std::vector<std::string> nearest;
  if (FindBase(parts.base)) {
    for (const std::string& suffix :
         NearestCandidates(parts.suffix, SubMetrics(parts.base), count)) {
      nearest.push_back(std::string(parts.base) + suffix);
    }
    return nearest;
  }
  for (const std::string& base : NearestCandidates(parts.base, base_names_, count)) {
    const std::vector<std::string>& suffixes = SubMetrics(base);
    if (suffixes.empty() || HasSubMetric(base, parts.suffix)) {
      nearest.push_back(base + std::string(parts.suffix));
    } else {
      nearest.push_back(base + NearestCandidates(parts.suffix, suffixes, 1).front());
    }
  }
  return nearest;
}

StatusOr<ConfigImage> MetricHost::MakeConfig(const std::vector<std::string>& names) {
  if (names.empty()) return Status::Error("no metrics to configure");
  // A fresh object per config: CUPTI keeps adding to an object's config and schedules each
  // addition separately, which would cost passes.
  StatusOr<std::unique_ptr<HostObject>> scratch = NewHostObject();
  if (!scratch.ok()) return scratch.status();
  if (Status added = (*scratch)->AddMetrics(names); !added.ok()) {
    // CUPTI rejects the whole list without saying which name: find it ourselves. First the
    // catalog; then CUPTI name by name (~3 ms each, only on this failure path), because CUPTI
    // lists a few sub-metrics it cannot schedule (on GH100: the chip-to-chip ctc__ metrics'
    // per-cycle and %-of-peak ones).
    GPUSCOPE_RETURN_IF_ERROR(CheckMetrics(names));
    std::vector<std::string> rejected = UnschedulableNames(names);
    if (rejected.empty()) return added;
    return Status::Error("CUPTI lists but cannot collect " + JoinNames(rejected, ", ") + " on " +
                         chip_ + " (" + added.message() + ")");
  }
  StatusOr<std::vector<std::uint8_t>> image = (*scratch)->ConfigImage();
  if (!image.ok()) return image.status();
  StatusOr<std::uint32_t> passes = ConfigImagePasses(*image);
  if (!passes.ok()) return passes.status();
  return ConfigImage{std::move(*image), *passes};
}

std::vector<std::string> MetricHost::UnschedulableNames(const std::vector<std::string>& names) {
  std::vector<std::string> rejected;
  for (const std::string& name : names) {
    StatusOr<std::unique_ptr<HostObject>> scratch = NewHostObject();
    if (scratch.ok() && !(*scratch)->AddMetrics({name}).ok()) rejected.push_back(name);
  }
  return rejected;
}

StatusOr<std::uint32_t> MetricHost::CountPasses(const std::vector<std::string>& names) {
  StatusOr<ConfigImage> config = MakeConfig(names);
  if (!config.ok()) return config.status();
  return config->passes;
}

StatusOr<std::vector<std::optional<double>>> MetricHost::Evaluate(
    std::span<const std::uint8_t> counter_data, std::size_t range,
    const std::vector<std::string>& names) {
  // A PM sampling image holds samples where a range profiler image holds ranges; CUPTI counts
  // each kind with its own call.
  StatusOr<std::size_t> ranges = kind_ == ProfilerKind::kPmSampling
                                     ? PmSamplingSampleCount(counter_data)
                                     : CounterDataRangeCount(counter_data);
  if (!ranges.ok()) return ranges.status();
  if (range >= *ranges) {
    return Status::Error("cannot evaluate range " + std::to_string(range) +
                         ": the counter data holds " + std::to_string(*ranges) + " ranges");
  }
  std::vector<std::optional<double>> values(names.size());
  if (names.empty()) return values;

  std::vector<const char*> pointers;
  pointers.reserve(names.size());
  for (const std::string& name : names) pointers.push_back(name.c_str());
  std::vector<double> batch(names.size(), 0.0);
  CUptiResult batch_result = host_->Evaluate(counter_data, range, pointers, batch.data());
  if (batch_result == CUPTI_SUCCESS) {
    std::copy(batch.begin(), batch.end(), values.begin());
    return values;
  }
  // One unknown or uncollected name fails the whole batch: retry name by name.
  bool any_evaluated = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    double value = 0.0;
    if (host_->Evaluate(counter_data, range, {pointers[i]}, &value) == CUPTI_SUCCESS) {
      values[i] = value;
      any_evaluated = true;
    }
  }
  // Bad names fail with INVALID_METRIC_NAME; anything else failing every name is the image's
  // fault, and the caller should hear why rather than see a column of n/a.
  if (!any_evaluated && batch_result != CUPTI_ERROR_INVALID_METRIC_NAME) {
    return HostCuptiStatus(batch_result, "cannot evaluate the counter data");
  }
  return values;
}

MetricDescription MetricHost::Describe(std::string_view full_name) {
  MetricDescription description;
  description.name = std::string(full_name);
  StatusOr<CuptiMetricProperties> properties = host_->Properties(description.name);
  if (!properties.ok()) {
    if (BaseEntry* entry = FindBase(SplitMetricName(full_name).base)) {
      description.kind = entry->kind;
    }
    return description;
  }
  description.kind = KindOf(properties->type);
  description.description = std::move(properties->description);
  description.unit = NcuStyleUnit(properties->dimension);
  description.dimension = std::move(properties->dimension);
  description.hw_unit = std::move(properties->hw_unit);
  return description;
}

}  // namespace gpuscope::cupti::host
