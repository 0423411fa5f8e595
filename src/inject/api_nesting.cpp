#include "inject/api_nesting.h"

namespace gpuscope::inject {

bool IsRuntimePrologueCall(std::string_view driver_function) {
  return driver_function == "cuKernelGetName" || driver_function == "cuLibraryGetKernel" ||
         driver_function == "cuLibraryLoadData";
}

bool IsRuntimeKernelLaunch(std::string_view runtime_function) {
  return runtime_function == "cudaLaunchKernel" || runtime_function == "cudaLaunchKernelExC" ||
         runtime_function == "cudaLaunchCooperativeKernel" ||
         runtime_function == "cudaLaunchCooperativeKernelMultiDevice";
}

ApiNesting::ThreadState& ApiNesting::StateOf(std::uint32_t thread_id) {
  if (last_state_ != nullptr && last_thread_id_ == thread_id) return *last_state_;
  // unordered_map never moves its values, so the cached pointer stays valid.
  ThreadState& state = threads_[thread_id];
  last_thread_id_ = thread_id;
  last_state_ = &state;
  return state;
}

void ApiNesting::WriteHeld(ThreadState& state, std::size_t count, model::Timestamp runtime_start,
                           model::Timestamp prologue_gap, bool have_runtime) {
  const std::size_t end = state.first + count;
  // The runtime's prologue: the chain of prologue calls that ends right before it.
  std::size_t prologue_begin = end;
  if (have_runtime) {
    model::Timestamp next_start = runtime_start;
    for (std::size_t i = end; i > state.first; --i) {
      const model::ApiCallRecord& driver = state.held[i - 1];
      if (driver.end > next_start || next_start - driver.end > prologue_gap ||
          !IsRuntimePrologueCall(driver.name)) {
        break;
      }
      prologue_begin = i - 1;
      next_start = driver.start;
    }
  }
  for (std::size_t i = state.first; i < end; ++i) {
    const model::ApiCallRecord& driver = state.held[i];
    const bool nested = have_runtime && (i >= prologue_begin || driver.start >= runtime_start);
    sink_.OnApiCall(driver, nested);
  }
  state.first = end;
  if (state.first == state.held.size()) {
    state.held.clear();  // keeps the capacity: no allocation in the steady state
    state.first = 0;
  } else if (state.first >= 1024 && state.first * 2 >= state.held.size()) {
    state.held.erase(state.held.begin(), state.held.begin() + state.first);
    state.first = 0;
  }
}

void ApiNesting::Trim(ThreadState& state, model::Timestamp reference, model::Timestamp max_age) {
  std::size_t expired = 0;
  const std::size_t held = state.held.size() - state.first;
  while (expired < held) {
    const model::ApiCallRecord& oldest = state.held[state.first + expired];
    const bool too_many = held - expired > limits_.max_pending_per_thread;
    const bool too_old = reference > oldest.start && reference - oldest.start > max_age;
    if (!too_many && !too_old) break;
    ++expired;
  }
  if (expired > 0) WriteHeld(state, expired, 0, 0, /*have_runtime=*/false);
}

void ApiNesting::OnApiCall(const model::ApiCallRecord& record) {
  ThreadState& state = StateOf(record.thread_id);
  if (record.domain == model::ApiDomain::kRuntime) {
    const model::Timestamp gap = IsRuntimeKernelLaunch(record.name) ? limits_.launch_prologue_gap_ns
                                                                    : limits_.prologue_gap_ns;
    WriteHeld(state, state.held.size() - state.first, record.start, gap, /*have_runtime=*/true);
    sink_.OnApiCall(record, /*nested_in_runtime=*/false);
    return;
  }
  state.held.push_back(record);
  // Only the count cap here (no reference time, so nothing is too old): age is judged at
  // the quiet-thread horizon, in ExpireOlderThan.
  Trim(state, /*reference=*/0, limits_.quiet_thread_age_ns);
}

void ApiNesting::ExpireOlderThan(model::Timestamp newest_seen) {
  for (auto& [thread_id, state] : threads_) {
    Trim(state, newest_seen, limits_.quiet_thread_age_ns);
  }
}

void ApiNesting::Finish() {
  for (auto& [thread_id, state] : threads_) {
    WriteHeld(state, state.held.size() - state.first, 0, 0, /*have_runtime=*/false);
  }
}

std::size_t ApiNesting::pending() const {
  std::size_t total = 0;
  for (const auto& [thread_id, state] : threads_) total += state.held.size() - state.first;
  return total;
}

}  // namespace gpuscope::inject
