#include "analysis/name_groups.h"

namespace gpuscope::analysis {

std::size_t NameGroups::GroupFor(std::string_view name) {
  auto found = by_name_.find(name);
  if (found != by_name_.end()) return found->second;
  std::size_t group = names_.size();
  names_.emplace_back(name);
  by_name_.emplace(names_.back(), group);
  return group;
}

std::size_t NameGroups::GroupForId(std::uint32_t id, std::string_view name) {
  if (id < kDenseIdLimit) {
    if (id < dense_ids_.size() && dense_ids_[id] != kUnknown) return dense_ids_[id];
    if (id >= dense_ids_.size()) dense_ids_.resize(id + 1, kUnknown);
    std::size_t group = GroupFor(name);
    dense_ids_[id] = static_cast<std::uint32_t>(group);
    return group;
  }
  auto found = sparse_ids_.find(id);
  if (found != sparse_ids_.end()) return found->second;
  std::size_t group = GroupFor(name);
  sparse_ids_.emplace(id, group);
  return group;
}

void NameGroups::BeginReport() {
  dense_ids_.clear();
  sparse_ids_.clear();
}

}  // namespace gpuscope::analysis
