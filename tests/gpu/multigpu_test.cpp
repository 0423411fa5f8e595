// Multi-GPU runs (issue 17; CTest labels gpu;multigpu, run by scripts/gpu-tests.sh only where
// nvidia-smi lists two GPUs or more): torchrun of the NCCL examples (examples/nccl) on two
// GPUs, every rank under gpuscope, started by torchrun itself:
//
//   python3 -m torch.distributed.run --standalone --nproc-per-node 2 --no-python  (one line)
//       gpuscope run -o <dir>/rank%q{RANK}.sqlite -- python3 examples/nccl/ddp_train.py ...
//
// (`torch.distributed.run` is torchrun; --no-python runs gpuscope as each rank's program, and
// each gpuscope expands %q{RANK} from the RANK torchrun gave it.) NVLink multicast stays off
// (the scripts and this environment set NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1,
// NVSHMEM_DISABLE_NVLS=1). Checked:
// - every rank's report holds its NCCL kernels, each with the CUDA launch call that made it,
//   and NCCL's own NVTX ranges (domain "NCCL") where this NCCL emits them; nothing lost;
// - `gpuscope stats --report rank_align,rank_comm_sum` and `gpuscope ranks` (issue 16): the
//   ends of each all-reduce agree on the aligned axis within the stated alignment error, and
//   rank 1, planted as a straggler (50 ms of sleep before each all-reduce), is named with the
//   time the other rank lost waiting for it;
// - `gpuscope profile -k regex:nccl -c 1` under torchrun ends (no hang) and says why the
//   collective is not replayed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "python_modules.h"
#include "report_expectations.h"
#include "store/profile_store.h"
#include "traced_run.h"
#include "util/nccl_kernels.h"

