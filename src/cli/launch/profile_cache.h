// What `gpuscope profile` learns once per machine and metric list, kept between runs: the
// GPU's chip (finding it initialises the CUDA driver, ~0.3 s) and CUPTI config images
// (building the full set's costs ~0.6 s). Both are keyed so that a change invalidates them:
// the chip by the driver version and the GPUs' descriptions in /proc/driver/nvidia, the
// image by the chip, the metric names and the CUPTI library file. The cache is only ever a
// shortcut: any problem with it means the value is computed as without it.
//
// Location: $GPUSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/gpuscope, else ~/.cache/gpuscope.
// GPUSCOPE_CACHE_DIR=off disables it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"

namespace gpuscope::cli {

// The chip of CUDA device 0 when the machine's GPUs are known and cached; nullopt otherwise.
std::optional<std::string> CachedChip();
// Remembers it for the current GPU set (nothing when the set cannot be described, e.g. two
// different GPU models, where CUDA's device order decides which is device 0).
void RememberChip(const std::string& chip);

std::optional<cupti::host::ConfigImage> CachedConfigImage(const std::string& chip,
                                                          const std::vector<std::string>& metrics);
void RememberConfigImage(const std::string& chip, const std::vector<std::string>& metrics,
                         const cupti::host::ConfigImage& image);

// The parts of a key, for tests: FNV-1a of the text, as 16 hex digits.
std::string CacheKey(const std::string& text);

}  // namespace gpuscope::cli
