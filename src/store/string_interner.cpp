#include "store/string_interner.h"

#include <cstring>

namespace gpuscope::store {

std::size_t StringInterner::CacheSlot(const char* data) {
  auto bits = reinterpret_cast<std::uintptr_t>(data);
  // Names are at least 8-byte aligned more often than not: mix the higher bits in.
  return static_cast<std::size_t>((bits >> 3) ^ (bits >> 11)) & (kCacheSize - 1);
}

StringInterner::Result StringInterner::Intern(std::string_view text) {
  CacheEntry& entry = cache_[CacheSlot(text.data())];
  if (entry.data == text.data() && entry.size == text.size() && entry.id != 0) {
    std::string_view known = storage_[entry.id - 1];
    if (text.empty() || std::memcmp(known.data(), text.data(), text.size()) == 0) {
      return {entry.id, false};
    }
  }
  Result result;
  auto found = ids_.find(text);
  if (found != ids_.end()) {
    result.id = found->second;
  } else {
    storage_.emplace_back(text);
    result.id = static_cast<std::uint32_t>(storage_.size());
    result.inserted = true;
    ids_.emplace(std::string_view(storage_.back()), result.id);
  }
  entry = CacheEntry{text.data(), text.size(), result.id};
  return result;
}

}  // namespace gpuscope::store
