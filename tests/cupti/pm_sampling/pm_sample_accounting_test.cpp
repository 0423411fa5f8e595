// What `run --gpu-metrics` counts as kept and dropped (cupti/pm_sampling/pm_sample_accounting.h), with the
// sample times CUPTI decodes: the first sample of each Start is not kept, samples lost between
// decoded ones are counted by their gap, an overflow is counted with the rate that would fit,
// and the end-of-run line says all of it.
#include "cupti/pm_sampling/pm_sample_accounting.h"

#include <gtest/gtest.h>

namespace gpuscope::cupti {
namespace {

constexpr std::uint64_t kInterval = 100'000;  // 10 kHz
constexpr std::uint64_t kStart = 1'000'000'000;

// Samples [from, to) of the period (sample k spans kStart + k intervals).
void Feed(PmSampleAccounting& accounting, int from, int to, int* kept = nullptr) {
  for (int k = from; k < to; ++k) {
    const std::uint64_t start = kStart + k * kInterval;
    if (accounting.OnSample(start, start + kInterval)) {
      accounting.OnKept();
      if (kept != nullptr) ++*kept;
    }
  }
}

TEST(PmSampleAccounting, TheFirstSampleSpansFromStartAndIsNotKept) {
  PmSampleAccounting accounting(kInterval);
  // CUPTI's sample 0 covers Start to the first trigger (0.9 s on the H200).
  EXPECT_FALSE(accounting.OnSample(kStart - 900'000'000, kStart));
  int kept = 0;
  Feed(accounting, 0, 10, &kept);
  EXPECT_EQ(kept, 10);
  EXPECT_EQ(accounting.kept(), 10u);
  EXPECT_EQ(accounting.dropped(), 0u);
  EXPECT_EQ(accounting.LossSummary(0), "");
}

TEST(PmSampleAccounting, SamplesMissingBetweenDecodedOnesAreCountedByTheirGap) {
  PmSampleAccounting accounting(kInterval);
  Feed(accounting, 0, 11);   // the first is not kept: 10 kept
  Feed(accounting, 25, 30);  // 11..24 never came: 14 dropped
  EXPECT_EQ(accounting.kept(), 15u);
  EXPECT_EQ(accounting.dropped(), 14u);
  // A sample kept by its times but not evaluable is dropped too.
  accounting.OnUnevaluated();
  EXPECT_EQ(accounting.dropped(), 15u);
  EXPECT_EQ(accounting.LossSummary(3), "GPU metrics: device 3: 15 sample(s) dropped, 15 kept");
}

TEST(PmSampleAccounting, AfterARestartTheGapAndTheNewFirstSampleAreDropped) {
  PmSampleAccounting accounting(kInterval);
  Feed(accounting, 0, 11);  // 10 kept, last end at sample 11's start
  accounting.OnRestart();
  // Sampling starts again at sample 20: its first (20) is not kept, 21.. are.
  Feed(accounting, 20, 30);
  EXPECT_EQ(accounting.kept(), 19u);
  EXPECT_EQ(accounting.dropped(), 10u);  // 11..20
  // Kept + dropped cover the span from the first kept sample's start to the last one's end.
  EXPECT_EQ(accounting.kept() + accounting.dropped(), 29u);
}

TEST(PmSampleAccounting, AnOverflowNamesTheRateThatWouldFit) {
  PmSampleAccounting accounting(kInterval);
  accounting.OnDecode(0, false, kStart);
  Feed(accounting, 0, 101);
  // 20 ms after the last decode the buffer held 100 samples: one per 200 us would have fitted.
  accounting.OnDecode(100, true, kStart + 20'000'000);
  EXPECT_EQ(accounting.overflows(), 1u);
  EXPECT_EQ(accounting.fitting_interval_ns(), 200'000u);
  EXPECT_EQ(accounting.LossSummary(0),
            "GPU metrics: device 0: 0 sample(s) dropped, 100 kept; the hardware buffer overflowed "
            "1 time(s): at most --gpu-metrics-frequency 5000 would fit");
  // An overflow with nothing read: at least half the rate.
  PmSampleAccounting blind(kInterval);
  blind.OnDecode(0, true, kStart);
  EXPECT_EQ(blind.fitting_interval_ns(), 2 * kInterval);
}

}  // namespace
}  // namespace gpuscope::cupti
