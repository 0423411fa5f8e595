// A kernel launch as the kernel profiler's callbacks see it: one of the launch calls below,
// with its CUpti_CallbackData. What is known of the launch before it runs, and how it is read:
//   kernel     data.symbolName (mangled); empty in a call that does not name it
//   context    data.context and data.contextUid; null in the runtime's first launch, which
//              creates the context inside the call (its driver call has it)
//   device     cuptiGetDeviceId on the context
//   stream     the call's own parameters (functionParams), then cuptiGetStreamIdEx;
//              __cudaLaunchKernel (<<<>>> in CUDA 13) does not publish them
//   correlation id of this call (the runtime call's is the kernel record's)
//   result     functionReturnValue, at the exit callback
// Device and stream are CUPTI calls inside the program's launch: read only when needed.
// Grid and block are not read: neither the selection nor the profile record uses them.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <optional>

#include "util/status.h"

namespace gpuscope::cupti {

// Whether (domain, cbid) is one of the calls that launch one kernel.
bool IsKernelLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// Turns on the callbacks of every kernel launch call for `subscriber`.
Status WatchKernelLaunches(CUpti_SubscriberHandle subscriber);

// The stream a launch call names, as the call received it.
struct StreamArgument {
  void* stream = nullptr;
  bool per_thread = false;  // a _ptsz call: the default stream is the per-thread one
};

class LaunchCall {
 public:
  LaunchCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data)
      : domain_(domain), cbid_(cbid), data_(data) {}

  CUpti_CallbackDomain domain() const { return domain_; }
  CUpti_CallbackId cbid() const { return cbid_; }
  const CUpti_CallbackData& data() const { return data_; }
  bool is_runtime_call() const { return domain_ == CUPTI_CB_DOMAIN_RUNTIME_API; }
  bool is_enter() const { return data_.callbackSite == CUPTI_API_ENTER; }

  // Whether this call tells the kernel and its context (see the list above).
  bool NamesKernelAndContext() const;
  // The device of the call's context (0 where CUPTI cannot tell).
  std::uint32_t DeviceId() const;
  // The stream argument; nullopt where the parameters are not published (__cudaLaunchKernel)
  // or not readable.
  std::optional<StreamArgument> Stream() const;
  // CUPTI's id of that stream in the call's context, nullopt where CUPTI cannot tell.
  std::optional<std::uint32_t> StreamId(const StreamArgument& stream) const;
  // At the exit callback: whether the launch call returned an error, and which (`code`).
  bool Failed(int& code) const;

 private:
  CUpti_CallbackDomain domain_;
  CUpti_CallbackId cbid_;
  const CUpti_CallbackData& data_;
};

}  // namespace gpuscope::cupti
