// A range of the timeline that the `stats` tables can be restricted to (the viewer's range
// selection). An event counts when it overlaps the range, with its whole duration, as
// Perfetto's area selection counts it: a 10 ms kernel that the range cuts is one 10 ms kernel
// in the range's table, not a fraction of one. Events without timestamps never overlap.
#pragma once

#include <limits>

#include "model/records.h"

namespace gpuscope::analysis {

struct TimeWindow {
  model::Timestamp start = 0;  // absolute, report clock
  model::Timestamp end = std::numeric_limits<model::Timestamp>::max();

  bool IsAll() const { return start == 0 && end == std::numeric_limits<model::Timestamp>::max(); }
  // Whether [event_start, event_end] overlaps the window; an instant (a mark, a range that
  // never ended) counts when it lies inside.
  bool Overlaps(model::Timestamp event_start, model::Timestamp event_end) const {
    if (IsAll()) return true;
    if (event_start == 0) return false;
    if (event_end < event_start) event_end = event_start;
    return event_start <= end && event_end >= start;
  }
};

}  // namespace gpuscope::analysis
