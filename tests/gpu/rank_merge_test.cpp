// Issue 16 on one GPU: four processes, each under its own `gpuscope run -o rank%q{RANK}.sqlite`
// (as a launcher starts the ranks of a job), meet at host barriers (examples/rank_barriers.cu).
// Each report must name its rank, world size and the host's boot id and hold clock samples;
// aligned (`gpuscope stats --report rank_align`) the marker launches right after each barrier
// must agree across the four reports within kSimultaneous; merged (`export --format chrome`
// of all four) every rank gets its row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "expected_counts.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;

constexpr int kRanks = 4;
// How far apart the launch calls right after one barrier may start once aligned. The
// barrier releases the spinning ranks within microseconds; the bound leaves room for a rank
// descheduled for a moment on a shared machine, and is far below the stagger before each
// barrier (kRankStaggerMs per rank), so a wrong alignment or a wrong pairing cannot pass.
constexpr std::int64_t kSimultaneous = 1'000'000;  // 1 ms

std::string Quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ReportPath(const ScratchDir& dir, int rank) {
  return dir.path() + "/rank" + std::to_string(rank) + ".sqlite";
}

// The four ranks, started together, each under its own gpuscope; the shell's exit code is
// 0 only when every one of them exited 0.
CommandResult RunRanks(const ScratchDir& dir) {
  std::ostringstream script;
  script << "pids=''; for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r WORLD_SIZE=" << kRanks << " "
         << Quoted(GpuscopeBinary()) << " run -o " << Quoted(dir.path() + "/rank%q{RANK}.sqlite")
         << " -- " << Quoted(ExampleBinary("rank_barriers")) << " " << ex::kRankBarrierFileArgument
         << " " << Quoted(dir.path() + "/barriers") << " > " << Quoted(dir.path())
         << "/out$r 2>&1 & pids=\"$pids $!\"; done; "
         << "status=0; for p in $pids; do wait $p || status=1; done; "
         << "cat " << Quoted(dir.path()) << "/out*; exit $status";
  return RunCommand({"/bin/sh", "-c", script.str()}, {}, 300);
}

// CSV rows of a `gpuscope stats --format csv` table whose header starts with `first_column`,
// as column name -> value (fields may be quoted, "" inside quotes).
std::vector<std::map<std::string, std::string>> CsvTable(const std::string& text,
                                                         const std::string& first_column) {
  auto split = [](const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    return fields;
  };
  std::vector<std::map<std::string, std::string>> rows;
  std::istringstream in(text);
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (header.empty()) {
      if (line.rfind(first_column + ",", 0) == 0) header = split(line);
      continue;
    }
    if (line.empty()) break;
    const std::vector<std::string> fields = split(line);
    if (fields.size() != header.size()) break;
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
  }
  return rows;
}

// Start times of the launch calls of the marker kernel, in order.
std::vector<model::Timestamp> MarkerLaunchStarts(const Report& report) {
  std::set<std::uint32_t> markers;
  for (const Kernel& kernel : report.KernelsNamed(ex::kRankMarkerKernel)) {
    markers.insert(kernel.record.correlation_id);
  }
  std::vector<model::Timestamp> starts;
  for (const ApiCall& call : report.api_calls) {
    if (call.record.domain == model::ApiDomain::kRuntime &&
        markers.count(call.record.correlation_id)) {
      starts.push_back(call.record.start);
    }
  }
  std::sort(starts.begin(), starts.end());
  return starts;
}

