// crash_after <abort|kill9|segv|illegal|exit0>: launches 1,000 kernels, synchronizes, sleeps
// longer than gpuscope's flush period (so everything has reached the report), then ends the
// way its argument says. gpuscope must keep the report readable with all 1,000 kernels and
// say how the program ended.
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void crashKernel(int* counter) { atomicAdd(counter, 1); }
__global__ void illegalWriteKernel(int* invalid) { *invalid = 42; }

namespace {

constexpr const char* kUsage = "crash_after <abort|kill9|segv|illegal|exit0>";

[[noreturn]] void Segfault() {
  // Read through a volatile so that the compiler cannot see the null pointer and replace
  // the store with a trap instruction (which would raise SIGILL, not SIGSEGV).
  volatile std::uintptr_t address = 0;
  *reinterpret_cast<volatile int*>(address) = 1;
  std::abort();  // not reached
}

[[noreturn]] void IllegalAddress() {
  // Far outside any allocation: the kernel faults, and the error surfaces at the sync.
  illegalWriteKernel<<<1, 1>>>(reinterpret_cast<int*>(0x10));
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::fprintf(stderr, "crash_after: illegal write: launch %s, synchronize %s\n",
               cudaGetErrorName(launch), cudaGetErrorName(sync));
  std::exit(ex::kCrashIllegalExitCode);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "abort" && mode != "kill9" && mode != "segv" && mode != "illegal" &&
      mode != "exit0") {
    std::fprintf(stderr, "usage: %s\n", kUsage);
    return ex::kExitUsage;
  }
  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  for (int i = 0; i < ex::kCrashKernels; ++i) {
    crashKernel<<<1, 1>>>(counter);
    CHECK_LAUNCH();
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  int counted = 0;
  CHECK_CUDA(cudaMemcpy(&counted, counter, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("crash_after: %d kernels done, ending with %s\n", counted, mode.c_str());
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::milliseconds(ex::kCrashSleepMs));

  if (mode == "abort") std::abort();
  if (mode == "kill9") raise(SIGKILL);
  if (mode == "segv") Segfault();
  if (mode == "illegal") IllegalAddress();
  return counted == ex::kCrashKernels ? 0 : 1;
}
