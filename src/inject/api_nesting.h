// Decides, for each CUDA driver API call, whether the program made it itself or the CUDA
// runtime made it on the program's behalf (`nested_in_runtime`). nvprof's "API calls"
// summary counts runtime calls plus only the driver calls the program made itself:
// cudaMalloc's own cuMemAlloc must not be counted twice.
//
// The rule. CUPTI writes a call's record when the call returns, into the calling thread's
// buffer, so the records of one thread arrive in completion order: a driver call nested
// in a runtime call R completes, and arrives, before R. So per thread we hold the driver
// records that arrived since the thread's last runtime record; when a runtime record R
// arrives, held records with start >= R.start ran inside R (nested), earlier ones ran
// before R began (the program's own). The runtime record itself is always top-level.
//
// The runtime's prologue. On CUDA 13 the runtime makes some public driver calls of its own
// just *before* the runtime call's record starts (observed on our H200: cuKernelGetName
// before every cudaLaunchKernel, ending 0.2-0.7 us before it; cuLibraryLoadData and
// cuLibraryGetKernel before the first launch of a kernel, 1-8 us apart). Timestamps alone
// would make them the program's own calls, one per launch in the API summary. So a held
// record of one of those functions counts as nested when it ends at most prologue_gap_ns
// before the runtime call starts (or before the next prologue record of the chain), or at most
// launch_prologue_gap_ns before a kernel launch.
//
// Held records are bounded. Beyond `max_pending_per_thread`, the oldest are written as
// top-level (memory stays flat). By age only at the quiet-thread horizon: ExpireOlderThan
// (called at every commit) writes as top-level the records that started more than
// `quiet_thread_age_ns` (10 s) before the newest record seen, so that pure-driver programs
// (Numba) and threads that go quiet still reach the report. There is no shorter age limit
// per thread: a runtime call can last over a second (the first cudaMalloc creating the
// context on a big host, a large module load), and its early internal driver calls must
// still nest in it when its record finally arrives. Finish() writes what is left as
// top-level.
//
// Unlike a "write through until the thread's first runtime call" shortcut, a thread that
// has not made a runtime call yet is held too: its first runtime call (usually the one
// that initialises the runtime) nests dozens of driver calls (context creation, module
// loading) that the program never made, and they complete before that first runtime
// record arrives.
//
// Limits: a driver call made from a runtime callback or another library *during* a runtime
// call on the same thread counts as nested (the timestamps cannot tell); a record whose
// runtime parent arrives more than quiet_thread_age_ns later, or after more than
// max_pending_per_thread driver calls, is written as top-level; records held at a kill -9
// are lost with the process (at most max_pending_per_thread driver calls per thread, or
// quiet_thread_age_ns of them for a thread that makes no runtime calls).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/record_sink.h"
#include "model/records.h"

namespace gpuscope::inject {

struct ApiNestingLimits {
  std::size_t max_pending_per_thread = 4096;
  // ExpireOlderThan's horizon, the only age limit. Long because neither this thread's newer
  // records nor the newest record of the whole process (a GPU record, another thread's
  // call) say that this thread's long runtime call (cudaMalloc initialising the runtime)
  // has ended.
  model::Timestamp quiet_thread_age_ns = 10'000'000'000;  // 10 s
  model::Timestamp prologue_gap_ns = 10'000;              // 10 us
  // Before a kernel launch: the first launch of a kernel loads its module between the links
  // of the chain (cuLibraryGetKernel to cuKernelGetName 11 us apart on the H100).
  model::Timestamp launch_prologue_gap_ns = 5'000'000;  // 5 ms
};

// Driver functions the CUDA runtime calls in the prologue of its own calls.
bool IsRuntimePrologueCall(std::string_view driver_function);
// The runtime's kernel launches (names without version suffixes: cudaLaunchKernel, ...ExC,
// cudaLaunchCooperativeKernel, ...MultiDevice).
bool IsRuntimeKernelLaunch(std::string_view runtime_function);

class ApiNesting {
 public:
  explicit ApiNesting(model::RecordSink& sink, ApiNestingLimits limits = {})
      : sink_(sink), limits_(limits) {}

  // `record.name` must stay valid until Finish() (the translator's name table lives as
  // long as the collector).
  void OnApiCall(const model::ApiCallRecord& record);
  // Writes as top-level the held records older than quiet_thread_age_ns before
  // `newest_seen` (the newest timestamp of any record): a thread that goes quiet must not
  // keep its last driver calls out of the report until exit.
  void ExpireOlderThan(model::Timestamp newest_seen);
  // Writes every held driver record as top-level.
  void Finish();

  std::size_t pending() const;

 private:
  struct ThreadState {
    std::vector<model::ApiCallRecord> held;  // driver records; [first, end) still held
    std::size_t first = 0;
  };
  ThreadState& StateOf(std::uint32_t thread_id);
  void WriteHeld(ThreadState& state, std::size_t count, model::Timestamp runtime_start,
                 model::Timestamp prologue_gap,
                 bool have_runtime);
  void Trim(ThreadState& state, model::Timestamp reference, model::Timestamp max_age);

  model::RecordSink& sink_;
  const ApiNestingLimits limits_;
  std::unordered_map<std::uint32_t, ThreadState> threads_;
  // Consecutive records usually come from one thread: skip the hash lookup then.
  std::uint32_t last_thread_id_ = 0;
  ThreadState* last_state_ = nullptr;
};

}  // namespace gpuscope::inject
