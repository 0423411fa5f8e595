#include "analysis/occupancy_architectures.h"

#include <array>
#include <charconv>

namespace gpuscope::analysis {
namespace {

constexpr int kKiB = 1024;

// Shared-memory carveouts (KB) each family's L1/shared split can take.
constexpr int kVoltaCarveouts[] = {0, 8, 16, 32, 64, 96};
constexpr int kTuringCarveouts[] = {32, 64};  // no 0: Turing keeps at least 32 KB shared
constexpr int kGa100Carveouts[] = {0, 8, 16, 32, 64, 100, 132, 164};
constexpr int kGa10xCarveouts[] = {0, 8, 16, 32, 64, 100};
constexpr int kHopperCarveouts[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

// One row per capability. Rows differ in warps, blocks, shared memory and barriers; the
// register file (64K 32-bit registers per SM and per block, 256-register units, four
// sub-partitions) and the 1024-thread block are the same from 7.0 to 12.1.
struct Row {
  int major, minor;
  std::string_view family;
  int max_warps_per_sm;
  int max_blocks_per_sm;
  std::span<const int> carveouts_kb;  // the last one is the shared memory per SM
  int max_smem_per_block_optin_kb;
  int smem_allocation_unit;
  int reserved_smem_per_block;
  int barriers_per_block_slot;
};

// Volta and Turing allocate shared memory in 256-byte units and reserve nothing per block;
// from Ampere on the unit is 128 bytes and the driver reserves 1 KB in every block (which is
// why the opt-in maximum is 1 KB below the carveout). GA10x-class SMs (8.6, 8.7, 8.9,
// 10.1/11.0, 12.x) have one hardware barrier per block slot, the others two.
constexpr Row kRows[] = {
    {7, 0, "Volta", 64, 32, kVoltaCarveouts, 96, 256, 0, 2},
    {7, 2, "Volta Xavier", 64, 32, kVoltaCarveouts, 96, 256, 0, 2},
    {7, 5, "Turing", 32, 16, kTuringCarveouts, 64, 256, 0, 2},
    {8, 0, "Ampere GA100", 64, 32, kGa100Carveouts, 163, 128, kKiB, 2},
    {8, 6, "Ampere GA10x", 48, 16, kGa10xCarveouts, 99, 128, kKiB, 1},
    {8, 7, "Ampere Orin", 48, 16, kGa100Carveouts, 163, 128, kKiB, 1},
    {8, 9, "Ada Lovelace", 48, 24, kGa10xCarveouts, 99, 128, kKiB, 1},
    {9, 0, "Hopper", 64, 32, kHopperCarveouts, 227, 128, kKiB, 2},
    {10, 0, "Blackwell GB100", 64, 32, kHopperCarveouts, 227, 128, kKiB, 2},
    {10, 1, "Blackwell Thor", 48, 24, kHopperCarveouts, 227, 128, kKiB, 1},
    {10, 3, "Blackwell GB300", 64, 32, kHopperCarveouts, 227, 128, kKiB, 2},
    {11, 0, "Blackwell Thor", 48, 24, kHopperCarveouts, 227, 128, kKiB, 1},
    {12, 0, "Blackwell GB20x", 48, 24, kGa10xCarveouts, 99, 128, kKiB, 1},
    {12, 1, "Blackwell GB10", 48, 24, kGa10xCarveouts, 99, 128, kKiB, 1},
};

constexpr ArchitectureLimits FromRow(const Row& row) {
  ArchitectureLimits arch;
  arch.major = row.major;
  arch.minor = row.minor;
  arch.family = row.family;
  arch.max_warps_per_sm = row.max_warps_per_sm;
  arch.max_blocks_per_sm = row.max_blocks_per_sm;
  arch.carveout_steps_kb = row.carveouts_kb;
  arch.shared_memory_per_sm = std::int64_t{row.carveouts_kb.back()} * kKiB;
  arch.shared_memory_allocation_unit = row.smem_allocation_unit;
  arch.reserved_shared_memory_per_block = row.reserved_smem_per_block;
  arch.max_shared_memory_per_block_optin = std::int64_t{row.max_smem_per_block_optin_kb} * kKiB;
  arch.barriers_per_block_slot = row.barriers_per_block_slot;
  arch.barriers_limit_occupancy = row.major >= 9;
  return arch;
}

const auto& Table() {
  static const auto table = [] {
    std::array<ArchitectureLimits, std::size(kRows)> limits;
    for (std::size_t i = 0; i < std::size(kRows); ++i) limits[i] = FromRow(kRows[i]);
    return limits;
  }();
  return table;
}

std::string SupportedList() {
  std::string list;
  for (const ArchitectureLimits& arch : Table()) {
    if (!list.empty()) list += ", ";
    list += arch.Name();
  }
  return list;
}

bool ParseInt(std::string_view text, int& value) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string ArchitectureLimits::Name() const {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::span<const ArchitectureLimits> SupportedArchitectures() { return Table(); }

StatusOr<ArchitectureLimits> FindArchitecture(int major, int minor) {
  for (const ArchitectureLimits& arch : Table()) {
    if (arch.major == major && arch.minor == minor) return arch;
  }
  return Status::Error("compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                       " is not supported (supported: " + SupportedList() + ")");
}

StatusOr<ArchitectureLimits> ParseComputeCapability(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("sm_")) digits.remove_prefix(3);
  int major = 0, minor = 0;
  bool parsed = false;
  if (std::size_t dot = digits.find('.'); dot != std::string_view::npos) {
    parsed = ParseInt(digits.substr(0, dot), major) && ParseInt(digits.substr(dot + 1), minor) &&
             digits.size() - dot - 1 == 1;
  } else if (digits.size() >= 2 && digits.size() <= 3) {
    // "90", "120": the last digit is the minor version, as in sm_90 and sm_120.
    parsed = ParseInt(digits.substr(0, digits.size() - 1), major) &&
             ParseInt(digits.substr(digits.size() - 1), minor);
  }
  if (!parsed || major < 0 || minor < 0) {
    std::string message = "'";
    message.append(text).append("' is not a compute capability (expected MAJOR.MINOR, e.g. 9.0)");
    return Status::Error(std::move(message));
  }
  return FindArchitecture(major, minor);
}

StatusOr<std::int64_t> RoundUpToCarveout(const ArchitectureLimits& arch, std::int64_t bytes) {
  for (int step_kb : arch.carveout_steps_kb) {
    if (bytes <= std::int64_t{step_kb} * kKiB) return std::int64_t{step_kb} * kKiB;
  }
  return Status::Error(std::to_string(bytes) + " bytes of shared memory exceed the largest " +
                       "carveout of compute capability " + arch.Name() + " (" +
                       std::to_string(arch.shared_memory_per_sm) + " bytes)");
}

}  // namespace gpuscope::analysis
