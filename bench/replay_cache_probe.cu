// Issue 12's design measurement (a bare CUPTI client, not gpuscope): the DRAM and L2 values
// of four kernels (a 64 MB copy, a saxpy, a 4 MB in-place scale that fits L2, a stencil whose
// 64 MB of traffic overflows L2) measured by the Range Profiler
//   kernel          auto range + CUPTI's kernel replay (what gpuscope used before)
//   user-noflush    user range + user replay, memory saved/restored with CUPTI's checkpoint
//   user-flush      the same, L2 flushed before each pass by reading a 2x-L2 buffer
//   user-discard    ... and the flush buffer's L2 lines discarded (discard.global.L2)
//   auto-flush      auto range + user replay + the read flush (what gpuscope does now)
//   auto-discard    auto range + user replay + read and discard
//   plain           the kernels once each, for ncu to measure (scripts/bench-replay-cache.sh)
// Each mode prints the passes, the time of save, restore, flush and passes, and every value.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_checkpoint.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
using NV::Cupti::Checkpoint::CUpti_Checkpoint;
#define CK(x) do { CUptiResult r_ = (x); if (r_ != CUPTI_SUCCESS) { const char* s; cuptiGetResultString(r_, &s); fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, s); exit(1);} } while (0)
#define CU(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void copy_kernel(const float* x, float* y, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) y[i] = x[i]; }
__global__ void saxpy_kernel(float a, const float* x, float* y, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
__global__ void scale_kernel(float* x, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) x[i] *= 1.0001f; }
__global__ void stencil_kernel(const float* x, float* y, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i > 0 && i + 1 < n) y[i] = x[i-1] + x[i] + x[i+1]; }
// Reads a buffer larger than L2 so that every line the kernel under test may find in L2 is
// evicted (dirty ones written back now, not during the measured pass); writes nothing.
__global__ void flush_kernel(const float4* p, size_t n, float* sink) {
  float acc = 0; for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { float4 v = p[i]; acc += v.x + v.y + v.z + v.w; }
  if (acc == 1234.5f) *sink = acc; }

// Invalidates the L2 lines of a buffer without writing them back (sm_80+): after the read
// flush they hold the scratch buffer, clean; discarding them leaves L2 empty, as ncu's flush.
__global__ void discard_kernel(char* p, size_t bytes) {
  for (size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 128; i < bytes; i += (size_t)gridDim.x * blockDim.x * 128)
    asm volatile("discard.global.L2 [%0], 128;" :: "l"(p + i) : "memory");
}
static const char* kMetrics[] = {
  "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum",
  "lts__t_sector_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct", "gpu__time_duration.sum",
  "sm__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
  "sm__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
  "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__throughput.avg.pct_of_peak_sustained_elapsed",
  "smsp__sass_inst_executed_op_global_ld.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
  "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"};
constexpr size_t kNumMetrics = sizeof(kMetrics) / sizeof(kMetrics[0]);

struct Buffers { float *x, *y, *small, *sink; float4* scratch; size_t n, small_n, scratch_n; };
static double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

