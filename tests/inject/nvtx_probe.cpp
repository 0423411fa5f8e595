// A program as PyTorch is to NVTX: it loads its own copy of CUPTI (argv[1]) before anything
// else, then calls NVTX through the header-only NVTX3 loader compiled in, which loads the tool
// NVTX_INJECTION64_PATH names. Links nothing of CUPTI's or gpuscope's (export_test.cpp).
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    std::fprintf(stderr, "nvtx_probe: %s\n", dlerror());
    return 3;
  }
  nvtxRangePushA("step");
  nvtxRangePop();
  std::fprintf(stderr, "nvtx_probe: done\n");
  return 0;
}
