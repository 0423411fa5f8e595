#include "inject/native_frames.h"

#include <unwind.h>

namespace gpuscope::inject {
namespace {

struct Walk {
  std::uint64_t* out;
  std::size_t max;
  std::size_t skip;
  std::size_t count = 0;
};

// libgcc's unwinder, not glibc's backtrace(): the same walk without backtrace()'s first-call
// dlopen of libgcc_s, which must not happen inside a CUDA call of the program.
_Unwind_Reason_Code OnFrame(struct _Unwind_Context* context, void* argument) {
  auto* walk = static_cast<Walk*>(argument);
  const _Unwind_Ptr ip = _Unwind_GetIP(context);
  if (ip == 0) return _URC_END_OF_STACK;
  if (walk->skip > 0) {
    --walk->skip;
    return _URC_NO_REASON;
  }
  walk->out[walk->count++] = static_cast<std::uint64_t>(ip);
  return walk->count == walk->max ? _URC_END_OF_STACK : _URC_NO_REASON;
}

}  // namespace

std::size_t CaptureNativeFrames(std::uint64_t* out, std::size_t max, std::size_t skip) {
  if (out == nullptr || max == 0) return 0;
  Walk walk{out, max, skip + 1};  // + this function
  _Unwind_Backtrace(OnFrame, &walk);
  return walk.count;
}

}  // namespace gpuscope::inject
