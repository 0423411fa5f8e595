#include "inject/host_clocks.h"

#include <time.h>

namespace gpuscope::inject {

namespace {

std::int64_t Read(clockid_t clock) {
  timespec now{};
  if (clock_gettime(clock, &now) != 0) return 0;
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

model::ClockSampleRecord HostClockSample(model::Timestamp cupti_now) {
  model::ClockSampleRecord sample;
  sample.cupti_ns = cupti_now;
  sample.realtime_ns = Read(CLOCK_REALTIME);
  // The raw hardware clock: NTP slews CLOCK_MONOTONIC (and steps CLOCK_REALTIME), not this one,
  // so it is the steadiest clock two processes of one boot share.
  sample.monotonic_ns = Read(CLOCK_MONOTONIC_RAW);
  return sample;
}

}  // namespace gpuscope::inject
