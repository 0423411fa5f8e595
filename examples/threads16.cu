// threads16 [M]: 16 host threads, each with its own stream, wait at a barrier and then all
// launch M kernels at once (default kKernelsPerThread). Stresses CUPTI's per-thread buffers and gpuscope's writer:
// every launch must still be one row, with the right stream and thread.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void threadWork(int* slot, int increment) { atomicAdd(slot, increment); }

namespace {

// Releases all threads together once the last one has arrived (std::barrier is C++20,
// which CMake 3.25 cannot ask of nvcc).
class StartLine {
 public:
  explicit StartLine(int threads) : waiting_(threads) {}
  void ArriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--waiting_ == 0) {
      released_.notify_all();
      return;
    }
    released_.wait(lock, [this] { return waiting_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  int waiting_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: threads16 [kernels_per_thread]\n");
    return ex::kExitUsage;
  }
  const int per_thread = argc == 2 ? static_cast<int>(ex::ParsePositiveArg(
                                         argv[1], "threads16 [kernels_per_thread]"))
                                   : ex::kKernelsPerThread;
  CHECK_CUDA(cudaFree(nullptr));  // one context for all threads, made before they start
  int* slots = nullptr;
  CHECK_CUDA(cudaMalloc(&slots, ex::kThreads * sizeof(int)));
  CHECK_CUDA(cudaMemset(slots, 0, ex::kThreads * sizeof(int)));

  StartLine start_line(ex::kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < ex::kThreads; ++t) {
    threads.emplace_back([t, slots, per_thread, &start_line] {
      cudaStream_t stream;
      CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      start_line.ArriveAndWait();
      for (int k = 0; k < per_thread; ++k) {
        threadWork<<<1, 32, 0, stream>>>(slots + t, 1);
        CHECK_LAUNCH();
      }
      CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK_CUDA(cudaStreamDestroy(stream));
    });
  }
  for (auto& thread : threads) thread.join();

  std::vector<int> host(ex::kThreads);
  CHECK_CUDA(cudaMemcpy(host.data(), slots, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(slots));
  for (int t = 0; t < ex::kThreads; ++t) {
    if (host[t] != 32 * per_thread) {
      std::fprintf(stderr, "threads16: thread %d counted %d\n", t, host[t]);
      return 1;
    }
  }
  std::printf("threads16: %d threads x %d kernels ok\n", ex::kThreads, per_thread);
  return 0;
}
