#include "store/testing/devices.h"

namespace gpuscope::store::testing {

model::DeviceRecord H200() {
  model::DeviceRecord device;
  device.id = 0;
  device.name = "NVIDIA H200";
  device.uuid = "GPU-5f0e3a52-8c4d-1b7e-a9f2-0c61d2e4b7a8";
  device.compute_major = 9;
  device.compute_minor = 0;
  device.num_sms = 132;
  device.warp_size = 32;
  device.max_threads_per_block = 1024;
  device.max_warps_per_sm = 64;
  device.max_blocks_per_sm = 32;
  device.max_registers_per_sm = 65536;
  device.max_registers_per_block = 65536;
  device.max_shared_memory_per_sm = 233472;
  device.max_shared_memory_per_block = 49152;
  device.max_shared_memory_per_block_optin = 232448;
  device.global_memory_bytes = 150'754'820'096ull;
  device.global_memory_bandwidth_kbps = 4'814'304'000ull;
  device.core_clock_khz = 1'980'000;
  device.l2_cache_bytes = 62'914'560;
  device.max_ipc = 0xFFFFFFFFu;
  device.ecc_enabled = 1;
  return device;
}

}  // namespace gpuscope::store::testing
