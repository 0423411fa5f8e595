// sticky_error <illegal-abort|illegal-exit1|assert-abort>: completed work, then a sticky CUDA
// error and the end a crashing program takes (expected_counts.h has the counts). A user
// traces such a program to see its last moments: every call and every kernel that completed
// before the error must be in the report, and the call that returned the error.
// The device-side assert must stay in a Release build, which defines NDEBUG.
#undef NDEBUG
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void stickyWork(int* counter) { atomicAdd(counter, 1); }
__global__ void stickyIllegalWrite(int* invalid) { *invalid = 42; }
// The flag is 0: the assert fails on the device.
__global__ void stickyFailedAssert(const int* flag) { assert(*flag != 0); }

namespace {

constexpr const char* kUsage = "sticky_error <illegal-abort|illegal-exit1|assert-abort>";

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "illegal-abort" && mode != "illegal-exit1" && mode != "assert-abort") {
    std::fprintf(stderr, "usage: %s\n", kUsage);
    return ex::kExitUsage;
  }
  static_assert(ex::kStickyMallocs == 3 && ex::kStickyCopies == 2, "the calls below");
  int* counter = nullptr;
  int* flag = nullptr;
  int* spare = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&flag, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&spare, sizeof(int)));
  const int zero = 0;
  CHECK_CUDA(cudaMemcpy(counter, &zero, sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(flag, &zero, sizeof(int), cudaMemcpyHostToDevice));
  // No cudaGetLastError after each launch: the test counts exactly these launches.
  for (int i = 0; i < ex::kStickyKernels; ++i) stickyWork<<<1, 1>>>(counter);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("sticky_error: %d kernels done, then %s\n", ex::kStickyKernels, mode.c_str());
  std::fflush(stdout);

  if (mode == "assert-abort") {
    stickyFailedAssert<<<1, 1>>>(flag);
  } else {
    // Far outside any allocation: the kernel faults, the error surfaces at the synchronize.
    stickyIllegalWrite<<<1, 1>>>(reinterpret_cast<int*>(0x10));
  }
  const cudaError_t error = cudaDeviceSynchronize();
  std::fprintf(stderr, "sticky_error: cudaDeviceSynchronize returned %s\n", cudaGetErrorName(error));
  if (mode == "illegal-exit1") std::exit(ex::kStickyExitCode);
  std::abort();
}