namespace gpuscope::gpu_test {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;

constexpr int kRanks = 2;
constexpr int kSteps = 20;
constexpr int kStragglerRank = 1;
constexpr int kStragglerSleepMs = 50;
// How far apart two ranks may end one ring all-reduce besides the clock error: the last step
// of the ring reaches one rank a hop after the other (microseconds over NVLink or PCIe).
constexpr std::int64_t kCollectiveEndSkewNs = 20'000;

const Environment kMulticastOff = {{"NCCL_NVLS_ENABLE", "0"},
                                   {"TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"},
                                   {"NVSHMEM_DISABLE_NVLS", "1"}};

int VisibleGpus() {
  CommandResult listed = RunCommand({"nvidia-smi", "-L"}, {}, 30);
  std::istringstream lines(listed.out);
  int gpus = 0;
  for (std::string line; std::getline(lines, line);) gpus += line.rfind("GPU ", 0) == 0;
  return gpus;
}

#define REQUIRE_TWO_GPUS()                                                         \
  do {                                                                             \
    if (int gpus = VisibleGpus(); gpus < kRanks) {                                 \
      GTEST_SKIP() << "needs " << kRanks << " GPUs, nvidia-smi -L lists " << gpus; \
    }                                                                              \
  } while (0)

std::string NcclExample(const std::string& file) { return SourceDir() + "/examples/nccl/" + file; }

// torchrun with every rank's program `gpuscope <gpuscope_args> -- python3 <script> <args>`.
CommandResult TorchrunUnderGpuscope(const std::vector<std::string>& gpuscope_args,
                                    const std::string& script,
                                    const std::vector<std::string>& script_args,
                                    int timeout_seconds = 300) {
  std::vector<std::string> argv = {PythonInterpreter(),     "-m",
                                   "torch.distributed.run", "--standalone",
                                   "--nproc-per-node",      std::to_string(kRanks),
                                   "--no-python",           GpuscopeBinary()};
  argv.insert(argv.end(), gpuscope_args.begin(), gpuscope_args.end());
  argv.push_back("--");
  argv.push_back(PythonInterpreter());
  argv.push_back(NcclExample(script));
  argv.insert(argv.end(), script_args.begin(), script_args.end());
  return RunCommand(argv, kMulticastOff, timeout_seconds);
}

std::string RankReport(const ScratchDir& dir, const std::string& stem, int rank) {
  return dir.path() + "/" + stem + std::to_string(rank) + ".sqlite";
}

std::vector<Kernel> NcclKernels(const Report& report, std::string_view kind = "") {
  std::vector<Kernel> kernels;
  for (const Kernel& kernel : report.kernels) {
    if (!IsNcclKernel(kernel.mangled)) continue;
    if (!kind.empty() && KernelIdentifier(kernel.mangled).find(kind) == std::string_view::npos) {
      continue;
    }
    kernels.push_back(kernel);
  }
  return kernels;  // in start order, as the report's kernels are
}

// Each rank's report: loaded, nothing lost, NCCL kernels each launched by a recorded CUDA
// call, NCCL's NVTX ranges named after its API where there are any.
void ExpectNcclTraced(const Report& report, const std::string& path) {
  ASSERT_TRUE(Loaded(report));
  ExpectNothingLost(report);
  std::vector<Kernel> nccl = NcclKernels(report);
  ASSERT_FALSE(nccl.empty()) << path << " holds no NCCL kernel";
  std::map<std::uint32_t, const ApiCall*> calls;
  for (const ApiCall& call : report.api_calls) calls[call.record.correlation_id] = &call;
  for (const Kernel& kernel : nccl) {
    auto call = calls.find(kernel.record.correlation_id);
    ASSERT_NE(call, calls.end()) << path << ": no API call launched " << kernel.name;
    EXPECT_NE(call->second->name.find("Launch"), std::string::npos)
        << kernel.name << " launched by " << call->second->name;
  }
  int nccl_ranges = 0;
  for (const Nvtx& range : report.nvtx) {
    if (range.domain != "NCCL") continue;
    ++nccl_ranges;
    EXPECT_EQ(range.name.rfind("nccl", 0), 0u) << "an NCCL range named " << range.name;
  }
  // NCCL annotates its API calls with NVTX unless built without it or NCCL_NVTX_DISABLE=1.
  if (nccl_ranges == 0) {
    std::cout << path << ": no NVTX ranges of domain NCCL (this NCCL emits none)\n";
  }
}

// The value of the first column whose header starts with `prefix` ("Wait on ranks" with or
// without its unit), as a number.
double NumberField(const JsonValue& row, std::string_view prefix) {
  for (const auto& [key, value] : row.object) {
    if (key.rfind(prefix, 0) == 0) return std::strtod(value.text.c_str(), nullptr);
  }
  ADD_FAILURE() << "no column '" << prefix << "...'";
  return 0;
}

// Per rank, the rows of table `name` of `stats --format json`.
std::map<int, const JsonValue*> RowsByRank(const JsonValue& document, const std::string& name) {
  std::map<int, const JsonValue*> rows;
  const JsonValue* table = document.Find(name);
  EXPECT_NE(table, nullptr) << "no table " << name;
  if (table == nullptr) return rows;
  for (const JsonValue& row : table->array) {
    rows[static_cast<int>(NumberField(row, "Rank"))] = &row;
  }
  return rows;
}

// Every object of `value` (itself included) that has a string `rule_value` anywhere in it.
void ObjectsNaming(const JsonValue& value, std::string_view rule_value,
                   std::vector<const JsonValue*>& found) {
  if (value.kind == JsonValue::Kind::kObject) {
    for (const auto& [key, member] : value.object) {
      if (member.kind == JsonValue::Kind::kString && member.text == rule_value) {
        found.push_back(&value);
        break;
      }
    }
    for (const auto& [key, member] : value.object) ObjectsNaming(member, rule_value, found);
  }
  for (const JsonValue& element : value.array) ObjectsNaming(element, rule_value, found);
}

TEST(GpuMultiGpu, DdpTrainingEveryRankTracedAlignedAndTheStragglerNamed) {
  REQUIRE_TWO_GPUS();
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  ScratchDir dir;
  CommandResult run = TorchrunUnderGpuscope(
      {"run", "-o", dir.path() + "/rank%q{RANK}.sqlite"}, "ddp_train.py",
      {"--steps", std::to_string(kSteps), "--straggler-rank", std::to_string(kStragglerRank),
       "--straggler-sleep-ms", std::to_string(kStragglerSleepMs)});
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  std::vector<std::string> paths;
  std::vector<Report> reports;
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_TRUE(HasLineWithAll(run.out, {"ddp_train: ok rank " + std::to_string(rank)})) << run.out;
    paths.push_back(RankReport(dir, "rank", rank));
    reports.push_back(LoadReport(paths.back()));
    ASSERT_NO_FATAL_FAILURE(ExpectNcclTraced(reports.back(), paths.back()));
    // DDP's gradient all-reduce, one per step (the model fits one bucket).
    EXPECT_GE(NcclKernels(reports.back(), "AllReduce").size(), static_cast<std::size_t>(kSteps))
        << paths.back();
  }

