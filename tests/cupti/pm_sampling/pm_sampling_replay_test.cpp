// PM sampling's device code (cupti/pm_sampling/pm_sampling_device.h) over a session recorded on the GPU
// (tests/data/pm_sampling/gpu_metrics_phases.pmrec: examples/gpu_metrics_phases under `gpuscope
// run --gpu-metrics` with GPUSCOPE_PM_SAMPLING_RECORD; scripts/record-report-fixtures.sh): the recorded
// images are decoded, evaluated by CUPTI's host code and accounted for as they were on the GPU,
// without one. CI runs this under AddressSanitizer and UBSan too (scripts/sanitize-injection.sh),
// so the sampler's buffers meet the sanitizers with real data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>

#include "cupti/pm_sampling/pm_sampling_calls.h"
#include "cupti/pm_sampling/pm_sampling_device.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::cupti {
namespace {

const std::string kRecording =
    std::string(GPUSCOPE_TEST_DATA_DIR) + "/pm_sampling/gpu_metrics_phases.pmrec";

// The recording comes from the GPU machine (scripts/record-report-fixtures.sh). Until one is
// checked in, the replay says so instead of passing: the recording's own format is tested below
// whatever happens.
#define REQUIRE_RECORDING()                                                                     \
  if (!std::filesystem::exists(kRecording)) {                                                  \
    GTEST_SKIP() << "no PM sampling recording at " << kRecording                               \
                 << " yet: record it on the GPU (scripts/record-report-fixtures.sh)";           \
  }

PmSamplingSettings SettingsOf(const PmSamplingRecording& recording) {
  PmSamplingSettings settings;
  settings.set = FindGpuMetricSet(kDefaultGpuMetricSet);
  settings.interval_ns = 1'000'000'000ull / kDefaultGpuMetricsFrequencyHz;
  settings.max_samples_per_decode = recording.image_sizes.front().first;
  return settings;
}

// What the recording's decodes hold: samples with times (the sampler keeps all of them but the
// first after Start, which spans from Start to the first trigger).
std::uint64_t TimedSamples(const PmSamplingRecording& recording) {
  std::uint64_t timed = 0;
  for (const PmSamplingRecording::Decode& decode : recording.decodes) {
    for (const PmSamplingRecording::Sample& sample : decode.samples) {
      timed += sample.result == CUPTI_SUCCESS && sample.start != 0 && sample.end >= sample.start;
    }
  }
  return timed;
}

TEST(PmSamplingReplay, TheRecordedSessionIsKeptOrCountedSampleBySample) {
  REQUIRE_RECORDING();
  StatusOr<PmSamplingRecording> recording = ReadPmSamplingRecording(kRecording);
  ASSERT_TRUE(recording.ok()) << recording.status().message();
  ASSERT_FALSE(recording->decodes.empty());
  const std::uint64_t timed = TimedSamples(*recording);
  ASSERT_GT(timed, 100u) << "the recording holds the phases' samples";

  PmSamplingDevice device(0, nullptr, SettingsOf(*recording),
                          MakeRecordedPmSamplingCalls(*recording));
  ASSERT_TRUE(device.Start()) << device.Sampling().status;
  std::uint64_t kept = 0, values = 0, metric_count = 0, out_of_range = 0;
  model::Timestamp last_start = 0;
  bool ordered = true;
  auto take = [&](const inject::GpuMetricBatch& batch) {
    if (!batch.metrics.empty()) metric_count = batch.metrics.size();
    kept += batch.samples();
    values += batch.values.size();
    for (std::size_t i = 0; i < batch.samples(); ++i) {
      ordered = ordered && batch.starts[i] > last_start && batch.ends[i] >= batch.starts[i];
      last_start = batch.starts[i];
    }
    for (double value : batch.values) out_of_range += std::isfinite(value) && value < 0;
  };
  for (std::size_t i = 0; i < recording->decodes.size(); ++i) {
    inject::GpuMetricBatch batch;
    device.Decode(batch, last_start);
    take(batch);
  }
  inject::GpuMetricBatch last;
  device.Release(last, last_start);
  take(last);

  const inject::OwnedGpuMetricSampling sampling = device.Sampling();
  EXPECT_EQ(sampling.status, "");
  EXPECT_EQ(sampling.chip, recording->chip);
  EXPECT_GT(metric_count, 0u);
  EXPECT_EQ(kept, sampling.samples);
  EXPECT_EQ(kept, timed - 1) << "every timed sample but Start's first is kept";
  EXPECT_EQ(values, kept * metric_count);
  EXPECT_TRUE(ordered) << "samples in time order, each ending after it starts";
  EXPECT_EQ(out_of_range, 0u) << "no negative rate or percentage";
  // Counted, never hidden: the samples the GPU wrote that were not kept.
  EXPECT_EQ(device.LossSummary().empty(), sampling.dropped_samples == 0 && sampling.overflows == 0);
}

// A played-out session decodes nothing more, and stopping twice changes nothing.
TEST(PmSamplingReplay, AfterTheLastRecordedDecodeNothingMoreIsDecoded) {
  REQUIRE_RECORDING();
  StatusOr<PmSamplingRecording> recording = ReadPmSamplingRecording(kRecording);
  ASSERT_TRUE(recording.ok()) << recording.status().message();
  PmSamplingDevice device(0, nullptr, SettingsOf(*recording),
                          MakeRecordedPmSamplingCalls(*recording));
  ASSERT_TRUE(device.Start());
  for (std::size_t i = 0; i < recording->decodes.size(); ++i) {
    inject::GpuMetricBatch batch;
    device.Decode(batch, 0);
  }
  const std::uint64_t kept = device.Sampling().samples;
  inject::GpuMetricBatch after;
  device.Decode(after, 0);
  EXPECT_EQ(after.samples(), 0u);
  inject::GpuMetricBatch stopped, again;
  device.Stop(stopped, 0);
  device.Stop(again, 0);
  EXPECT_EQ(stopped.samples() + again.samples(), 0u);
  EXPECT_EQ(device.Sampling().samples, kept);
  EXPECT_EQ(device.Sampling().status, "");
}

TEST(PmSamplingRecordingFile, ARecordingReadsBackAsWritten) {
  PmSamplingRecording recording;
  recording.chip = "GH100";
  recording.availability = {1, 2, 3};
  recording.image_sizes = {{804, 4096}, {100, 512}};
  recording.initialized_image.assign(4096, 0x5a);
  PmSamplingRecording::Decode& decode = recording.decodes.emplace_back();
  decode.result = CUPTI_ERROR_OUT_OF_MEMORY;
  decode.stop_reason = CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
  decode.overflow = 1;
  decode.image.assign(4096, 7);
  decode.samples = {{CUPTI_SUCCESS, 10, 20}, {CUPTI_ERROR_INVALID_PARAMETER, 0, 0}};
  StatusOr<PmSamplingRecording> back = DecodePmSamplingRecording(EncodePmSamplingRecording(recording));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->chip, "GH100");
  EXPECT_EQ(back->availability, recording.availability);
  EXPECT_EQ(back->image_sizes, recording.image_sizes);
  EXPECT_EQ(back->initialized_image, recording.initialized_image);
  ASSERT_EQ(back->decodes.size(), 1u);
  EXPECT_EQ(back->decodes[0].result, CUPTI_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(back->decodes[0].overflow, 1);
  EXPECT_EQ(back->decodes[0].image, decode.image);
  ASSERT_EQ(back->decodes[0].samples.size(), 2u);
  EXPECT_EQ(back->decodes[0].samples[0].end, 20u);
  // Cut anywhere, it is refused with one line, never read past its end.
  std::vector<std::uint8_t> bytes = EncodePmSamplingRecording(recording);
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
    StatusOr<PmSamplingRecording> damaged =
        DecodePmSamplingRecording(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + cut));
    EXPECT_FALSE(damaged.ok()) << cut;
  }
}

}  // namespace
}  // namespace gpuscope::cupti
