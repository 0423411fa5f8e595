// timed_kernels: spin kernels of 100-500 us, each bracketed by two CUDA events, printing
// "event_us <i> <microseconds>" per kernel on stdout, which gpuscope's kernel durations must
// agree with (tests/gpu/native_examples_test.cpp says how closely: an event pair also
// brackets ~3 us of the GPU front end's own work). All events and kernels are queued behind
// one untimed spin kernel (the blocker, the first spinKernel launched), so the GPU runs them
// back to back and the event pairs measure the kernels rather than the host's launch
// latency. The blocker is the same kernel so that whatever the GPU does on a kernel's first
// launch happens untimed.
#include <cstdio>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__device__ __forceinline__ unsigned long long GlobalTimerNs() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// Spins on the GPU's global nanosecond timer, so the duration does not depend on clocks.
__global__ void spinKernel(unsigned long long duration_ns) {
  const unsigned long long start = GlobalTimerNs();
  while (GlobalTimerNs() - start < duration_ns) {
  }
}

int main() {
  constexpr int kCount = ex::kTimedKernelCount;
  cudaEvent_t starts[kCount], stops[kCount];
  for (int i = 0; i < kCount; ++i) {
    CHECK_CUDA(cudaEventCreate(&starts[i]));
    CHECK_CUDA(cudaEventCreate(&stops[i]));
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  cudaEvent_t blocker_done;
  CHECK_CUDA(cudaEventCreate(&blocker_done));
  spinKernel<<<1, 1, 0, stream>>>(ex::kTimedBlockerUs * 1000ull);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaEventRecord(blocker_done, stream));
  for (int i = 0; i < kCount; ++i) {
    CHECK_CUDA(cudaEventRecord(starts[i], stream));
    spinKernel<<<1, 1, 0, stream>>>(ex::kTimedKernelTargetUs[i] * 1000ull);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaEventRecord(stops[i], stream));
  }
  // If queueing outlasted the blocker, the first events measured host latency too.
  const bool blocker_still_running = cudaEventQuery(blocker_done) == cudaErrorNotReady;
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaEventDestroy(blocker_done));
  if (!blocker_still_running) {
    std::fprintf(stderr,
                 "timed_kernels: warning: the GPU caught up with the host while "
                 "kernels were being queued; event times may include launch latency\n");
  }

  for (int i = 0; i < kCount; ++i) {
    float ms = 0.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, starts[i], stops[i]));
    std::printf("event_us %d %.3f\n", i, ms * 1000.0f);
    CHECK_CUDA(cudaEventDestroy(starts[i]));
    CHECK_CUDA(cudaEventDestroy(stops[i]));
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
  return 0;
}
