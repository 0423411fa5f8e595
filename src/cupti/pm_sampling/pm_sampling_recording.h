// A PM sampling session as recorded on the GPU (pm_sampling_calls.h: RecordingPmSamplingCalls
// writes it, RecordedPmSamplingCalls plays it back in the GPU-free tests) and its file: a magic
// line, then the fields in order; integers little-endian as on x86-64 (the only host CUPTI's PM
// sampling runs on here), byte strings as a u64 length and the bytes, images zlib-compressed
// (mostly the initialised pattern: a few KiB each). CUPTI-free.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "util/status.h"

namespace gpuscope::cupti {

struct PmSamplingRecording {
  struct Sample {
    std::int32_t result = 0;
    std::uint64_t start = 0, end = 0;
  };
  struct Decode {
    std::int32_t result = 0;
    std::int32_t stop_reason = 0;
    std::uint8_t overflow = 0;
    std::vector<std::uint8_t> image;  // the counter-data image after the call
    std::vector<Sample> samples;      // GetSampleInfo's answers, by sample index
  };
  std::string chip;
  std::vector<std::uint8_t> availability;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> image_sizes;  // max samples -> bytes
  std::vector<std::uint8_t> initialized_image;  // an image just initialised (no samples)
  std::vector<Decode> decodes;
};

std::vector<std::uint8_t> EncodePmSamplingRecording(const PmSamplingRecording& recording);
StatusOr<PmSamplingRecording> DecodePmSamplingRecording(const std::vector<std::uint8_t>& bytes);
StatusOr<PmSamplingRecording> ReadPmSamplingRecording(const std::string& path);

}  // namespace gpuscope::cupti
