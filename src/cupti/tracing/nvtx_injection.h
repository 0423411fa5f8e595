// NVTX's way into a tool: at its first call NVTX (libnvToolsExt, or the header-only NVTX3 that
// PyTorch, CuPy and CUDA's libraries compile in) loads the library NVTX_INJECTION64_PATH names
// and calls its InitializeInjectionNvtx2. CUPTI has that entry point; gpuscope's launcher still
// names libgpuscope_inject.so, whose entry point hands the call to the libcupti.so.13 this
// process uses, the one gpuscope subscribed to. Naming CUPTI's file directly loaded a second
// CUPTI into programs that bring their own (PyTorch's nvidia-cuda-cupti wheel: `import torch`
// loads it before any CUDA call), and every NVTX range went to that untraced copy.
#pragma once

namespace gpuscope::cupti {

// InitializeInjectionNvtx2 of the CUPTI this library is linked to, called with NVTX's export
// table getter; 0 (NVTX then calls no tool) when it cannot be found, said once. Never throws.
int ForwardNvtxInjection(const void* get_export_table);

}  // namespace gpuscope::cupti
