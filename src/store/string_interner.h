// Maps names to small integer ids, assigning the next id to each name seen for the first
// time. The writer stores every name once in the `strings` table and refers to it by id.
//
// The hot path (a name seen before) allocates nothing: the map is keyed by string_view
// into storage the interner owns. CUPTI hands out the same `const char*` for every record
// of one kernel, so a small pointer-keyed cache answers most lookups without hashing the
// (often long) mangled name; a cache hit is confirmed by comparing the text, so results
// never depend on pointer identity (CUPTI may free a name and reuse its memory).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpuscope::store {

class StringInterner {
 public:
  struct Result {
    std::uint32_t id = 0;
    bool inserted = false;  // first time this name was seen: the caller stores it
  };

  // Ids start at 1 and are dense.
  Result Intern(std::string_view text);

  // The text of an id returned by Intern.
  std::string_view text(std::uint32_t id) const { return storage_[id - 1]; }
  std::size_t size() const { return storage_.size(); }

 private:
  struct CacheEntry {
    const char* data = nullptr;
    std::size_t size = 0;
    std::uint32_t id = 0;
  };
  static constexpr std::size_t kCacheSize = 256;  // a power of two

  static std::size_t CacheSlot(const char* data);

  std::array<CacheEntry, kCacheSize> cache_{};
  // std::deque never moves its elements, so views of the strings stay valid as it grows.
  std::deque<std::string> storage_;
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

}  // namespace gpuscope::store
