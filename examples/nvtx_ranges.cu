// nvtx_ranges: every kind of NVTX annotation gpuscope records. In the default domain a
// push/pop range "outer" holding push/pop ranges "inner" (one kernel in each), a start/end
// range "cross_thread" started here and ended on another thread, and two marks; in the
// named domain "gpuscope-test" one push/pop range of its own. NVTX v3 is header-only: the
// calls reach CUPTI only when NVTX_INJECTION64_PATH names it (gpuscope's launcher sets it).
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void nvtxWork(int* counter) { atomicAdd(counter, 1); }

namespace {

// NVTX takes C strings; the names live in expected_counts.h as string_views.
std::string Name(std::string_view name) { return std::string(name); }

nvtxEventAttributes_t AsciiAttributes(const char* message) {
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

}  // namespace

int main() {
  // Create the context first so that gpuscope (loaded by cuInit) is already recording when
  // the first NVTX call arrives.
  CHECK_CUDA(cudaFree(nullptr));
  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));

  const std::string outer = Name(ex::kNvtxOuterRange), inner = Name(ex::kNvtxInnerRange);
  nvtxEventAttributes_t outer_attributes = AsciiAttributes(outer.c_str());
  outer_attributes.colorType = NVTX_COLOR_ARGB;
  outer_attributes.color = ex::kNvtxOuterColor;
  nvtxRangePushEx(&outer_attributes);
  for (int i = 0; i < ex::kNvtxInnerCount; ++i) {
    nvtxRangePushA(inner.c_str());
    nvtxWork<<<1, 1>>>(counter);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize());
    nvtxRangePop();
  }
  nvtxMarkA(Name(ex::kNvtxMarkA).c_str());
  nvtxRangePop();

  // A start/end range may end on another thread than the one that started it.
  nvtxRangeId_t cross = nvtxRangeStartA(Name(ex::kNvtxCrossThreadRange).c_str());
  std::thread ender([cross] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    nvtxRangeEnd(cross);
  });
  ender.join();
  nvtxMarkA(Name(ex::kNvtxMarkB).c_str());

  nvtxDomainHandle_t domain = nvtxDomainCreateA(Name(ex::kNvtxDomain).c_str());
  const std::string domain_range = Name(ex::kNvtxDomainRange);
  nvtxEventAttributes_t domain_attributes = AsciiAttributes(domain_range.c_str());
  nvtxDomainRangePushEx(domain, &domain_attributes);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  nvtxDomainRangePop(domain);
  // The domain is not destroyed: its name must outlive the records that refer to it.

  int result = 0;
  CHECK_CUDA(cudaMemcpy(&result, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(counter));
  if (result != ex::kNvtxInnerCount) {
    std::fprintf(stderr, "nvtx_ranges: counter is %d, expected %d\n", result, ex::kNvtxInnerCount);
    return 1;
  }
  std::printf("nvtx_ranges: ok\n");
  return 0;
}
