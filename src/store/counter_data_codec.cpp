#include "store/counter_data_codec.h"

#include <zlib.h>

#include <string>

namespace gpuscope::store {

StatusOr<std::vector<std::uint8_t>> CompressCounterData(std::span<const std::uint8_t> image) {
  uLongf size = compressBound(static_cast<uLong>(image.size()));
  std::vector<std::uint8_t> out(size);
  int rc = compress2(out.data(), &size, image.data(), static_cast<uLong>(image.size()), 1);
  if (rc != Z_OK) {
    return Status::Error("cannot compress counter data (zlib error " + std::to_string(rc) + ")");
  }
  out.resize(size);
  return out;
}

StatusOr<std::vector<std::uint8_t>> DecompressCounterData(std::span<const std::uint8_t> stored,
                                                          std::size_t expected_size) {
  // zlib expands at most ~1032:1; a size beyond that (or none) comes from a damaged report and
  // must not become a huge allocation.
  if (expected_size == 0 || expected_size / 1032 > stored.size() + 1) {
    return Status::Error("corrupt counter data (" + std::to_string(stored.size()) +
                         " stored bytes cannot expand to " + std::to_string(expected_size) + ")");
  }
  std::vector<std::uint8_t> out(expected_size);
  uLongf size = static_cast<uLongf>(expected_size);
  int rc = uncompress(out.data(), &size, stored.data(), static_cast<uLong>(stored.size()));
  if (rc != Z_OK || size != expected_size) {
    return Status::Error("corrupt counter data (" +
                         std::string(rc != Z_OK ? "zlib error " + std::to_string(rc)
                                                : std::to_string(size) + " bytes instead of " +
                                                      std::to_string(expected_size)) +
                         ")");
  }
  return out;
}

}  // namespace gpuscope::store
