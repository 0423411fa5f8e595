// Throwaway probe (issue 11 design): own replay of a launch from its driver enter callback.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_sass_metrics.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_checkpoint.h>
#include <cupti_target.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <map>
#include <chrono>
using namespace NV::Cupti::Checkpoint;
#define C(x) do { CUptiResult r_ = (x); if (r_ != CUPTI_SUCCESS) { const char* s; cuptiGetResultString(r_, &s); printf("  FAIL %s: %s\n", #x, s); } } while (0)

__global__ void k_fp64(const float* a, float* out, int n) {
  double s = 0;
  for (int i = 0; i < 64; ++i) s += a[(threadIdx.x + i) % n] * 1.5;
  out[blockIdx.x * blockDim.x + threadIdx.x] += (float)s;
}
__global__ void k_strided(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] += a[(i * 33) % n];
}
__global__ void k_smem(float* out) {
  __shared__ float t[32 * 32];
  int x = threadIdx.x;
  t[x * 32 % 1024] = x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + x] += t[(x * 32) % 1024];
}

static bool g_replaying = false;
static std::map<std::string, uint64_t> g_ids;
static std::map<uint64_t, std::string> g_names;
static bool g_config_set = false;
static int g_launch = 0;

static CUresult Relaunch(CUpti_CallbackId cbid, const void* params) {
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
    auto* p = (const cuLaunchKernel_params*)params;
    return cuLaunchKernel(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ, p->sharedMemBytes, p->hStream, p->kernelParams, p->extra);
  }
  auto* p = (const cuLaunchKernelEx_params*)params;
  return cuLaunchKernelEx(p->config, p->f, p->kernelParams, p->extra);
}

static void SassPass(CUcontext ctx, CUpti_CallbackId cbid, const void* params) {
  const char* names[] = {"smsp__sass_inst_executed", "smsp__sass_thread_inst_executed", "smsp__sass_thread_inst_executed_pred_on",
    "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
    "smsp__sass_branch_targets_threads_divergent"};
  if (!g_config_set || (getenv("PERCONFIG") ? atoi(getenv("PERCONFIG")) : 0)) {
    char chip[64] = "GH100";
    CUpti_Device_GetChipName_Params cp = {CUpti_Device_GetChipName_Params_STRUCT_SIZE}; cp.deviceIndex = 0;
    C(cuptiDeviceGetChipName(&cp));
    std::vector<CUpti_SassMetrics_Config> cfg;
    for (const char* n : names) {
      CUpti_SassMetrics_GetProperties_Params gp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
      gp.pChipName = cp.pChipName; gp.pMetricName = n;
      CUptiResult r = cuptiSassMetricsGetProperties(&gp);
      if (r != CUPTI_SUCCESS) { printf("  metric %s: error %d\n", n, r); continue; }
      g_ids[n] = gp.metric.metricId; g_names[gp.metric.metricId] = n;
      cfg.push_back({gp.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
    }
    CUpti_SassMetricsSetConfig_Params sp = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    sp.numOfMetricConfig = cfg.size(); sp.pConfigs = cfg.data(); sp.deviceIndex = 0;
    C(cuptiSassMetricsSetConfig(&sp));
    g_config_set = true;
  }
  static bool enabled = false;
  if (enabled) { CUpti_SassMetricsGetDataProperties_Params pre = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE}; pre.ctx = ctx; C(cuptiSassMetricsGetDataProperties(&pre)); printf("  sass: pending before relaunch=%zu\n", pre.numOfPatchedInstructionRecords); }
  CUpti_SassMetricsEnable_Params ep = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE}; ep.ctx = ctx; ep.enableLazyPatching = (getenv("LAZY") ? atoi(getenv("LAZY")) : 1);
  if (!enabled) C(cuptiSassMetricsEnable(&ep));
  if ((getenv("KEEP") ? atoi(getenv("KEEP")) : 0)) enabled = true;
  auto t0 = std::chrono::steady_clock::now();
  CUresult lr = Relaunch(cbid, params);
  CUresult sr = cuCtxSynchronize();
  CUpti_SassMetricsGetDataProperties_Params dp = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE}; dp.ctx = ctx;
  C(cuptiSassMetricsGetDataProperties(&dp));
  printf("  sass: relaunch=%d sync=%d records=%zu instances=%zu\n", lr, sr, dp.numOfPatchedInstructionRecords, dp.numOfInstances);
  if (dp.numOfPatchedInstructionRecords > 0) {
    std::vector<CUpti_SassMetrics_Data> data(dp.numOfPatchedInstructionRecords);
    std::vector<CUpti_SassMetrics_InstanceValue> vals(dp.numOfPatchedInstructionRecords * dp.numOfInstances);
    for (size_t i = 0; i < data.size(); ++i) { data[i].structSize = sizeof(CUpti_SassMetrics_Data); data[i].pInstanceValues = &vals[i * dp.numOfInstances]; }
    CUpti_SassMetricsFlushData_Params fp = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    fp.ctx = ctx; fp.numOfPatchedInstructionRecords = dp.numOfPatchedInstructionRecords; fp.numOfInstances = dp.numOfInstances; fp.pMetricsData = data.data();
    C(cuptiSassMetricsFlushData(&fp));
    std::map<std::string, uint64_t> sums; std::map<uint64_t,int> pcs;
    for (auto& d : data) { for (size_t k = 0; k < dp.numOfInstances; ++k) sums[g_names[d.pInstanceValues[k].metricId]] += d.pInstanceValues[k].value; pcs[d.pcOffset]++; }
    printf("  sass: fn=%s crc=%u pcs=%zu\n", data[0].functionName, data[0].cubinCrc, pcs.size());
    for (auto& [n, v] : sums) printf("    %s = %llu\n", n.c_str(), (unsigned long long)v);
    int shown = 0;
    for (auto& d : data) { if (shown++ < 6) printf("    pc=0x%x fn=%s idx=%u metric=%s v=%llu\n", d.pcOffset, d.functionName, d.functionIndex, g_names[d.pInstanceValues[0].metricId].c_str(), (unsigned long long)d.pInstanceValues[0].value); }
  }
  CUpti_SassMetricsDisable_Params xp = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE}; xp.ctx = ctx;
  if (!(getenv("KEEP") ? atoi(getenv("KEEP")) : 0)) C(cuptiSassMetricsDisable(&xp));
  if ((getenv("PERCONFIG") ? atoi(getenv("PERCONFIG")) : 0)) { CUpti_SassMetricsUnsetConfig_Params up = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE}; up.deviceIndex = 0; C(cuptiSassMetricsUnsetConfig(&up)); }
  printf("  sass pass %.2f ms, dropped=%zu\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), xp.numOfDroppedRecords);
}

