// The L2 flush of gpuscope's counter passes (`profile --cache-control all`, the default, as
// ncu's): before each pass, a kernel of gpuscope's own reads a buffer twice the size of the
// device's L2 (l2_flush.cu), so that the measured launch finds none of its data in L2 and no
// dirty line of the previous pass or of the memory restore is written back during it.
//
// Why a read and not an invalidation: CUDA offers a tool no call that invalidates L2. Measured
// on the H200 (2026-11-28, bench/RESULTS.md): with this flush the DRAM bytes of four kernels
// agree with ncu --cache-control all within 3.7%, except the writes of a stencil that fits L2
// (-16%); without it (CUPTI's kernel replay, whose memory restore leaves dirty lines in L2)
// writes read +46% to +142%. Discarding the flush buffer's lines afterwards (discard.global.L2,
// so that L2 is empty as after ncu's flush) changed nothing measurable.
//
// Per context: the module is loaded and the buffer allocated at the context's first flush, and
// kept until the context goes (the buffer is device memory of the program's context: 2x L2,
// 100 MB on an H100, 120 MB on an H200). Used under the kernel profiler's lock, on the thread
// that runs the passes, with the context current.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string_view>
#include <unordered_map>

#include "util/status.h"

namespace gpuscope::cupti {

// The PTX of l2_flush.cu, carried by the injection (l2_flush_ptx.cpp).
std::string_view L2FlushPtx();

class L2Flush {
 public:
  // Flushes the L2 of the current context's device and waits for it. An error (no memory for
  // the buffer, the module refused) is returned; the caller measures without the flush and
  // says so.
  Status Run(CUcontext context);
  // The bytes the flush reads on `context`'s device (0 before its first flush there).
  std::size_t buffer_bytes(CUcontext context) const;
  void ForgetContext(CUcontext context) { contexts_.erase(context); }

 private:
  struct ContextFlush {
    CUfunction function = nullptr;
    CUdeviceptr buffer = 0;
    std::size_t bytes = 0;
    CUdeviceptr sink = 0;
    int blocks = 0;
  };
  StatusOr<ContextFlush*> For(CUcontext context);

  // Never freed: the module and buffer go with the context (freeing them inside a program's
  // launch call, on a context being destroyed, would be a new risk for no gain).
  std::unordered_map<CUcontext, ContextFlush> contexts_;
};

}  // namespace gpuscope::cupti