TEST(GpuRanks, FourProcessesOnOneGpuAlignAndMerge) {
  ScratchDir dir;
  const CommandResult ranks = RunRanks(dir);
  ASSERT_TRUE(ranks.started && !ranks.timed_out && ranks.exit_code == 0)
      << ranks.Describe() << ranks.out;
  std::vector<Report> reports;
  std::vector<std::string> paths;
  for (int rank = 0; rank < kRanks; ++rank) {
    paths.push_back(ReportPath(dir, rank));
    reports.push_back(LoadReport(paths.back()));
    ASSERT_TRUE(Loaded(reports.back()));
    ExpectNothingLost(reports.back());
  }

  // Each report knows its rank, and the four share one host and one boot.
  std::set<std::string> boot_ids, hostnames;
  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const store::ReportReader& reader = *reports[static_cast<std::size_t>(rank)].reader;
    const store::ProcessInfo& process = reader.process();
    EXPECT_EQ(process.rank, rank);
    EXPECT_EQ(process.local_rank, rank);
    EXPECT_EQ(process.world_size, kRanks);
    EXPECT_EQ(process.rank_variable, "RANK");
    EXPECT_EQ(process.boot_id.size(), 36u) << "'" << process.boot_id << "'";
    boot_ids.insert(process.boot_id);
    hostnames.insert(process.hostname);
    // Clock samples at the start, at each flush and at the end, in time order, CUPTI's clock
    // being CLOCK_REALTIME (its default).
    const std::vector<store::ClockSample>& samples = reader.ClockSamples();
    ASSERT_GE(samples.size(), 2u);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const store::ClockSample& sample = samples[i];
      EXPECT_LT(std::llabs(sample.realtime_ns - static_cast<std::int64_t>(sample.cupti_ns)),
                1'000'000)
          << "sample " << i;
      if (i > 0) {
        EXPECT_GE(sample.cupti_ns, samples[i - 1].cupti_ns);
        EXPECT_GE(sample.monotonic_ns, samples[i - 1].monotonic_ns);
      }
    }
    EXPECT_LE(samples.front().cupti_ns, reader.process().start + 1'000'000'000ull);
    ASSERT_EQ(reports[static_cast<std::size_t>(rank)].CountKernels(ex::kRankMarkerKernel),
              ex::kRankBarrierRounds);
  }
  EXPECT_EQ(boot_ids.size(), 1u);
  EXPECT_EQ(hostnames.size(), 1u);

  // Aligned: one host, so every offset comes from the host clock (0), with a stated error.
  std::vector<std::string> align = {GpuscopeBinary(), "stats",    "--report",
                                    "rank_align",     "--format", "csv"};
  align.insert(align.end(), paths.begin(), paths.end());
  const CommandResult aligned = RunCommand(align);
  ASSERT_EQ(aligned.exit_code, 0) << aligned.Describe();
  const auto rows = CsvTable(aligned.out, "Rank");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kRanks)) << aligned.out;
  std::map<int, std::int64_t> offset_by_rank;
  for (const auto& row : rows) {
    const int rank = std::stoi(row.at("Rank"));
    offset_by_rank[rank] = std::stoll(row.at("Offset (ns)"));
    const std::string& method = row.at("Method");
    EXPECT_EQ(method, rank == 0 ? "reference" : "same host") << aligned.out;
    EXPECT_GE(std::stoll(row.at("Error (ns)")), 0) << "an error bound is stated: " << aligned.out;
  }
  ASSERT_EQ(offset_by_rank.size(), static_cast<std::size_t>(kRanks)) << aligned.out;

  // The marker launches right after each barrier start together on the aligned axis.
  std::vector<std::vector<model::Timestamp>> starts;
  for (int rank = 0; rank < kRanks; ++rank) {
    starts.push_back(MarkerLaunchStarts(reports[static_cast<std::size_t>(rank)]));
    ASSERT_EQ(starts.back().size(), static_cast<std::size_t>(ex::kRankBarrierRounds));
  }
  std::int64_t worst = 0;
  for (int round = 0; round < ex::kRankBarrierRounds; ++round) {
    std::int64_t earliest = INT64_MAX, latest = INT64_MIN;
    for (int rank = 0; rank < kRanks; ++rank) {
      const std::int64_t aligned_start =
          static_cast<std::int64_t>(
              starts[static_cast<std::size_t>(rank)][static_cast<std::size_t>(round)]) +
          offset_by_rank[rank];
      earliest = std::min(earliest, aligned_start);
      latest = std::max(latest, aligned_start);
    }
    EXPECT_LE(latest - earliest, kSimultaneous) << "round " << round + 1;
    worst = std::max(worst, latest - earliest);
  }
  std::printf("marker launches after each barrier: at most %lld ns apart across the %d ranks\n",
              static_cast<long long>(worst), kRanks);
  RecordProperty("worst_marker_spread_ns", std::to_string(worst));

  // Merged: one Chrome trace of the four reports, one process row per rank.
  const std::string merged = dir.path() + "/merged.json";
  std::vector<std::string> export_all = {GpuscopeBinary(), "export", "--format",
                                         "chrome",         "-o",     merged};
  export_all.insert(export_all.end(), paths.begin(), paths.end());
  const CommandResult exported = RunCommand(export_all);
  ASSERT_EQ(exported.exit_code, 0) << exported.Describe();
  std::ifstream in(merged);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_NE(json.find("\"rank " + std::to_string(rank) + " ("), std::string::npos)
        << "no process row labelled rank " << rank << " in " << merged;
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