static void SamplingPass(CUcontext ctx, CUpti_CallbackId cbid, const void* params) {
  auto t0 = std::chrono::steady_clock::now();
  static bool s_on = false;
  CUpti_PCSamplingEnableParams en = {CUpti_PCSamplingEnableParamsSize}; en.ctx = ctx;
  if (!s_on) C(cuptiPCSamplingEnable(&en));
  size_t n = 0;
  CUpti_PCSamplingGetNumStallReasonsParams nr = {CUpti_PCSamplingGetNumStallReasonsParamsSize}; nr.ctx = ctx; nr.numStallReasons = &n;
  C(cuptiPCSamplingGetNumStallReasons(&nr));
  static std::vector<char*> rn(n); static std::vector<uint32_t> ri(n);
  for (auto& p : rn) p = (char*)calloc(CUPTI_STALL_REASON_STRING_SIZE, 1);
  CUpti_PCSamplingGetStallReasonsParams sr = {CUpti_PCSamplingGetStallReasonsParamsSize}; sr.ctx = ctx; sr.numStallReasons = n; sr.stallReasonIndex = ri.data(); sr.stallReasons = rn.data();
  C(cuptiPCSamplingGetStallReasons(&sr));
  const size_t kPcs = 2000;
  auto make = [&](CUpti_PCSamplingData& d) {
    d = {}; d.size = sizeof(CUpti_PCSamplingData); d.collectNumPcs = kPcs;
    d.pPcData = (CUpti_PCSamplingPCData*)calloc(kPcs, sizeof(CUpti_PCSamplingPCData));
    for (size_t i = 0; i < kPcs; ++i) { d.pPcData[i].size = sizeof(CUpti_PCSamplingPCData); d.pPcData[i].stallReason = (CUpti_PCSamplingStallReason*)calloc(n, sizeof(CUpti_PCSamplingStallReason)); }
  };
  static CUpti_PCSamplingData cfgbuf; static bool made = false; if (!made) { make(cfgbuf); made = true; }
  CUpti_PCSamplingData out; make(out);
  std::vector<CUpti_PCSamplingConfigurationInfo> info(5);
  info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER; info[0].attributeData.samplingDataBufferData.samplingDataBuffer = &cfgbuf;
  info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE; info[1].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
  info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD; info[2].attributeData.samplingPeriodData.samplingPeriod = 9;
  info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON; info[3].attributeData.stallReasonData.stallReasonCount = n; info[3].attributeData.stallReasonData.pStallReasonIndex = ri.data();
  info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL; info[4].attributeData.enableStartStopControlData.enableStartStopControl = (getenv("STARTSTOP") ? atoi(getenv("STARTSTOP")) : 1);
  CUpti_PCSamplingConfigurationInfoParams cp = {CUpti_PCSamplingConfigurationInfoParamsSize}; cp.ctx = ctx; cp.numAttributes = info.size(); cp.pPCSamplingConfigurationInfo = info.data();
  if (!s_on) C(cuptiPCSamplingSetConfigurationAttribute(&cp));
  if ((getenv("SKEEP") ? atoi(getenv("SKEEP")) : 0)) s_on = true;
  CUpti_PCSamplingStartParams st = {CUpti_PCSamplingStartParamsSize}; st.ctx = ctx; C(cuptiPCSamplingStart(&st));
  CUresult lr = Relaunch(cbid, params);
  CUresult syr = cuCtxSynchronize();
  CUpti_PCSamplingStopParams sp = {CUpti_PCSamplingStopParamsSize}; sp.ctx = ctx; C(cuptiPCSamplingStop(&sp));
  size_t total = 0, pcs = 0; std::map<std::string, size_t> by;
  for (int round = 0; round < 100; ++round) {
    CUpti_PCSamplingGetDataParams gd = {CUpti_PCSamplingGetDataParamsSize}; gd.ctx = ctx; gd.pcSamplingData = &out;
    C(cuptiPCSamplingGetData(&gd));
    for (size_t i = 0; i < out.totalNumPcs; ++i) { ++pcs; for (size_t k = 0; k < out.pPcData[i].stallReasonCount; ++k) { total += out.pPcData[i].stallReason[k].samples; for (size_t j = 0; j < n; ++j) if (ri[j] == out.pPcData[i].stallReason[k].pcSamplingStallReasonIndex) by[rn[j]] += out.pPcData[i].stallReason[k].samples; } }
    if (round == 0 && out.totalNumPcs) printf("  pcs: first pc=0x%llx fn=%s crc=%llu corr=%u\n", (unsigned long long)out.pPcData[0].pcOffset, out.pPcData[0].functionName, (unsigned long long)out.pPcData[0].cubinCrc, out.pPcData[0].correlationId);
    if (out.remainingNumPcs == 0) break;
  }
  printf("  pcsampling: relaunch=%d sync=%d stallreasons=%zu pcs=%zu samples=%zu totalSamples=%llu dropped=%llu\n", lr, syr, n, pcs, total, (unsigned long long)out.totalSamples, (unsigned long long)out.droppedSamples);
  int shown = 0; for (auto& [k, v] : by) if (v && shown++ < 6) printf("    %s %zu\n", k.c_str(), v);
  CUpti_PCSamplingDisableParams dp = {CUpti_PCSamplingDisableParamsSize}; dp.ctx = ctx; if (!(getenv("SKEEP") ? atoi(getenv("SKEEP")) : 0)) C(cuptiPCSamplingDisable(&dp));
  printf("  sampling pass %.2f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

static void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* cbdata) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
      auto* rd = (const CUpti_ResourceData*)cbdata;
      auto* md = (const CUpti_ModuleResourceData*)rd->resourceDescriptor;
      CUpti_GetCubinCrcParams c = {CUpti_GetCubinCrcParamsSize}; c.cubin = md->pCubin; c.cubinSize = md->cubinSize;
      C(cuptiGetCubinCrc(&c));
      printf("module loaded id=%u size=%zu crc=%llu\n", md->moduleId, md->cubinSize, (unsigned long long)c.cubinCrc);
      if (md->cubinSize > 4 && memcmp(md->pCubin, "\x7f" "ELF", 4) == 0) { FILE* f = fopen((std::string(getenv("OUT") ? getenv("OUT") : ".") + "/module" + std::to_string(md->moduleId) + ".cubin").c_str(), "wb"); if (f) { fwrite(md->pCubin, 1, md->cubinSize, f); fclose(f); } }
    }
    return;
  }
  auto* d = (const CUpti_CallbackData*)cbdata;
  if (g_replaying || d->callbackSite != CUPTI_API_ENTER) return;
  ++g_launch;
  printf("launch %d %s (cbid %u) ctx=%p\n", g_launch, d->symbolName, cbid, (void*)d->context);
  g_replaying = true;
  CUcontext ctx = d->context;
  auto t0 = std::chrono::steady_clock::now();
  CUpti_Checkpoint cp = {CUpti_Checkpoint_STRUCT_SIZE}; cp.ctx = ctx; cp.optimizations = 0;
  C(cuptiCheckpointSave(&cp));
  printf("  checkpoint save %.2f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if ((getenv("SAMPLING_FIRST") ? atoi(getenv("SAMPLING_FIRST")) : 0)) { SamplingPass(ctx, cbid, d->functionParams); C(cuptiCheckpointRestore(&cp)); }
  if ((getenv("SASS") ? atoi(getenv("SASS")) : 1)) SassPass(ctx, cbid, d->functionParams);
  C(cuptiCheckpointRestore(&cp));
  if ((getenv("SAMPLING") ? atoi(getenv("SAMPLING")) : 1) && !(getenv("SAMPLING_FIRST") ? atoi(getenv("SAMPLING_FIRST")) : 0)) SamplingPass(ctx, cbid, d->functionParams);
  C(cuptiCheckpointRestore(&cp));
  C(cuptiCheckpointFree(&cp));
  g_replaying = false;
}

