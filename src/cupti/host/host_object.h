// CUPTI's Profiler Host object for one chip, one call per method, errors as Status. The only file
// of the metric host that sees CUPTI types besides counter_data.cpp; MetricHost builds on it.
#pragma once

#include <cupti_profiler_host.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace gpuscope::cupti::host {

// CUPTI's parameter structs, all fields zero (pPriv must be NULL) but the size, which tells
// CUPTI which fields this build knows.
template <typename Params>
Params ZeroedParams(std::size_t struct_size) {
  Params params{};
  params.structSize = struct_size;
  return params;
}

// Ok for CUPTI_SUCCESS, else "<what>: CUPTI_ERROR_...".
Status HostCuptiStatus(CUptiResult result, const char* what);

struct CuptiMetricProperties {
  std::string description;
  std::string hw_unit;
  std::string dimension;
  CUpti_MetricType type = CUPTI_METRIC_TYPE_COUNTER;
};

class HostObject {
 public:
  ~HostObject();
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  static StatusOr<std::vector<std::string>> SupportedChips();
  // `chip` must be spelled as SupportedChips() spells it. Without an availability image
  // (offline) every counter of the chip is assumed available (on a target the Range Profiler
  // checks); PM sampling passes the device's, as CUPTI's samples do. The profiler type picks
  // the catalog: PM sampling lists other metrics (the *_realtime ones) and builds config
  // images for cuptiPmSamplingSetConfig. CUPTI reads the image during Create only.
  static StatusOr<std::unique_ptr<HostObject>> Create(
      const std::string& chip, CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER,
      std::span<const std::uint8_t> counter_availability = {});

  StatusOr<std::vector<std::string>> BaseMetrics(CUpti_MetricType type);
  StatusOr<std::vector<std::string>> SubMetrics(CUpti_MetricType type, const std::string& base);
  // Accepts base names and full names; CUPTI adjusts the dimension to the sub-metric.
  StatusOr<CuptiMetricProperties> Properties(const std::string& name);

  // CUPTI accumulates added metrics in the object, scheduling each call's batch separately
  // (137 names in one call: 20 passes; in two calls: 22), so a config is built on a fresh
  // object with one call.
  Status AddMetrics(const std::vector<std::string>& names);
  StatusOr<std::vector<std::uint8_t>> ConfigImage();

  // Returns the raw CUPTI result too: the caller tells a bad name from a bad image.
  CUptiResult Evaluate(std::span<const std::uint8_t> counter_data, std::size_t range,
                       const std::vector<const char*>& names, double* values);

 private:
  explicit HostObject(CUpti_Profiler_Host_Object* object) : object_(object) {}
  CUpti_Profiler_Host_Object* object_;
};

// Passes a config image needs (needs no host object).
StatusOr<std::uint32_t> ConfigImagePasses(std::vector<std::uint8_t>& config_image);

}  // namespace gpuscope::cupti::host
