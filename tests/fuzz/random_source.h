// Where the mutation engine takes its choices from. The bounded mutation test draws them from a
// seeded generator (SplitMix64, written out here because std::uniform_int_distribution differs
// between standard libraries, and a printed seed must give the same mutants everywhere); the
// libFuzzer target draws them from the fuzzer's input bytes, so that libFuzzer's own mutations
// of those bytes steer which mutations are applied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace gpuscope::fuzz {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual std::uint64_t Next() = 0;

  // A value in [0, n) (0 when n is 0). The modulo bias is irrelevant for a fuzzer.
  std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }
  bool OneIn(std::uint64_t n) { return Below(n) == 0; }
  template <typename T, std::size_t N>
  const T& Pick(const T (&items)[N]) {
    return items[Below(N)];
  }
};

inline std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class SeededRandom final : public RandomSource {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() override { return SplitMix64(state_); }

 private:
  std::uint64_t state_;
};

// The generator of case `index` of a run with `seed`: each case is reproducible alone.
inline SeededRandom CaseRandom(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t mixed = index;
  return SeededRandom(seed ^ SplitMix64(mixed));
}

// Eight input bytes per choice; zeros once the input is used up (libFuzzer then learns that
// longer inputs make more choices).
class ByteStreamRandom final : public RandomSource {
 public:
  explicit ByteStreamRandom(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t Next() override {
    std::uint64_t value = 0;
    for (int i = 0; i < 8 && position_ < bytes_.size(); ++i) {
      value |= static_cast<std::uint64_t>(bytes_[position_++]) << (8 * i);
    }
    return value;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

}  // namespace gpuscope::fuzz
