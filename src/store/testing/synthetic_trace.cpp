#include "store/testing/synthetic_trace.h"

#include <algorithm>
#include <array>

#include "store/report_writer.h"
#include "store/testing/devices.h"

namespace gpuscope::store::testing {

namespace {

struct KernelShape {
  std::string_view name;
  std::int32_t grid_x, grid_y;
  std::int32_t block_x, block_y;
  std::uint16_t registers;
  std::int32_t static_shared;
  std::int32_t dynamic_shared;
  std::uint32_t duration_ns;  // typical GPU time
};

// A few dozen kernels as real programs name and launch them.
constexpr std::array<KernelShape, 30> kKernels = {{
    {"_Z3addiiPi", 1, 1, 1, 1, 16, 0, 0, 1400},
    {"_Z6vecAddPKfS0_Pfi", 4096, 1, 256, 1, 16, 0, 0, 2600},
    {"_Z8convolvePfS_S_", 7, 7, 32, 32, 40, 0, 0, 38000},
    {"_Z10fma_loop_kPfi", 528, 1, 256, 1, 24, 0, 0, 40600},
    {"_Z9reduce_v2PKfPfi", 1024, 1, 512, 1, 28, 2048, 0, 5200},
    {"_Z12matmul_tiledPKfS0_Pfiii", 64, 64, 16, 16, 38, 2048, 0, 21000},
    {"_Z12saxpy_kernelfPKfPfi", 8192, 1, 128, 1, 16, 0, 0, 3100},
    {"_Z11emptyKernelv", 1, 1, 32, 1, 8, 0, 0, 1100},
    {"_Z16transpose_sharedPfPKfii", 128, 128, 32, 8, 22, 4224, 0, 6400},
    {"_Z14histogram_smemPKhPji", 264, 1, 256, 1, 20, 1024, 0, 4800},
    {"_Z15scan_exclusive3PiPKii", 256, 1, 1024, 1, 32, 8192, 0, 3900},
    {"_Z20softmax_forward_warpPfPKfii", 2048, 1, 128, 1, 30, 0, 512, 2900},
    {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_"
     "T1_",
     528, 1, 128, 1, 16, 0, 0, 1600},
    {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13AUnaryFunctorIfffNS0_15binary_"
     "internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT0_T1_",
     528, 1, 128, 1, 18, 0, 0, 1900},
    {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_"
     "addIfEESt5arrayIPcLm3EEEEviT0_T1_",
     1056, 1, 128, 1, 20, 0, 0, 2200},
    {"_ZN7cutlass7Kernel2I43cutlass_80_simt_sgemm_128x128_8x4_nn_align1EEvNT_6ParamsE", 8, 8, 256,
     1, 122, 0, 16384, 48000},
    {"_ZN7cutlass7Kernel2I50cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4EEvNT_6ParamsE", 16,
     16, 128, 1, 168, 0, 81920, 31000},
    {"_ZN3cub17CUB_200200_900_NS11EmptyKernelIvEEvv", 1, 1, 1, 1, 4, 0, 0, 1000},
    {"_ZN3cub17CUB_200200_900_NS18DeviceReduceKernelINS0_18DeviceReducePolicyIfjN4cuda3std3__"
     "44plusIvEEE9Policy600EPfS9_jS8_fNS0_8NullTypeEEEvT0_T1_T2_T3_T4_T5_",
     264, 1, 256, 1, 32, 44, 0, 3600},
    {"ampere_sgemm_128x64_nn", 16, 32, 128, 1, 126, 0, 0, 26000},
    {"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas",
     132, 1, 384, 1, 168, 0, 213248, 19000},
    {"triton_poi_fused_add_mul_0", 4096, 1, 128, 1, 24, 0, 0, 2100},
    {"triton_red_fused__softmax_1", 1024, 1, 256, 1, 40, 0, 0, 4200},
    {"triton_per_fused_native_layer_norm_2", 2048, 1, 128, 1, 36, 0, 0, 3300},
    {"_Z24layer_norm_forward_tiledILi256EEvPfPKfS2_S2_ii", 512, 1, 256, 1, 40, 2048, 0, 5600},
    {"_Z17relu_inplace_halfP6__halfi", 2048, 1, 256, 1, 12, 0, 0, 1700},
    {"_Z13gather_kernelPKfPKlPfl", 1024, 1, 256, 1, 18, 0, 0, 2500},
    {"_Z12bias_add_rowPfPKfii", 1024, 1, 256, 1, 16, 0, 0, 2000},
    {"_Z11init_randomPfmm", 2048, 1, 256, 1, 26, 0, 0, 8800},
    {"_Z16gelu_backward_f4PfPKfS1_i", 2048, 1, 256, 1, 22, 0, 0, 2700},
}};

constexpr std::array<std::string_view, kKernels.size()> kNames = [] {
  std::array<std::string_view, kKernels.size()> names{};
  for (std::size_t i = 0; i < kKernels.size(); ++i) names[i] = kKernels[i].name;
  return names;
}();

// Small, fast, deterministic (Numerical Recipes' LCG); quality is irrelevant here.
class Lcg {
 public:
  explicit Lcg(std::uint32_t seed) : state_(seed) {}
  std::uint32_t Next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_ >> 8;
  }
  std::uint32_t Below(std::uint32_t bound) { return Next() % bound; }

