// Damage inside the counter-data images of a profile report (profiled_kernels.counter_data,
// zlib-compressed): damage to the compressed bytes is caught by zlib's checksum, so these
// decompress the image, damage it (byte_mutations.h, MutateBlob) and compress it again, which
// is what reaches CUPTI's host library. kernel_metrics is emptied, so that readers evaluate the
// images again instead of showing the stored values.
#pragma once

#include <optional>
#include <string>

#include "random_source.h"

namespace gpuscope::fuzz {

// Damages the image of one profiled kernel of the report at `path` and says what it did;
// nullopt when the report holds no image (a trace report) or cannot be changed.
std::optional<std::string> MutateCounterImage(const std::string& path, RandomSource& random);

}  // namespace gpuscope::fuzz
