// What PM sampling kept and lost on one device, CUPTI-free (pm_sampling_device.h feeds it the
// times CUPTI decodes), so that the accounting is tested without a GPU:
//   * the first sample after each Start spans from Start to the first trigger (0.9 s on the
//     H200, notes/cupti.md 4.1): never kept;
//   * a sample missing between two decoded ones (a full buffer keeps the oldest and loses what
//     comes until the next decode; a restart after an overflow; a sample without times) is
//     counted as dropped by the gap it leaves, in intervals, rounded;
//   * an overflow is counted with the longest interval whose samples would have fitted: the
//     buffer held what one decode read, over the time since the decode before.
#pragma once

#include <cstdint>
#include <string>

namespace gpuscope::cupti {

class PmSampleAccounting {
 public:
  explicit PmSampleAccounting(std::uint64_t interval_ns) : interval_ns_(interval_ns) {}

  // A decoded sample with valid times: whether to keep it (false for the first after a Start).
  bool OnSample(std::uint64_t start_ns, std::uint64_t end_ns);
  // A kept sample whose values could not be evaluated.
  void OnUnevaluated() { ++dropped_; }
  void OnKept() { ++kept_; }
  // Sampling started again (after an overflow): its first sample is not kept either.
  void OnRestart() { first_seen_ = false; }
  // One decode ended at `now_ns` (the records' clock) after reading `decoded` samples;
  // `overflowed`: the hardware buffer was found overflowed.
  void OnDecode(std::uint64_t decoded, bool overflowed, std::uint64_t now_ns);

  std::uint64_t kept() const { return kept_; }
  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t overflows() const { return overflows_; }
  std::uint64_t fitting_interval_ns() const { return fitting_interval_ns_; }

  // "GPU metrics: device 0: 12 sample(s) dropped, 3400 kept; the hardware buffer overflowed 1
  // time(s): at most --gpu-metrics-frequency 5000 would fit", or empty when nothing was lost.
  std::string LossSummary(std::uint32_t device_id) const;

 private:
  const std::uint64_t interval_ns_;
  bool first_seen_ = false;
  std::uint64_t last_end_ = 0;  // end of the last decoded sample with times
  std::uint64_t last_decode_ns_ = 0;
  std::uint64_t kept_ = 0, dropped_ = 0, overflows_ = 0, fitting_interval_ns_ = 0;
};

}  // namespace gpuscope::cupti
