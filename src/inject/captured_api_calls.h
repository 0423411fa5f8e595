// The buffers of `--api-capture callback` (cupti/tracing/api_callback_capture.h): API calls that
// gpuscope timed itself in CUPTI's callbacks, packed on the program's threads (or the flusher)
// into the collector's pool buffers and translated on the writer thread like CUPTI's own
// activity buffers. CUPTI-free, so that tests build such buffers without a GPU.
//
// A buffer is a sequence of sections, one per thread drained into it:
//   CapturedSection, then `calls` CapturedCall, then `counts` CapturedCallCount.
// Every struct is a multiple of 8 bytes, so each one stays 8-byte aligned in the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuscope::inject {

inline constexpr std::uint32_t kCapturedSectionMagic = 0x43415053;  // "SPAC"

struct CapturedSection {
  std::uint32_t magic = kCapturedSectionMagic;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t calls = 0;   // CapturedCall entries that follow
  std::uint32_t counts = 0;  // CapturedCallCount entries after them
  std::uint32_t reserved = 0;
};

// One call the program made (a runtime call, or a driver call outside any runtime call).
struct CapturedCall {
  std::uint64_t start = 0;  // ns, CUPTI's clock (CLOCK_REALTIME)
  std::uint64_t end = 0;
  std::uint32_t cbid = 0;
  std::uint32_t correlation_id = 0;
  std::int32_t return_value = 0;
  std::uint32_t domain = 0;  // model::ApiDomain
};

// A hot no-op function's calls on the section's thread since the last drain (calls,
// total_ns) and since the start (the rest).
struct CapturedCallCount {
  std::uint64_t calls = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t first_start = 0;
  std::uint64_t last_end = 0;
  std::uint32_t cbid = 0;
  std::uint32_t domain = 0;  // model::ApiDomain
};

static_assert(sizeof(CapturedSection) % 8 == 0 && sizeof(CapturedCall) % 8 == 0 &&
              sizeof(CapturedCallCount) % 8 == 0);

inline std::size_t CapturedSectionBytes(std::uint32_t calls, std::uint32_t counts) {
  return sizeof(CapturedSection) + calls * sizeof(CapturedCall) +
         counts * sizeof(CapturedCallCount);
}

// Walks a buffer: fn(section, calls, counts) per section; false at a damaged section (its
// rest is not walked). Sections are copied out, so the buffer needs no particular alignment.
template <typename Fn>
bool ForEachCapturedSection(const std::uint8_t* buffer, std::size_t bytes, Fn&& fn) {
  std::size_t at = 0;
  while (at < bytes) {
    CapturedSection section;
    if (bytes - at < sizeof(section)) return false;
    std::memcpy(&section, buffer + at, sizeof(section));
    if (section.magic != kCapturedSectionMagic) return false;
    const std::size_t size = CapturedSectionBytes(section.calls, section.counts);
    if (size > bytes - at) return false;
    const auto* calls = buffer + at + sizeof(section);
    fn(section, calls, calls + section.calls * sizeof(CapturedCall));
    at += size;
  }
  return true;
}

}  // namespace gpuscope::inject
