// Where a CUDA call came from, for people: the frame of a `--backtrace` stack that names the
// program's own code (its call site), and how frames and stacks are written.
//
// The call site is the innermost frame of the user's code: a Python frame not in site-packages
// or dist-packages (PyTorch, NumPy, ...), not in Python's standard library, not frozen; or a
// native frame outside the CUDA driver, runtime and libraries, the launch helpers of CUDA's
// headers and nvcc's generated stubs, CUPTI, gpuscope and the C library, and outside the
// frameworks' native code (Python packages' extension modules, libtorch, libc10, the
// interpreter). Failing that the innermost Python frame, then the innermost framework frame
// (autograd's backward thread runs no Python).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "store/stack_tables.h"

namespace gpuscope::analysis {

// The index of the call site in `stack` (innermost first); 0 for an empty stack.
std::size_t CallSiteFrame(const std::vector<store::StoredFrame>& stack);

// "train.py:42 step" (Python), "launch_add (vector_add.cu:31)" or "launch_add (app)" (native,
// the module's base name without lines), "0x7f12... (libfoo.so)", "0x7f12..." unsymbolized.
std::string FrameLabel(const store::StoredFrame& frame);

// The call site's label; "[no call stack]" for an empty stack.
std::string CallSiteLabel(const std::vector<store::StoredFrame>& stack);

// The frames from the call site outwards, at most `max_frames`, joined by " < " (callee <
// caller), with "< ..." when frames were left out.
std::string StackText(const std::vector<store::StoredFrame>& stack, std::size_t max_frames);

}  // namespace gpuscope::analysis