int main() {
  const bool plain = getenv("PLAIN") != nullptr;
  CUpti_SubscriberHandle sub;
  if (!plain) {
  C(cuptiSubscribe(&sub, OnCallback, nullptr));
  C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
  C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz));
  C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx));
  C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz));
  C(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  }
  cudaFree(0);
  if (!plain) { CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE}; C(cuptiProfilerInitialize(&ip)); }
  const int n = 1 << 20;
  float *a, *out; cudaMalloc(&a, n * 4); cudaMalloc(&out, n * 4);
  std::vector<float> h(n, 1.0f); cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice); cudaMemset(out, 0, n * 4);
  k_fp64<<<n / 256, 256>>>(a, out, n);
  k_strided<<<n / 256, 256>>>(a, out, n);
  k_smem<<<n / 256, 256>>>(out);
  k_fp64<<<n / 256, 256>>>(a, out, n);
  cudaDeviceSynchronize();
  cudaMemcpy(h.data(), out, n * 4, cudaMemcpyDeviceToHost);
  // Each launch adds exactly once: 96 + 1 + x*32%1024 value + 96; element 0: 96+1+0+96 = 193.
  printf("result out[0]=%g out[5]=%g (expect 193 and %g) err=%s\n", h[0], h[5], 193.0 + 160.0, cudaGetErrorString(cudaGetLastError()));
  if (plain) return 0;
  // List the chip's SASS metrics.
  CUpti_Device_GetChipName_Params cp = {CUpti_Device_GetChipName_Params_STRUCT_SIZE}; cp.deviceIndex = 0; C(cuptiDeviceGetChipName(&cp));
  CUpti_SassMetrics_GetNumOfMetrics_Params nm = {CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE}; nm.pChipName = cp.pChipName; C(cuptiSassMetricsGetNumOfMetrics(&nm));
  std::vector<CUpti_SassMetrics_MetricDetails> det(nm.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params gm = {CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE}; gm.pChipName = cp.pChipName; gm.numOfMetrics = nm.numOfMetrics; gm.pMetricsList = det.data(); C(cuptiSassMetricsGetMetrics(&gm));
  for (auto& m : det) printf("SASSMETRIC %s | %s\n", m.pMetricName, m.pMetricDescription);
  return 0;
}
