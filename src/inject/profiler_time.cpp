#include "inject/profiler_time.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace gpuscope::inject {
namespace {

// Trivially destructible; the map is never destroyed (records come late)
std::mutex g_intervals_mutex;
std::unordered_map<std::uint32_t, ProfilerInterval>& Intervals() {
  static auto* intervals = new std::unordered_map<std::uint32_t, ProfilerInterval>();
  return *intervals;
}
// Cheap test on the writer thread for every API record while nothing was profiled.
std::atomic<bool> g_any_interval{false};

}  // namespace

void NoteProfilerTime(std::uint32_t outer_correlation_id, std::uint32_t call_correlation_id,
                      model::Timestamp start, model::Timestamp end) {
  if (outer_correlation_id == 0 || end <= start) return;
  std::lock_guard<std::mutex> lock(g_intervals_mutex);
  Intervals()[outer_correlation_id] = {start, end, /*outermost=*/true};
  if (call_correlation_id != 0 && call_correlation_id != outer_correlation_id) {
    Intervals()[call_correlation_id] = {start, end, /*outermost=*/false};
  }
  g_any_interval.store(true, std::memory_order_release);
}

std::optional<ProfilerInterval> TakeProfilerTime(std::uint32_t correlation_id) {
  if (!g_any_interval.load(std::memory_order_acquire) || correlation_id == 0) return std::nullopt;
  std::lock_guard<std::mutex> lock(g_intervals_mutex);
  auto found = Intervals().find(correlation_id);
  if (found == Intervals().end()) return std::nullopt;
  ProfilerInterval interval = found->second;
  Intervals().erase(found);
  return interval;
}

model::ApiCallRecord WithoutProfilerTime(const model::ApiCallRecord& record,
                                         const ProfilerInterval& interval) {
  model::ApiCallRecord trimmed = record;
  // CUPTI timed the call around its callbacks, so the replay lies inside it; a record that
  // does not contain the interval (no timestamps, another clock) is left as CUPTI wrote it.
  if (record.start <= interval.start && interval.end <= record.end) {
    trimmed.end = record.end - (interval.end - interval.start);
  }
  return trimmed;
}

}  // namespace gpuscope::inject
