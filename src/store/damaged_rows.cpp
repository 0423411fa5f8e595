#include "store/damaged_rows.h"

namespace gpuscope::store {

std::optional<Damage> TimestampDamage(model::Timestamp start, model::Timestamp end,
                                      const RunExtent& run) {
  if (start == 0) return std::nullopt;
  if (end != 0 && end < start) return Damage::kEndsBeforeStart;
  // A run whose recorded start lies after its end is damaged itself: no row is judged by it.
  if (run.end == 0 || run.start > run.end) return std::nullopt;
  const model::Timestamp last = end != 0 ? end : start;
  if (start < run.start || last > run.end) return Damage::kOutsideTheRun;
  return std::nullopt;
}

std::optional<Damage> LaunchDamage(const model::KernelRecord& kernel) {
  for (std::int32_t dimension : {kernel.grid_x, kernel.grid_y, kernel.grid_z, kernel.block_x,
                                 kernel.block_y, kernel.block_z}) {
    if (dimension <= 0) return Damage::kBadLaunchDimension;
  }
  return std::nullopt;
}

DamagedRows& DamagedRows::operator+=(const DamagedRows& other) {
  for (std::size_t table = 0; table < kNumEventTables; ++table) {
    for (std::size_t kind = 0; kind < kDamageKinds; ++kind) {
      counts_[table][kind] += other.counts_[table][kind];
    }
  }
  return *this;
}

bool DamagedRows::any() const {
  for (const auto& table : counts_) {
    for (std::uint64_t count : table) {
      if (count != 0) return true;
    }
  }
  return false;
}

}  // namespace gpuscope::store