  // The multi-rank tables (issue 16) over both reports.
  CommandResult stats =
      RunCommand({GpuscopeBinary(), "stats", "--report", "rank_align,rank_comm_sum", "--format",
                  "json", paths[0], paths[1]});
  ASSERT_EQ(stats.exit_code, 0) << stats.Describe();
  JsonValue tables = ParsedJsonOrFail(stats.out);
  std::map<int, const JsonValue*> align = RowsByRank(tables, "rank_align");
  ASSERT_EQ(align.size(), static_cast<std::size_t>(kRanks)) << stats.out;
  std::vector<std::int64_t> offset(kRanks);
  std::int64_t error = 0;
  for (int rank = 0; rank < kRanks; ++rank) {
    offset[rank] = static_cast<std::int64_t>(NumberField(*align[rank], "Offset"));
    std::int64_t rank_error = static_cast<std::int64_t>(NumberField(*align[rank], "Error"));
    EXPECT_GE(rank_error, 0) << "one host: the error is known (" << stats.out << ")";
    error = std::max(error, rank_error);
  }
  // The k-th all-reduce of every rank is one collective: its ends agree on the aligned axis.
  std::vector<Kernel> first = NcclKernels(reports[0], "AllReduce");
  std::vector<Kernel> second = NcclKernels(reports[1], "AllReduce");
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    std::int64_t end0 = static_cast<std::int64_t>(first[k].record.end) + offset[0];
    std::int64_t end1 = static_cast<std::int64_t>(second[k].record.end) + offset[1];
    EXPECT_LE(std::llabs(end0 - end1), error + kCollectiveEndSkewNs)
        << "all-reduce " << k << ": ends " << end0 << " and " << end1 << ", alignment error "
        << error << " ns";
  }
  // Rank 0 waits for the straggler in every step, inside its all-reduce; rank 1 hardly waits.
  std::map<int, const JsonValue*> comm = RowsByRank(tables, "rank_comm_sum");
  ASSERT_EQ(comm.size(), static_cast<std::size_t>(kRanks)) << stats.out;
  const double planted_ns = 1e6 * kStragglerSleepMs * kSteps;
  double waited = NumberField(*comm[0], "Wait on ranks");
  EXPECT_GE(waited, 0.8 * planted_ns) << stats.out;
  EXPECT_LE(waited, 1.5 * planted_ns) << stats.out;
  EXPECT_LT(NumberField(*comm[kStragglerRank], "Wait on ranks"), 0.1 * planted_ns) << stats.out;

  // `gpuscope ranks`: the straggler finding names rank 1 and the time lost.
  CommandResult ranks =
      RunCommand({GpuscopeBinary(), "ranks", "--format", "json", paths[0], paths[1]});
  ASSERT_EQ(ranks.exit_code, 0) << ranks.Describe();
  std::vector<const JsonValue*> stragglers;
  // Kept for the whole test: `stragglers` points into it.
  const JsonValue page = ParsedJsonOrFail(ranks.out);
  ObjectsNaming(page, "rank_straggler", stragglers);
  ASSERT_EQ(stragglers.size(), 1u) << ranks.out;
  const JsonValue* message = stragglers[0]->Find("message");
  ASSERT_NE(message, nullptr) << ranks.out;
  EXPECT_NE(message->text.find("rank " + std::to_string(kStragglerRank)), std::string::npos)
      << message->text;
  CommandResult text = RunCommand({GpuscopeBinary(), "ranks", paths[0], paths[1]});
  EXPECT_EQ(text.exit_code, 0) << text.Describe();
  std::cout << text.out;  // for the lead's report: the page as a user reads it
}

