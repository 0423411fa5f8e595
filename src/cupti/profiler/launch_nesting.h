// One kernel launch seen through the launch calls nested on one thread: the runtime's
// cudaLaunchKernel calls the driver's cuLaunchKernel, and both have launch callbacks.
//
// A launch is decided on (selected or not) once, by the outermost call that can decide. The
// outer call cannot when it has no context yet (the runtime creates it inside its first
// launch) or hides a stream the filter needs (__cudaLaunchKernel does not publish it): the
// nested driver call decides then. The measurement ends at the exit of the call that started
// it, and the profile record carries the outermost call's correlation id, as the kernel's
// trace record does.
//
// Per thread, CUPTI-free; tested without a GPU in tests/cupti/profiler.
#pragma once

#include <cstdint>

namespace gpuscope::cupti {

class LaunchNesting {
 public:
  // The enter callback of a launch call. True when this call must decide the launch: no call
  // around it did.
  bool Enter(std::uint32_t correlation_id);
  // What the call that entered last decided: `decided` false leaves it to a nested call;
  // `measuring`: a measurement started in it, and ends at its exit.
  void Decide(bool decided, bool measuring);

  // Inside a launch call (an exit without its enter is ignored).
  bool inside() const { return depth_ > 0; }
  // Whether the exit callback now coming is that of the call whose measurement runs.
  bool ExitEndsMeasurement() const { return depth_ == measure_depth_; }
  // The exit callback of a launch call, after the measurement (if it ended here) did.
  void Exit();

  // The correlation id of the launch's profile record: the outermost call's.
  std::uint32_t RecordCorrelationId(std::uint32_t this_call) const {
    return outer_correlation_id_ != 0 ? outer_correlation_id_ : this_call;
  }

 private:
  int depth_ = 0;  // launch calls nested on this thread (a runtime call's driver call)
  bool decided_ = false;
  std::uint32_t outer_correlation_id_ = 0;  // the runtime call's: the kernel record carries it
  int measure_depth_ = 0;                   // the depth whose exit ends the measurement
};

}  // namespace gpuscope::cupti
