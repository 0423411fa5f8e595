#include "inject/own_replay_calls.h"

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace gpuscope::inject {
namespace {

// Trivially destructible; the set is never destroyed (records come late)
std::mutex g_calls_mutex;
std::unordered_set<std::uint32_t>& Calls() {
  static auto* calls = new std::unordered_set<std::uint32_t>();
  return *calls;
}
// Cheap test on the writer thread for every record while no replay ever happened.
std::atomic<bool> g_any_call{false};
std::atomic<std::uint64_t> g_paused_ns{0};

}  // namespace

void NoteOwnReplayCall(std::uint32_t correlation_id) {
  if (correlation_id == 0) return;
  std::lock_guard<std::mutex> lock(g_calls_mutex);
  Calls().insert(correlation_id);
  g_any_call.store(true, std::memory_order_release);
}

bool IsOwnReplayCall(std::uint32_t correlation_id) {
  if (!g_any_call.load(std::memory_order_acquire) || correlation_id == 0) return false;
  std::lock_guard<std::mutex> lock(g_calls_mutex);
  return Calls().count(correlation_id) != 0;
}

void NoteTracingPaused(std::uint64_t ns) { g_paused_ns.fetch_add(ns, std::memory_order_relaxed); }

std::uint64_t TracingPausedNs() { return g_paused_ns.load(std::memory_order_relaxed); }

}  // namespace gpuscope::inject