TEST(GpuMultiGpu, AllGatherReduceScatterLoopEveryRankTraced) {
  REQUIRE_TWO_GPUS();
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  constexpr int kIterations = 20;
  ScratchDir dir;
  CommandResult run =
      TorchrunUnderGpuscope({"run", "-o", dir.path() + "/rank%q{RANK}.sqlite"}, "collectives.py",
                            {"--iterations", std::to_string(kIterations)});
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_TRUE(HasLineWithAll(run.out, {"collectives: ok rank " + std::to_string(rank)}))
        << run.out;
    std::string path = RankReport(dir, "rank", rank);
    Report report = LoadReport(path);
    ASSERT_NO_FATAL_FAILURE(ExpectNcclTraced(report, path));
    EXPECT_GE(NcclKernels(report, "AllGather").size(), static_cast<std::size_t>(kIterations));
    EXPECT_GE(NcclKernels(report, "ReduceScatter").size(), static_cast<std::size_t>(kIterations));
  }
}

// Kernel replay of one rank's collective alone would wait forever for the other rank: the
// injection lets it run unmeasured, says why once per process, and the job ends.
TEST(GpuMultiGpu, ProfilingAnNcclKernelInKernelReplayRefusesInsteadOfHanging) {
  REQUIRE_TWO_GPUS();
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  ScratchDir dir;
  CommandResult run = TorchrunUnderGpuscope(
      {"profile", "-k", "regex:nccl", "-c", "1", "-o", dir.path() + "/prof%q{RANK}.sqlite"},
      "ddp_train.py", {"--steps", "5"}, /*timeout_seconds=*/240);
  ASSERT_FALSE(run.timed_out) << "the job hung: " << run.Describe();
  ASSERT_FALSE(run.signaled) << run.Describe();
  std::size_t refusals = 0;
  for (std::size_t at = run.err.find("would deadlock"); at != std::string::npos;
       at = run.err.find("would deadlock", at + 1)) {
    ++refusals;
  }
  EXPECT_EQ(refusals, static_cast<std::size_t>(kRanks)) << "once per rank:\n" << run.err;
  EXPECT_NE(run.err.find("--replay-mode application"), std::string::npos) << run.err;
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_TRUE(HasLineWithAll(run.out, {"ddp_train: ok rank " + std::to_string(rank)}))
        << "the program ran on: " << run.out;
    Report report = LoadReport(RankReport(dir, "prof", rank));
    ASSERT_TRUE(Loaded(report));
    StatusOr<std::vector<store::StoredProfile>> profiled =
        store::ReadProfiledKernels(*report.reader);
    ASSERT_TRUE(profiled.ok()) << profiled.status().message();
    ASSERT_EQ(profiled->size(), 1u) << "-c 1";
    const store::StoredProfile& launch = profiled->front();
    EXPECT_TRUE(IsNcclKernel(launch.mangled_name)) << launch.mangled_name;
    EXPECT_EQ(launch.outcome, model::ProfileOutcome::kNotReplayable);
    EXPECT_NE(launch.message.find("would deadlock"), std::string::npos) << launch.message;
    EXPECT_EQ(launch.counter_data_size, 0u);
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
