#include "util/gpu_metric_sets.h"

namespace gpuscope {
namespace {

using Role = GpuMetricRole;

// The CUPTI names (GH100 PM sampling catalog). "pct_of_peak_sustained_elapsed" is the share of
// the sample's wall time, so an idle gap inside a sample lowers it, as Nsight Systems shows it.
constexpr GpuMetricSpec kSmActive{"sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
                                  "SM Active", "%", Role::kSmActive};
constexpr GpuMetricSpec kSmIssue{"sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed",
                                 "SM Issue", "%", Role::kSmIssue};
constexpr GpuMetricSpec kWarps{"sm__warps_active_realtime.avg.pct_of_peak_sustained_elapsed",
                               "Warps in Flight (of capacity)", "%", Role::kWarpsInFlight};
constexpr GpuMetricSpec kTensor{
    "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed", "Tensor Active",
    "%", Role::kTensorActive};
constexpr GpuMetricSpec kDramRead{"dram__bytes_read.sum.per_second", "DRAM Read Bandwidth",
                                  "byte/second", Role::kDramRead};
constexpr GpuMetricSpec kDramWrite{"dram__bytes_write.sum.per_second", "DRAM Write Bandwidth",
                                   "byte/second", Role::kDramWrite};
constexpr GpuMetricSpec kDramThroughput{"dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                        "DRAM Throughput", "%", Role::kDramThroughput};
constexpr GpuMetricSpec kPcieRead{"pcie__read_bytes.sum.per_second", "PCIe Read Bandwidth",
                                  "byte/second", Role::kPcieRead};
constexpr GpuMetricSpec kPcieWrite{"pcie__write_bytes.sum.per_second", "PCIe Write Bandwidth",
                                   "byte/second", Role::kPcieWrite};
constexpr GpuMetricSpec kNvlinkRx{"nvlrx__bytes.sum.per_second", "NVLink Receive Bandwidth",
                                  "byte/second", Role::kNvlinkReceive, true};
constexpr GpuMetricSpec kNvlinkTx{"nvltx__bytes.sum.per_second", "NVLink Transmit Bandwidth",
                                  "byte/second", Role::kNvlinkTransmit, true};

constexpr GpuMetricSpec kDefault[] = {kSmActive, kSmIssue,  kWarps,     kTensor,
                                      kDramRead, kDramWrite, kPcieRead, kPcieWrite,
                                      kNvlinkRx, kNvlinkTx};

constexpr GpuMetricSpec kCompute[] = {
    kSmActive,
    kSmIssue,
    kWarps,
    kTensor,
    {"TPC.TriageCompute.sm__pipe_fp64_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
     "FP64 Pipe Active", "%"},
    {"TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime.avg.pct_of_peak_sustained_elapsed",
     "FMA Pipe Issue", "%"},
    {"sm__inst_executed_pipe_alu_realtime.avg.pct_of_peak_sustained_elapsed", "ALU Pipe Issue",
     "%"},
    {"gpc__cycles_elapsed.avg.per_second", "GPC Clock Frequency", "cycle/second"},
};

constexpr GpuMetricSpec kMemory[] = {
    kDramThroughput,
    kDramRead,
    kDramWrite,
    {"lts__t_sectors.sum.per_second", "L2 Sector Throughput", "sector/second"},
    kPcieRead,
    kPcieWrite,
    kNvlinkRx,
    kNvlinkTx,
};

constexpr GpuMetricSet kSets[] = {
    {"default",
     "SM active and issue, warps in flight, tensor pipe, DRAM, PCIe and NVLink bandwidth", kDefault},
    {"compute", "SM activity, warps in flight and the busiest pipes, with the GPC clock", kCompute},
    {"memory", "DRAM throughput and bandwidth, L2, PCIe and NVLink bandwidth", kMemory},
};

}  // namespace

std::span<const GpuMetricSet> GpuMetricSets() { return kSets; }

const GpuMetricSet* FindGpuMetricSet(std::string_view name) {
  for (const GpuMetricSet& set : kSets) {
    if (set.name == name) return &set;
  }
  return nullptr;
}

}  // namespace gpuscope
