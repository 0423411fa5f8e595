// make_rank_reports -o DIR [options]: writes the synthetic reports of a multi-rank job
// (store/testing/rank_reports.h: one report per rank, known host clock offsets, an optional
// straggler) through the production writer, one report at a time, so that memory stays
// bounded at any size; e.g. the scale benchmark's
//   make_rank_reports -o /tmp/ranks --ranks 512 --kernels-per-rank 100000 --host-offset-spread-ns
//   2000000
// Existing reports are replaced only with -f.
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "store/testing/rank_reports.h"

namespace {

constexpr const char* kUsage =
    "usage: make_rank_reports -o DIR [--ranks N] [--ranks-per-host N] [--steps N | "
    "--kernels-per-rank N] [--kernels-per-step N] [--kernel-ns N] [--host-offsets-ns A,B,...] "
    "[--host-offset-spread-ns N] [--straggler-rank R] [--straggler-delay-ns N] [--no-nccl] "
    "[--seed N] [-f]";

int Fail(const std::string& message) {
  std::fprintf(stderr, "make_rank_reports: error: %s\n", message.c_str());
  return 2;
}

template <typename Int>
bool ParseInt(std::string_view text, Int& value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

bool ParseList(std::string_view text, std::vector<std::int64_t>& values) {
  values.clear();
  while (true) {
    const std::size_t comma = text.find(',');
    std::int64_t value = 0;
    if (!ParseInt(text.substr(0, comma), value)) return false;
    values.push_back(value);
    if (comma == std::string_view::npos) return true;
    text.remove_prefix(comma + 1);
  }
}

// Host 0's clock is the reference; the others are off by a deterministic amount within
// +-spread (different for every host).
std::vector<std::int64_t> SpreadOffsets(int hosts, std::int64_t spread, std::uint64_t seed) {
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(hosts), 0);
  std::uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  for (std::size_t h = 1; h < offsets.size(); ++h) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const auto draw =
        static_cast<std::int64_t>((state >> 11) % static_cast<std::uint64_t>(2 * spread + 1));
    offsets[h] = draw - spread;
  }
  return offsets;
}

}  // namespace

int main(int argc, char** argv) {
  gpuscope::store::testing::RankReportsSpec spec;
  std::string dir;
  std::int64_t kernels_per_rank = -1;
  std::int64_t spread = -1;
  bool offsets_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    if (option == "-f") {
      spec.overwrite = true;
      continue;
    }
    if (option == "--no-nccl") {
      spec.nccl = false;
      continue;
    }
    if (option == "-h" || option == "--help") {
      std::printf("%s\n", kUsage);
      return 0;
    }
    if (i + 1 >= argc) return Fail("option " + std::string(option) + " needs a value\n" + kUsage);
    const std::string_view value = argv[++i];
    bool ok = true;
    if (option == "-o") {
      dir = value;
    } else if (option == "--ranks") {
      ok = ParseInt(value, spec.ranks);
    } else if (option == "--ranks-per-host") {
      ok = ParseInt(value, spec.ranks_per_host);
    } else if (option == "--steps") {
      ok = ParseInt(value, spec.steps);
    } else if (option == "--kernels-per-rank") {
      ok = ParseInt(value, kernels_per_rank) && kernels_per_rank >= 1;
    } else if (option == "--kernels-per-step") {
      ok = ParseInt(value, spec.kernels_per_step);
    } else if (option == "--kernel-ns") {
      ok = ParseInt(value, spec.kernel_ns);
    } else if (option == "--host-offsets-ns") {
      ok = ParseList(value, spec.host_clock_offset_ns);
      offsets_given = true;
    } else if (option == "--host-offset-spread-ns") {
      ok = ParseInt(value, spread) && spread >= 0 && spread <= (std::int64_t{1} << 60);
    } else if (option == "--straggler-rank") {
      ok = ParseInt(value, spec.straggler_rank);
    } else if (option == "--straggler-delay-ns") {
      ok = ParseInt(value, spec.straggler_delay_ns);
    } else if (option == "--seed") {
      ok = ParseInt(value, spec.seed);
    } else {
      return Fail("unknown option " + std::string(option) + "\n" + kUsage);
    }
    if (!ok) return Fail("bad value '" + std::string(value) + "' for " + std::string(option));
  }
  if (dir.empty()) return Fail(std::string("no output directory (-o DIR)\n") + kUsage);
  if (offsets_given && spread >= 0) {
    return Fail("--host-offsets-ns and --host-offset-spread-ns exclude each other");
  }
  if (spec.ranks < 1 || spec.ranks_per_host < 1)
    return Fail("--ranks and --ranks-per-host must be >= 1");
  const int hosts = (spec.ranks + spec.ranks_per_host - 1) / spec.ranks_per_host;
  if (spread >= 0) spec.host_clock_offset_ns = SpreadOffsets(hosts, spread, spec.seed);
  if (kernels_per_rank > 0) {
    // Each step holds its compute kernels and, with NCCL, one all-reduce.
    const std::int64_t per_step = spec.kernels_per_step + (spec.nccl ? 1 : 0);
    if (per_step < 1) return Fail("--kernels-per-rank needs kernels in a step");
    const std::int64_t steps = (kernels_per_rank + per_step - 1) / per_step;
    if (steps > 1'000'000'000) return Fail("--kernels-per-rank is too large");
    spec.steps = static_cast<int>(steps);
  }
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return Fail("cannot create " + dir + ": " + std::strerror(errno));
  }
  auto written = gpuscope::store::testing::TryWriteRankReports(spec, dir);
  if (!written.ok()) {
    std::fprintf(stderr, "make_rank_reports: error: %s\n", written.status().message().c_str());
    return 1;
  }
  const std::int64_t kernels =
      static_cast<std::int64_t>(spec.steps) * (spec.kernels_per_step + (spec.nccl ? 1 : 0));
  std::printf("%zu reports in %s: %d ranks on %d hosts, %d steps, %lld kernels per rank\n",
              written->size(), dir.c_str(), spec.ranks, hosts, spec.steps,
              static_cast<long long>(kernels));
  std::printf("host clock offsets (ns):");
  for (int h = 0; h < hosts; ++h) {
    const auto index = static_cast<std::size_t>(h);
    std::printf(" %lld", static_cast<long long>(index < spec.host_clock_offset_ns.size()
                                                    ? spec.host_clock_offset_ns[index]
                                                    : 0));
  }
  std::printf("\n");
  if (spec.straggler_rank >= 0) {
    std::printf("straggler: rank %d, %lld ns late per step\n", spec.straggler_rank,
                static_cast<long long>(spec.straggler_delay_ns));
  }
  return 0;
}
