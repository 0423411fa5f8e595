// Rows whose values cannot be true, and what every reader of a report does with them: it
// leaves them out and counts them by table and kind, so that each command says how many it
// left out (analysis::SkippedRowWarnings) instead of printing nonsense or letting them
// vanish. ReportReader::ForEach* (stats, summaries, traces, trace rules, export, diff, the
// viewer's tables and kernel pages) and TimelineRowReader (the viewer's timeline) both
// classify rows here. Views of the raw rows (the viewer's event details, the CSV export of
// the tables) show the stored values as such.
//
// Skipped rather than shown, case by case:
// - an end before its start: no duration can be computed from it; one shown would be
//   negative, or enormous as an unsigned number, and would swamp every total and average.
// - a time outside the run (before the process's start or after its end, where the report
//   records the end): the writer stores process.end in the same transaction as the rows,
//   at the time of that flush, after every row in it was recorded, and tracing starts after
//   process.start; a row outside that span carries a damaged time. Shown, one such row
//   stretches the timeline and the run's extent to decades and moves every percentage.
// - a kernel with a grid or block dimension of 0 or less: CUDA refuses such a launch
//   (cudaErrorInvalidConfiguration), so no kernel ever ran with it and the row is damaged;
//   everything derived from the configuration (threads, waves, occupancy, launch groups,
//   diff's matching by configuration) would divide by it or compare nonsense.
// Rows without timestamps are not damaged: the collection counters count those.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "model/records.h"
#include "store/event_tables.h"

namespace gpuscope::store {

enum class Damage : std::uint8_t {
  kEndsBeforeStart,
  kOutsideTheRun,
  kBadLaunchDimension,
};
inline constexpr std::size_t kDamageKinds = 3;

// The run as the report records it, absolute times; end 0: not recorded (the process never
// flushed), and then no row is outside it; neither when the start lies after the end (the
// process row is damaged itself).
struct RunExtent {
  model::Timestamp start = 0;
  model::Timestamp end = 0;
};

// `start` 0: the row has no times (not damage). `end` 0: it has no end (a mark, a range
// that never ended, a memory event with one timestamp).
std::optional<Damage> TimestampDamage(model::Timestamp start, model::Timestamp end,
                                      const RunExtent& run);

// A grid or block dimension of 0 or less.
std::optional<Damage> LaunchDamage(const model::KernelRecord& kernel);

// How many rows were left out, by event table (kEventTableIndex) and kind of damage.
class DamagedRows {
 public:
  void Add(std::size_t table, Damage damage) { ++counts_[table][Index(damage)]; }
  std::uint64_t count(std::size_t table, Damage damage) const {
    return counts_[table][Index(damage)];
  }
  // Replaces one table's counts (a reader's latest whole scan of it).
  void SetTable(std::size_t table, const DamagedRows& from) {
    counts_[table] = from.counts_[table];
  }
  DamagedRows& operator+=(const DamagedRows& other);
  bool any() const;

 private:
  static std::size_t Index(Damage damage) { return static_cast<std::size_t>(damage); }
  std::array<std::array<std::uint64_t, kDamageKinds>, kNumEventTables> counts_{};
};

}  // namespace gpuscope::store
