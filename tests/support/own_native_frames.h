// This program's own native frames, taken by the injection's production capture
// (inject/native_frames.h) from two call sites of one capturing function, with the line of each
// call: for the tests that deduplicate such stacks (tests/inject), symbolize them
// (tests/symbols) and store them (tests/store, tests/cli). A file that needs the frames to stay
// frames, or their lines, is compiled with -fno-omit-frame-pointer -fno-inline (and -g).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "inject/native_frames.h"
#include "inject/stack_table.h"

namespace gpuscope::testing {

inline std::vector<inject::CapturedFrame> Captured(const std::uint64_t* addresses,
                                                   std::size_t count) {
  std::vector<inject::CapturedFrame> frames;
  for (std::size_t i = 0; i < count; ++i) frames.push_back({addresses[i], nullptr, 0});
  return frames;
}

// Two distinct call sites of one capturing function. The line of each call is recorded.
inline int g_first_call_line = 0;
inline int g_second_call_line = 0;

[[gnu::noinline]] inline std::vector<inject::CapturedFrame> CaptureHere() {
  std::array<std::uint64_t, 64> addresses{};
  const std::size_t count = inject::CaptureNativeFrames(addresses.data(), addresses.size(), 0);
  return Captured(addresses.data(), count);
}

[[gnu::noinline]] inline std::vector<inject::CapturedFrame> FirstCallSite() {
  g_first_call_line = __LINE__ + 1;
  std::vector<inject::CapturedFrame> frames = CaptureHere();
  asm volatile("");  // keeps the call from becoming a tail call
  return frames;
}

[[gnu::noinline]] inline std::vector<inject::CapturedFrame> SecondCallSite() {
  g_second_call_line = __LINE__ + 1;
  std::vector<inject::CapturedFrame> frames = CaptureHere();
  asm volatile("");
  return frames;
}

}  // namespace gpuscope::testing
