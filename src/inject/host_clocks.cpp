#include "inject/host_clocks.h"

#include <time.h>

namespace gpuscope::inject {

namespace {

std::int64_t Read(clockid_t clock) {
  timespec now{};
  if (clock_gettime(clock, &now) != 0) return 0;
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// The middle of [low, high] without overflow (high >= low).
template <typename T>
T Middle(T low, T high) {
  return low + (high - low) / 2;
}

}  // namespace

HostClockRead ReadHostClocks(model::Timestamp cupti_now) {
  HostClockRead read;
  read.cupti_ns = cupti_now;
  read.realtime_ns = Read(CLOCK_REALTIME);
  // The raw hardware clock: NTP slews CLOCK_MONOTONIC (and steps CLOCK_REALTIME), not this one,
  // so it is the steadiest clock two processes of one boot share.
  read.monotonic_ns = Read(CLOCK_MONOTONIC_RAW);
  return read;
}

model::ClockSampleRecord HostClockSample(model::Timestamp cupti_now) {
  const HostClockRead read = ReadHostClocks(cupti_now);
  model::ClockSampleRecord sample;
  sample.cupti_ns = read.cupti_ns;
  sample.realtime_ns = read.realtime_ns;
  sample.monotonic_ns = read.monotonic_ns;
  return sample;
}

std::optional<model::ClockSampleRecord> GpuClockPair(const HostClockRead& before,
                                                      const HostClockRead& after,
                                                      std::uint32_t device_id,
                                                      std::int64_t gpu_ns) {
  const bool read = before.cupti_ns != 0 && before.realtime_ns != 0 &&
                    before.monotonic_ns != 0 && gpu_ns > 0;
  const bool forward = after.cupti_ns >= before.cupti_ns &&
                       after.realtime_ns >= before.realtime_ns &&
                       after.monotonic_ns >= before.monotonic_ns;
  if (!read || !forward) return std::nullopt;
  model::ClockSampleRecord pair;
  pair.cupti_ns = Middle(before.cupti_ns, after.cupti_ns);
  pair.realtime_ns = Middle(before.realtime_ns, after.realtime_ns);
  pair.monotonic_ns = Middle(before.monotonic_ns, after.monotonic_ns);
  pair.device_id = device_id;
  pair.gpu_ns = gpu_ns;
  const std::int64_t window = after.monotonic_ns - before.monotonic_ns;
  pair.gpu_uncertainty_ns = window / 2 + window % 2;
  return pair;
}

}  // namespace gpuscope::inject
