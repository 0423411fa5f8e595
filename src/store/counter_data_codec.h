// CUPTI counter-data images are mostly zeros and headers (1.9 MB per kernel for the full
// set of sections, 3x smaller compressed): reports store them zlib-compressed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "util/status.h"

namespace gpuscope::store {

// Fast compression (level 1): it runs on the traced process's writer thread.
StatusOr<std::vector<std::uint8_t>> CompressCounterData(std::span<const std::uint8_t> image);

// `expected_size` is the stored uncompressed size; a mismatch is corruption.
StatusOr<std::vector<std::uint8_t>> DecompressCounterData(std::span<const std::uint8_t> stored,
                                                          std::size_t expected_size);

}  // namespace gpuscope::store
