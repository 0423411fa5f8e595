// Rows grouped by name, across reports. A report numbers its strings itself (name ids are
// only stable within one report), so each report gets a small id -> group cache: per row
// the cost is one vector lookup, and a string is hashed only the first time a report
// shows an id. This is what keeps `stats` on 10 million kernels within its time budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuscope::analysis {

class NameGroups {
 public:
  // The group called `name`, created on first use. Groups are numbered 0, 1, ... in the
  // order of creation.
  std::size_t GroupFor(std::string_view name);

  // The group of name id `id` of the current report, whose text is `name`.
  std::size_t GroupForId(std::uint32_t id, std::string_view name);

  // Name ids of the next report mean something else: forget the cache.
  void BeginReport();

  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t group) const { return names_[group]; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>()(text);
    }
  };

  // Ids are indexes into a report's string table, so they are dense; a vector covers
  // them up to this bound, a map takes any larger (corrupt or exotic) id.
  static constexpr std::uint32_t kDenseIdLimit = 1u << 22;
  static constexpr std::uint32_t kUnknown = UINT32_MAX;

  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> by_name_;
  std::vector<std::string> names_;
  std::vector<std::uint32_t> dense_ids_;
  std::unordered_map<std::uint32_t, std::size_t> sparse_ids_;
};

}  // namespace gpuscope::analysis