 private:
  std::uint32_t state_;
};

// The SM carveout the driver picks: 32 KiB without shared memory, else enough for 2+ blocks.
std::uint32_t SharedMemoryExecuted(const KernelShape& shape) {
  std::uint32_t per_block = static_cast<std::uint32_t>(shape.static_shared + shape.dynamic_shared);
  if (per_block == 0) return 32768;
  return per_block > 65536 ? 233472 : 167936;
}

}  // namespace

std::span<const std::string_view> SyntheticKernelNames() { return kNames; }

void WriteSyntheticTrace(model::RecordSink& sink, const SyntheticTraceOptions& options) {
  constexpr std::uint32_t kPid = 48213;
  constexpr std::uint32_t kThread = 0x3a5be740;  // CUPTI reports pthread ids' low 32 bits
  constexpr std::uint32_t kContext = 1;
  constexpr std::uint32_t kStream = 7;  // the legacy default stream's id in CUPTI
  Lcg random(options.seed);

  model::Timestamp now = options.start_time;
  model::ProcessRecord process;  // rank and boot unknown
  process.pid = kPid;
  process.parent_pid = 48100;
  process.hostname = "gpu-node-17";
  process.command_line = "python3 train.py --steps 1000";
  process.start = now;
  sink.OnProcess(process);
  sink.OnDevice(H200());
  sink.OnContext({kContext, 0, kStream});
  sink.OnStream({kStream, kContext, 0, 0});

  model::Timestamp gpu_free = now;  // when the GPU finishes the previous kernel
  std::uint32_t correlation = 1000;
  std::int64_t grid_id = 100;
  std::size_t kernel_index = 0;
  for (std::uint64_t i = 0; i < options.kernels; ++i) {
    // Programs repeat a few kernels in loops: mostly the next kernel of a short cycle.
    kernel_index = random.Below(8) == 0 ? random.Below(kKernels.size()) : (kernel_index + 1) % 6;
    const KernelShape& shape = kKernels[kernel_index];
    // A runtime and a driver call per launch: correlation ids advance by two.
    correlation += 2;

    model::ApiCallRecord api;
    api.domain = model::ApiDomain::kRuntime;
    api.cbid = kLaunchKernelCbid;
    api.name = "cudaLaunchKernel";
    api.start = now;
    api.end = now + 2500 + random.Below(2000);
    api.process_id = kPid;
    api.thread_id = kThread;
    api.correlation_id = correlation;
    sink.OnApiCall(api, /*nested_in_runtime=*/false);

    model::KernelRecord kernel;
    kernel.start = std::max(api.start + 4000 + random.Below(1500), gpu_free + 600);
    kernel.end = kernel.start + shape.duration_ns - shape.duration_ns / 16 +
                 random.Below(shape.duration_ns / 8 + 1);
    kernel.device_id = 0;
    kernel.context_id = kContext;
    kernel.stream_id = kStream;
    kernel.correlation_id = correlation;
    kernel.grid_id = ++grid_id;
    kernel.grid_x = shape.grid_x;
    kernel.grid_y = shape.grid_y;
    kernel.grid_z = 1;
    kernel.block_x = shape.block_x;
    kernel.block_y = shape.block_y;
    kernel.block_z = 1;
    kernel.registers_per_thread = shape.registers;
    kernel.static_shared_memory = shape.static_shared;
    kernel.dynamic_shared_memory = shape.dynamic_shared;
    kernel.shared_memory_executed = SharedMemoryExecuted(shape);
    kernel.local_memory_total = 65'011'712;
    kernel.cache_config = 0x11;
    kernel.mangled_name = shape.name;
    sink.OnKernel(kernel);

    gpu_free = kernel.end;
    now = api.end + 300 + random.Below(900);
    if (options.flush_every_kernels != 0 && (i + 1) % options.flush_every_kernels == 0) {
      sink.Flush();
    }
  }
}

Status WriteSyntheticReport(const std::string& path, const SyntheticTraceOptions& options) {
  StatusOr<std::unique_ptr<ReportWriter>> created = ReportWriter::Create(path, true);
  if (!created.ok()) return created.status();
  WriteSyntheticTrace(*created.value(), options);
  created.value()->Flush();
  return created.value()->Close();
}

}  // namespace gpuscope::store::testing
