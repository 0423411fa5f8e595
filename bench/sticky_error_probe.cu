// What CUPTI's activity API still delivers after a sticky CUDA error, and what keeping the GPU's
// timestamps in pinned host memory costs: the measurements behind the flush at the first
// sticky error (src/cupti/tracing/sticky_error_watch.h) and the pinned timestamp buffers
// (src/cupti/tracing/activity.cpp). A standalone CUPTI client, not gpuscope.
//
//   sticky_error_probe recover <illegal|assert> <device|pinned>
//     2 copies and 100 kernels that complete, a cudaDeviceSynchronize, then a kernel that
//     faults; CUPTI's buffers are flushed (forced) inside the exit callback of the
//     synchronize that returns the error. Prints how many kernels came back with timestamps:
//       recovered: kernels 101 timed 100 copies 2 api_errors 1
//   sticky_error_probe loop <kernels> <device|pinned>
//     a launch loop under kernel tracing; prints loop_ns (launches and the final sync).
// Run the two loop variants interleaved (bench/RESULTS.md has the command).
#undef NDEBUG  // the device-side assert must stay in a Release build
#include <cuda_runtime.h>
#include <cupti.h>

#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::atomic<int> g_kernels{0}, g_timed_kernels{0}, g_copies{0}, g_api_errors{0};
std::atomic<bool> g_flushed{false};

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      ++g_kernels;
      if (kernel->start != 0 && kernel->end > kernel->start) ++g_timed_kernels;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      ++g_copies;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
      if (reinterpret_cast<const CUpti_ActivityAPI*>(record)->returnValue != 0) ++g_api_errors;
    }
  }
  std::free(buffer);
}

// The exit of cudaDeviceSynchronize, only: other calls' return values have other types.
void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const void* data) {
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API ||
      cbid != CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020 ||
      call->callbackSite != CUPTI_API_EXIT || call->functionReturnValue == nullptr) {
    return;
  }
  if (*static_cast<const cudaError_t*>(call->functionReturnValue) == cudaSuccess) return;
  if (!g_flushed.exchange(true)) cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

__global__ void work(int* counter) { atomicAdd(counter, 1); }
__global__ void illegalWrite(int* invalid) { *invalid = 42; }
__global__ void failedAssert(const int* flag) { assert(*flag != 0); }

int Usage() {
  std::fprintf(stderr,
               "usage: sticky_error_probe recover <illegal|assert> <device|pinned>\n"
               "       sticky_error_probe loop <kernels> <device|pinned>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return Usage();
  const std::string mode = argv[1], what = argv[2], where = argv[3];
  if ((mode != "recover" && mode != "loop") || (where != "device" && where != "pinned")) {
    return Usage();
  }
  std::uint8_t pinned = where == "pinned" ? 1 : 0;
  std::size_t size = sizeof(pinned);
  if (cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, &size,
                                &pinned) != CUPTI_SUCCESS ||
      cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "sticky_error_probe: CUPTI refused the set-up\n");
    return 1;
  }
  int* counter = nullptr;
  int* flag = nullptr;
  cudaMalloc(&counter, sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  const int zero = 0;
  cudaMemcpy(counter, &zero, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(flag, &zero, sizeof(int), cudaMemcpyHostToDevice);

  if (mode == "loop") {
    const long kernels = std::atol(what.c_str());
    work<<<1, 1>>>(counter);
    cudaDeviceSynchronize();
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < kernels; ++i) work<<<1, 1>>>(counter);
    cudaDeviceSynchronize();
    const auto loop_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::printf("loop_ns %lld kernels %d timed %d\n", static_cast<long long>(loop_ns),
                g_kernels.load(), g_timed_kernels.load());
    return 0;
  }

  CUpti_SubscriberHandle subscriber = nullptr;
  cuptiSubscribe(&subscriber, OnCallback, nullptr);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                      CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020);
  for (int i = 0; i < 100; ++i) work<<<1, 1>>>(counter);
  cudaDeviceSynchronize();
  if (what == "assert") {
    failedAssert<<<1, 1>>>(flag);
  } else {
    illegalWrite<<<1, 1>>>(reinterpret_cast<int*>(0x10));
  }
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("error %s recovered: kernels %d timed %d copies %d api_errors %d\n",
              cudaGetErrorName(error), g_kernels.load(), g_timed_kernels.load(), g_copies.load(),
              g_api_errors.load());
  std::fflush(stdout);
  std::_Exit(0);  // the context is gone: no teardown
}