static void Launch(int k, const Buffers& b) {
  const int t = 256;
  switch (k) {
    case 0: copy_kernel<<<(b.n + t - 1) / t, t>>>(b.x, b.y, b.n); break;
    case 1: saxpy_kernel<<<(b.n + t - 1) / t, t>>>(2.f, b.x, b.y, b.n); break;
    case 2: scale_kernel<<<(b.small_n + t - 1) / t, t>>>(b.small, b.small_n); break;
    case 3: stencil_kernel<<<(b.n / 2 + t - 1) / t, t>>>(b.x, b.y, b.n / 2); break;
  }
}
static const char* kNames[] = {"copy_kernel", "saxpy_kernel", "scale_kernel", "stencil_kernel"};

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "plain";
  CU(cudaFree(0));
  int l2 = 0; CU(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  Buffers b{}; b.n = 16u << 20; b.small_n = 1u << 20; b.scratch_n = (size_t)2 * l2 / sizeof(float4);
  CU(cudaMalloc(&b.x, b.n * 4)); CU(cudaMalloc(&b.y, b.n * 4)); CU(cudaMalloc(&b.small, b.small_n * 4));
  CU(cudaMalloc(&b.scratch, b.scratch_n * 16)); CU(cudaMalloc(&b.sink, 4));
  CU(cudaMemset(b.x, 0, b.n * 4)); CU(cudaMemset(b.y, 0, b.n * 4)); CU(cudaMemset(b.small, 0, b.small_n * 4)); CU(cudaMemset(b.scratch, 0, b.scratch_n * 16));
  CU(cudaDeviceSynchronize());
  printf("mode %s, L2 %d bytes, flush buffer %zu bytes\n", mode.c_str(), l2, b.scratch_n * 16);
  if (mode == "plain") { for (int k = 0; k < 4; ++k) Launch(k, b); CU(cudaDeviceSynchronize()); puts("done"); return 0; }

  CUcontext ctx; cuCtxGetCurrent(&ctx);
  CUpti_Profiler_Initialize_Params pi{CUpti_Profiler_Initialize_Params_STRUCT_SIZE}; CK(cuptiProfilerInitialize(&pi));
  CUpti_Device_GetChipName_Params cn{CUpti_Device_GetChipName_Params_STRUCT_SIZE}; cn.deviceIndex = 0; CK(cuptiDeviceGetChipName(&cn));
  CUpti_Profiler_GetCounterAvailability_Params ca{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE}; ca.ctx = ctx; CK(cuptiProfilerGetCounterAvailability(&ca));
  std::vector<uint8_t> avail(ca.counterAvailabilityImageSize); ca.pCounterAvailabilityImage = avail.data(); CK(cuptiProfilerGetCounterAvailability(&ca));
  CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE}; hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER; hi.pChipName = cn.pChipName; hi.pCounterAvailabilityImage = avail.data(); CK(cuptiProfilerHostInitialize(&hi));
  CUpti_Profiler_Host_ConfigAddMetrics_Params am{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE}; am.pHostObject = hi.pHostObject; am.ppMetricNames = kMetrics; am.numMetrics = kNumMetrics; CK(cuptiProfilerHostConfigAddMetrics(&am));
  CUpti_Profiler_Host_GetConfigImageSize_Params cs{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE}; cs.pHostObject = hi.pHostObject; CK(cuptiProfilerHostGetConfigImageSize(&cs));
  std::vector<uint8_t> config(cs.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params gc{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE}; gc.pHostObject = hi.pHostObject; gc.configImageSize = config.size(); gc.pConfigImage = config.data(); CK(cuptiProfilerHostGetConfigImage(&gc));
  CUpti_Profiler_Host_GetNumOfPasses_Params np{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE}; np.configImageSize = config.size(); np.pConfigImage = config.data(); CK(cuptiProfilerHostGetNumOfPasses(&np));
  printf("chip %s, %zu metrics, %zu passes\n", cn.pChipName, kNumMetrics, np.numOfPasses);

  CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE}; en.ctx = ctx; CK(cuptiRangeProfilerEnable(&en));
  auto* obj = en.pRangeProfilerObject;
  CUpti_RangeProfiler_GetCounterDataSize_Params ds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE}; ds.pRangeProfilerObject = obj; ds.pMetricNames = kMetrics; ds.numMetrics = kNumMetrics; ds.maxNumOfRanges = 1; ds.maxNumRangeTreeNodes = 1; CK(cuptiRangeProfilerGetCounterDataSize(&ds));
  std::vector<uint8_t> data(ds.counterDataSize);
  const bool user = mode.rfind("user", 0) == 0 || mode.rfind("auto", 0) == 0;
  const bool user_range = mode.rfind("user", 0) == 0;
  const bool flush = mode.find("flush") != std::string::npos || mode.find("discard") != std::string::npos;
  const bool discard = mode.find("discard") != std::string::npos;
  for (int k = 0; k < 4; ++k) {
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ii{CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE}; ii.pRangeProfilerObject = obj; ii.counterDataSize = data.size(); ii.pCounterData = data.data(); CK(cuptiRangeProfilerCounterDataImageInitialize(&ii));
    CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE}; sc.pRangeProfilerObject = obj; sc.configSize = config.size(); sc.pConfig = config.data(); sc.counterDataImageSize = data.size(); sc.pCounterDataImage = data.data();
    sc.range = user_range ? CUPTI_UserRange : CUPTI_AutoRange; sc.replayMode = user ? CUPTI_UserReplay : CUPTI_KernelReplay; sc.maxRangesPerPass = 1; sc.numNestingLevels = 1; sc.minNestingLevel = 1; sc.passIndex = 0; sc.targetNestingLevel = 1;
    CK(cuptiRangeProfilerSetConfig(&sc));
    double t0 = Now(), t_save = 0, t_restore = 0, t_flush = 0, t_pass = 0; int passes = 0;
    if (!user) {
      CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE}; st.pRangeProfilerObject = obj; CK(cuptiRangeProfilerStart(&st));
      Launch(k, b);
      CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE}; sp.pRangeProfilerObject = obj; CK(cuptiRangeProfilerStop(&sp));
      CU(cudaDeviceSynchronize()); passes = np.numOfPasses;
    } else {
      CUpti_Checkpoint cp{}; cp.structSize = CUpti_Checkpoint_STRUCT_SIZE; cp.ctx = ctx; cp.optimizations = 0;
      double a = Now(); CK(NV::Cupti::Checkpoint::cuptiCheckpointSave(&cp)); t_save = Now() - a;
      for (;;) {
        if (passes > 0) { a = Now(); CK(NV::Cupti::Checkpoint::cuptiCheckpointRestore(&cp)); CU(cudaDeviceSynchronize()); t_restore += Now() - a; }
        if (flush) { a = Now(); flush_kernel<<<264 * 4, 512>>>(b.scratch, b.scratch_n, b.sink); if (discard) discard_kernel<<<264 * 4, 512>>>((char*)b.scratch, b.scratch_n * 16); CU(cudaDeviceSynchronize()); t_flush += Now() - a; }
        a = Now();
        CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE}; st.pRangeProfilerObject = obj; CK(cuptiRangeProfilerStart(&st));
        CUpti_RangeProfiler_PushRange_Params pr{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE}; pr.pRangeProfilerObject = obj; pr.pRangeName = kNames[k]; if (user_range) CK(cuptiRangeProfilerPushRange(&pr));
        Launch(k, b);
        CUpti_RangeProfiler_PopRange_Params pp{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE}; pp.pRangeProfilerObject = obj; if (user_range) CK(cuptiRangeProfilerPopRange(&pp));
        CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE}; sp.pRangeProfilerObject = obj; CK(cuptiRangeProfilerStop(&sp));
        CU(cudaDeviceSynchronize()); t_pass += Now() - a; ++passes;
        if (sp.isAllPassSubmitted) break;
        if (passes > 64) { puts("too many passes"); break; }
      }
      // Leave memory as the program had it before the measurement (its own launch follows).
      a = Now(); CK(NV::Cupti::Checkpoint::cuptiCheckpointRestore(&cp)); CU(cudaDeviceSynchronize()); t_restore += Now() - a;
      CK(NV::Cupti::Checkpoint::cuptiCheckpointFree(&cp));
    }
    CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE}; dd.pRangeProfilerObject = obj; CK(cuptiRangeProfilerDecodeData(&dd));
    double total = Now() - t0;
    std::vector<double> v(kNumMetrics);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE}; ev.pHostObject = hi.pHostObject; ev.pCounterDataImage = data.data(); ev.counterDataImageSize = data.size(); ev.rangeIndex = 0; ev.ppMetricNames = kMetrics; ev.numMetrics = kNumMetrics; ev.pMetricValues = v.data(); CK(cuptiProfilerHostEvaluateToGpuValues(&ev));
    printf("kernel %s passes %d total %.3f ms save %.3f ms restore %.3f ms flush %.3f ms passes %.3f ms dropped %zu\n", kNames[k], passes, total * 1e3, t_save * 1e3, t_restore * 1e3, t_flush * 1e3, t_pass * 1e3, dd.numOfRangeDropped);
    for (size_t m = 0; m < kNumMetrics; ++m) printf("  %s %s %.6g\n", kNames[k], kMetrics[m], v[m]);
    // the program's own launch, unprofiled, as after a measurement
    Launch(k, b); CU(cudaDeviceSynchronize());
  }
  return 0;
}
