// foreign_cupti_owner: a program that is itself a CUPTI client. It subscribes to CUPTI's
// callback API (with a callback that does nothing) before its first CUDA call, as an
// in-process profiler such as torch.profiler would, and then launches kernels. Only one
// subscriber may exist per process, so gpuscope, loaded later by cuInit, must say once that
// CUPTI is already in use and stand down, and the program must still work.
#include <cupti.h>

#include <cstdio>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void foreignKernel(int* counter) { atomicAdd(counter, 1); }

namespace {

void CUPTIAPI IgnoreCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

}  // namespace

int main() {
  CUpti_SubscriberHandle subscriber = nullptr;
  CUptiResult subscribed = cuptiSubscribe(&subscriber, IgnoreCallback, nullptr);
  const char* subscribe_text = nullptr;
  cuptiGetResultString(subscribed, &subscribe_text);
  std::printf("foreign_cupti_owner: cuptiSubscribe: %s\n", subscribe_text ? subscribe_text : "?");
  if (subscribed != CUPTI_SUCCESS) return 1;  // the test needs the program to own CUPTI

  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  for (int i = 0; i < ex::kForeignKernels; ++i) {
    foreignKernel<<<1, 1>>>(counter);
    CHECK_LAUNCH();
  }
  int counted = 0;
  CHECK_CUDA(cudaMemcpy(&counted, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(counter));
  cuptiUnsubscribe(subscriber);
  if (counted != ex::kForeignKernels) {
    std::fprintf(stderr, "foreign_cupti_owner: counted %d kernels\n", counted);
    return 1;
  }
  std::printf("%.*s\n", static_cast<int>(ex::kForeignOkLine.size()), ex::kForeignOkLine.data());
  return 0;
}
