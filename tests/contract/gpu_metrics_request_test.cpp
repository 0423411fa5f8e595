#include "contract/gpu_metrics_request.h"

#include <gtest/gtest.h>

#include "contract/environment_variables.h"
#include "environment_of.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::contract {
namespace {

using testing::EnvironmentOf;

RequestReading<GpuMetricsRequest> RoundTrip(const GpuMetricsRequest& request) {
  return GpuMetricsRequest::FromEnvironment(EnvironmentOf(request.ToEnvironment()));
}

TEST(GpuMetricsRequest, SetAndRateComeBackAsWritten) {
  GpuMetricsRequest written{.set_name = "memory", .frequency_hz = 2000};
  RequestReading<GpuMetricsRequest> read = RoundTrip(written);
  EXPECT_TRUE(read.problems.empty());
  EXPECT_EQ(read.request.set_name, "memory");
  EXPECT_EQ(read.request.frequency_hz, 2000u);
}

// No set: both variables empty (a nested run samples nothing), read back as no sampling.
TEST(GpuMetricsRequest, NoSetMeansBothVariablesEmpty) {
  GpuMetricsRequest none{.set_name = "", .frequency_hz = 500};
  EXPECT_EQ(none.ToEnvironment(), (VariableValues{{kGpuMetricsSetVariable, ""},
                                                  {kGpuMetricsFrequencyVariable, ""}}));
  RequestReading<GpuMetricsRequest> read = RoundTrip(none);
  EXPECT_TRUE(read.problems.empty());
  EXPECT_FALSE(read.request.enabled());
}

TEST(GpuMetricsRequest, AMalformedValueIsNamed) {
  RequestReading<GpuMetricsRequest> unknown =
      GpuMetricsRequest::FromEnvironment(EnvironmentOf({{kGpuMetricsSetVariable, "nope"}}));
  EXPECT_FALSE(unknown.request.enabled());
  ASSERT_EQ(unknown.problems.size(), 1u);
  EXPECT_EQ(unknown.problems[0],
            "GPUSCOPE_GPU_METRICS_SET='nope' is not a GPU metric set; sampling no GPU metrics");
  RequestReading<GpuMetricsRequest> rate = GpuMetricsRequest::FromEnvironment(
      EnvironmentOf({{kGpuMetricsSetVariable, "default"}, {kGpuMetricsFrequencyVariable, "9"}}));
  EXPECT_EQ(rate.request.frequency_hz, kDefaultGpuMetricsFrequencyHz);
  ASSERT_EQ(rate.problems.size(), 1u);
  EXPECT_EQ(rate.problems[0].rfind("GPUSCOPE_GPU_METRICS_FREQUENCY='9'", 0), 0u)
      << rate.problems[0];
}

}  // namespace
}  // namespace gpuscope::contract
