// Integer arithmetic that cannot overflow: values from a report file may be anything (a
// block dimension of 2^31, an allocation of 2^62 bytes, a start at INT64_MIN), and signed
// overflow is undefined behaviour. The results stick at the type's limits instead, which
// prints as an absurd value, as the input was. Header-only.
#pragma once

#include <cstdint>
#include <limits>

namespace gpuscope {

inline std::int64_t SaturatingAdd(std::int64_t a, std::int64_t b) {
  std::int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

inline std::int64_t SaturatingSub(std::int64_t a, std::int64_t b) {
  std::int64_t difference;
  if (!__builtin_sub_overflow(a, b, &difference)) return difference;
  return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

inline std::int64_t SaturatingMul(std::int64_t a, std::int64_t b) {
  std::int64_t product;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min()
                            : std::numeric_limits<std::int64_t>::max();
}

// An unsigned quantity (bytes, a timestamp) as int64, at most INT64_MAX.
inline std::int64_t SaturatingSigned(std::uint64_t value) {
  return value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(value);
}

// time - origin for unsigned timestamps, within [-INT64_MAX, INT64_MAX] (so that its
// negation never overflows either).
inline std::int64_t SaturatingDifference(std::uint64_t time, std::uint64_t origin) {
  return time >= origin ? SaturatingSigned(time - origin) : -SaturatingSigned(origin - time);
}

}  // namespace gpuscope
