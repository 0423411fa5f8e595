// The profile tables of a report: ProfiledKernelRecords through the production
// ReportWriter (OnProfiledKernel, zlib-compressed counter data) and back through
// profile_store's readers; evaluated metrics, findings and the request written back after
// the program (evaluation_writer, one transaction); reports of schema version 1 (no profile
// tables); damaged counter data.
#include "store/profile_store.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/counter_data_codec.h"
#include "store/evaluation_writer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

constexpr model::Timestamp kT0 = testing::kSampleStart;

constexpr const char* kMangled = "_Z6vecAddPKfS0_Pfi";
constexpr const char* kDemangled = "vecAdd(float const*, float const*, float*, int)";
constexpr const char* kPlainName = "plain_c_kernel";  // not mangled: demangles to itself
constexpr const char* kUnavailable =
    "no access to the GPU's performance counters (ERR_NVGPUCTRPERM): run as root";

// A counter-data-like image: runs of zeros (CUPTI's images are mostly zeros and headers)
// mixed with pseudo-random bytes, so compression neither vanishes nor is a no-op.
std::vector<std::uint8_t> VariedImage(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> image(size);
  std::uint32_t state = seed;
  for (std::size_t i = 0; i < size; ++i) {
    state = state * 1664525u + 1013904223u;  // LCG: deterministic, no library dependence
    const bool zero_run = (i / 4096) % 3 == 0;
    image[i] = zero_run ? 0 : static_cast<std::uint8_t>(state >> 24);
  }
  return image;
}

model::ProfiledKernelRecord Measured(const std::vector<std::uint8_t>& image) {
  model::ProfiledKernelRecord r;
  r.correlation_id = 77;
  r.device_id = 1;
  r.context_id = 2;
  r.stream_id = 13;
  r.invocation = 4;
  r.profile_index = 0;
  r.start = kT0 + 1'000;
  r.end = kT0 + 9'500'000;
  r.mangled_name = kMangled;
  r.chip = "GH100";
  r.passes = 37;
  r.replay_mode = model::ReplayMode::kKernel;
  r.outcome = model::ProfileOutcome::kMeasured;
  r.counter_data = image;
  return r;
}

model::ProfiledKernelRecord NotMeasured() {
  model::ProfiledKernelRecord r;
  r.correlation_id = 91;
  r.device_id = 0;
  r.context_id = 5;
  r.stream_id = 7;
  r.invocation = 2;
  r.profile_index = 1;
  r.start = kT0 + 20'000'000;
  r.end = kT0 + 20'000'500;
  r.mangled_name = kPlainName;
  r.chip = "GH100";
  r.passes = 1;
  r.replay_mode = model::ReplayMode::kApplication;
  r.outcome = model::ProfileOutcome::kCountersUnavailable;
  r.message = kUnavailable;
  return r;
}

// Metric values and the request alone, as an evaluation that found nothing to say writes them.
Status WriteMetrics(const std::string& path,
                    const std::map<std::int64_t, std::vector<StoredMetric>>& metrics,
                    const ProfileRequest& request) {
  EvaluationRows rows;
  rows.metrics = metrics;
  rows.request = request;
  return WriteEvaluation(path, rows);
}

class ProfileStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("profile.sqlite");
    big_image_ = VariedImage(300 * 1024 + 17, 1);
    small_image_ = VariedImage(4099, 2);
    auto created = ReportWriter::Create(path_, false);
    ASSERT_TRUE(created.ok()) << created.status().message();
    ReportWriter& writer = **created;
    model::ProcessRecord process;
    process.pid = 4242;
    process.parent_pid = 4241;
    process.hostname = "node-a";
    process.command_line = "./app";
    process.start = kT0 - 5'000;
    writer.OnProcess(process);
    // Written out of profile_index order: the reader must sort (index 2 before index 1).
    writer.OnProfiledKernel(Measured(big_image_));
    model::ProfiledKernelRecord third = Measured(small_image_);
    third.profile_index = 2;
    third.invocation = 5;
    third.correlation_id = 78;
    writer.OnProfiledKernel(third);
    writer.OnProfiledKernel(NotMeasured());
    ASSERT_TRUE(writer.Close().ok()) << writer.status().message();
    EXPECT_EQ(writer.records_not_written(), 0u);
  }

  std::unique_ptr<ReportReader> Open() {
    auto opened = ReportReader::Open(path_);
    EXPECT_TRUE(opened.ok()) << opened.status().message();
    return opened.ok() ? std::move(*opened) : nullptr;
  }

  std::vector<StoredProfile> Profiles(const ReportReader& reader) {
    StatusOr<std::vector<StoredProfile>> profiles = ReadProfiledKernels(reader);
    EXPECT_TRUE(profiles.ok()) << profiles.status().message();
    return profiles.ok() ? *profiles : std::vector<StoredProfile>{};
  }

  test::TempDir dir_;
  std::string path_;
  std::vector<std::uint8_t> big_image_;
  std::vector<std::uint8_t> small_image_;
};

// Guards every column of profiled_kernels: binding order in the writer, column order in
// the reader, absolute times, demangling through the strings table, the ordering.
TEST_F(ProfileStoreTest, EveryFieldRoundTripsInProfileIndexOrder) {
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  std::vector<StoredProfile> profiles = Profiles(*reader);
  ASSERT_EQ(profiles.size(), 3u);
  EXPECT_EQ(profiles[0].profile_index, 0u);
  EXPECT_EQ(profiles[1].profile_index, 1u);
  EXPECT_EQ(profiles[2].profile_index, 2u);

  const StoredProfile& measured = profiles[0];
  EXPECT_EQ(measured.correlation_id, 77u);
  EXPECT_EQ(measured.device_id, 1u);
  EXPECT_EQ(measured.context_id, 2u);
  EXPECT_EQ(measured.stream_id, 13u);
  EXPECT_EQ(measured.invocation, 4u);
  EXPECT_EQ(measured.mangled_name, kMangled);
  EXPECT_EQ(measured.demangled_name, kDemangled);
  EXPECT_EQ(measured.start, kT0 + 1'000);
  EXPECT_EQ(measured.end, kT0 + 9'500'000);
  EXPECT_EQ(measured.chip, "GH100");
  EXPECT_EQ(measured.passes, 37u);
  EXPECT_EQ(measured.replay_mode, model::ReplayMode::kKernel);
  EXPECT_EQ(measured.outcome, model::ProfileOutcome::kMeasured);
  EXPECT_EQ(measured.message, "");
  EXPECT_EQ(measured.counter_data_size, big_image_.size());

  const StoredProfile& failed = profiles[1];
  EXPECT_EQ(failed.correlation_id, 91u);
  EXPECT_EQ(failed.device_id, 0u);
  EXPECT_EQ(failed.context_id, 5u);
  EXPECT_EQ(failed.stream_id, 7u);
  EXPECT_EQ(failed.invocation, 2u);
  EXPECT_EQ(failed.mangled_name, kPlainName);
  EXPECT_EQ(failed.demangled_name, kPlainName);
  EXPECT_EQ(failed.start, kT0 + 20'000'000);
  EXPECT_EQ(failed.end, kT0 + 20'000'500);
  EXPECT_EQ(failed.passes, 1u);
  EXPECT_EQ(failed.replay_mode, model::ReplayMode::kApplication);
  EXPECT_EQ(failed.outcome, model::ProfileOutcome::kCountersUnavailable);
  EXPECT_EQ(failed.message, kUnavailable);
  EXPECT_EQ(failed.counter_data_size, 0u);

  EXPECT_EQ(profiles[2].invocation, 5u);
  EXPECT_EQ(profiles[2].correlation_id, 78u);
  EXPECT_EQ(profiles[2].counter_data_size, small_image_.size());
  // Two profiles of one kernel share its interned name.
  EXPECT_EQ(profiles[2].demangled_name, kDemangled);
}

// Guards compression on the way in and decompression on the way out: bytes identical.
TEST_F(ProfileStoreTest, CounterDataComesBackByteForByteAndIsStoredCompressed) {
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  std::vector<StoredProfile> profiles = Profiles(*reader);
  ASSERT_EQ(profiles.size(), 3u);

  StatusOr<std::vector<std::uint8_t>> big = ReadCounterData(*reader, profiles[0].id);
  ASSERT_TRUE(big.ok()) << big.status().message();
  EXPECT_TRUE(*big == big_image_) << "the counter data changed on its way through the report";
  StatusOr<std::vector<std::uint8_t>> small = ReadCounterData(*reader, profiles[2].id);
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_TRUE(*small == small_image_);

  const std::int64_t stored =
      test::QueryInt(path_, "SELECT length(counter_data) FROM profiled_kernels WHERE id = " +
                                std::to_string(profiles[0].id));
  EXPECT_GT(stored, 0);
  EXPECT_LT(stored, static_cast<std::int64_t>(big_image_.size()))
      << "a third of the image is zeros: the stored blob must be compressed";
  EXPECT_EQ(test::QueryText(path_, "SELECT typeof(counter_data) FROM profiled_kernels WHERE id = " +
                                       std::to_string(profiles[1].id)),
            "null");
}

// A kernel that was not measured, and an id that does not exist: clear one-line errors.
TEST_F(ProfileStoreTest, MissingCounterDataIsAnError) {
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  std::vector<StoredProfile> profiles = Profiles(*reader);
  ASSERT_EQ(profiles.size(), 3u);
  StatusOr<std::vector<std::uint8_t>> none = ReadCounterData(*reader, profiles[1].id);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("no counter data"), std::string::npos)
      << none.status().message();
  StatusOr<std::vector<std::uint8_t>> unknown = ReadCounterData(*reader, 999);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("999"), std::string::npos)
      << unknown.status().message();
  EXPECT_EQ(unknown.status().message().find('\n'), std::string::npos);
}

// Guards WriteEvaluation's metrics / ReadKernelMetrics / ReadProfileRequest: values, NULL as
// nullopt, units, the request; re-writing a kernel replaces its rows and only its rows.
TEST_F(ProfileStoreTest, MetricsAndRequestRoundTripAndRewritingReplaces) {
  std::int64_t first = 0;
  std::int64_t third = 0;
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    std::vector<StoredProfile> profiles = Profiles(*reader);
    ASSERT_EQ(profiles.size(), 3u);
    first = profiles[0].id;
    third = profiles[2].id;
    StatusOr<std::map<std::int64_t, std::vector<StoredMetric>>> empty = ReadKernelMetrics(*reader);
    ASSERT_TRUE(empty.ok()) << empty.status().message();
    EXPECT_TRUE(empty->empty());
    StatusOr<ProfileRequest> no_request = ReadProfileRequest(*reader);
    ASSERT_TRUE(no_request.ok()) << no_request.status().message();
    EXPECT_FALSE(no_request->present);
  }

  std::map<std::int64_t, std::vector<StoredMetric>> metrics;
  metrics[first] = {{"dram__bytes.sum", 123456789.0, "byte"},
                    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", std::nullopt, "%"}};
  metrics[third] = {{"gpu__time_duration.sum", 2048.5, "nsecond"}};
  ProfileRequest request;
  request.sections = {"SpeedOfLight", "Occupancy"};
  request.metrics = {"dram__bytes.sum", "gpu__time_duration.sum"};
  Status written = WriteMetrics(path_, metrics, request);
  ASSERT_TRUE(written.ok()) << written.message();

  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    auto read = ReadKernelMetrics(*reader);
    ASSERT_TRUE(read.ok()) << read.status().message();
    ASSERT_EQ(read->size(), 2u);
    const std::vector<StoredMetric>& a = read->at(first);
    ASSERT_EQ(a.size(), 2u);  // by name
    EXPECT_EQ(a[0].name, "dram__bytes.sum");
    ASSERT_TRUE(a[0].value.has_value());
    EXPECT_DOUBLE_EQ(*a[0].value, 123456789.0);
    EXPECT_EQ(a[0].unit, "byte");
    EXPECT_EQ(a[1].name, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
    EXPECT_FALSE(a[1].value.has_value()) << "NULL must read back as nullopt, not 0";
    EXPECT_EQ(a[1].unit, "%");
    const std::vector<StoredMetric>& c = read->at(third);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].name, "gpu__time_duration.sum");
    EXPECT_DOUBLE_EQ(c[0].value.value_or(-1), 2048.5);

    auto back = ReadProfileRequest(*reader);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_TRUE(back->present);
    EXPECT_EQ(back->sections, request.sections);
    EXPECT_EQ(back->metrics, request.metrics);
  }

  // Evaluating again (another CUPTI, another request) replaces the first kernel's rows.
  std::map<std::int64_t, std::vector<StoredMetric>> again;
  again[first] = {{"smsp__inst_executed.sum", 42.0, "inst"}};
  ProfileRequest narrower;
  narrower.sections = {"LaunchStats"};
  ASSERT_TRUE(WriteMetrics(path_, again, narrower).ok());
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  auto read = ReadKernelMetrics(*reader);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->at(first).size(), 1u) << "the old rows of the kernel must be gone";
  EXPECT_EQ(read->at(first)[0].name, "smsp__inst_executed.sum");
  EXPECT_DOUBLE_EQ(read->at(first)[0].value.value_or(-1), 42.0);
  EXPECT_EQ(read->at(third).size(), 1u) << "a kernel not re-written keeps its rows";
  auto back = ReadProfileRequest(*reader);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->sections, std::vector<std::string>{"LaunchStats"});
  EXPECT_TRUE(back->metrics.empty());
  // The report is one self-contained file again, still readable as a whole.
  EXPECT_FALSE(test::FileExists(path_ + "-wal") && test::FileSize(path_ + "-wal") > 0);
}

// Guards WriteEvaluation's findings / ReadKernelFindings: every field, rank order, NULL
// speedup as nullopt; values, findings and request committed as one transaction.
TEST_F(ProfileStoreTest, FindingsRoundTripWithTheValuesInOneTransaction) {
  std::int64_t first = 0;
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    first = Profiles(*reader).at(0).id;
  }
  EvaluationRows rows;
  rows.metrics[first] = {{"dram__bytes.sum", 1024.0, "byte"}};
  rows.findings[first] = {
      {"smem_bank_conflicts", "OPT", "MemoryWorkloadAnalysis", "Shared Memory Bank Conflicts",
       "4.0-way conflicts", 37.5, "conflicts / requests"},
      {"small_grid", "INF", "LaunchStats", "Small Grid", "2 blocks", std::nullopt, ""}};
  rows.request.sections = {"MemoryWorkloadAnalysis"};
  const std::uint32_t before = test::FileChangeCounter(path_);
  Status written = WriteEvaluation(path_, rows);
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(test::FileChangeCounter(path_), before + 1) << "one committed transaction";

  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  auto findings = ReadKernelFindings(*reader);
  ASSERT_TRUE(findings.ok()) << findings.status().message();
  ASSERT_EQ(findings->size(), 1u);
  const std::vector<StoredFinding>& list = findings->at(first);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].rule_id, "smem_bank_conflicts");  // rank 0 first
  EXPECT_EQ(list[0].severity, "OPT");
  EXPECT_EQ(list[0].section, "MemoryWorkloadAnalysis");
  EXPECT_EQ(list[0].title, "Shared Memory Bank Conflicts");
  EXPECT_EQ(list[0].message, "4.0-way conflicts");
  EXPECT_DOUBLE_EQ(list[0].speedup_pct.value_or(-1), 37.5);
  EXPECT_EQ(list[0].speedup_formula, "conflicts / requests");
  EXPECT_EQ(list[1].rule_id, "small_grid");
  EXPECT_FALSE(list[1].speedup_pct.has_value()) << "NULL must read back as nullopt, not 0";
  auto metrics = ReadKernelMetrics(*reader);
  ASSERT_TRUE(metrics.ok()) << metrics.status().message();
  EXPECT_EQ(metrics->at(first).size(), 1u);
}

// Guards the one transaction: a step that fails after the values were written (here the
// findings, refused by a constraint) leaves the values, findings and request as they were.
TEST_F(ProfileStoreTest, AFailurePartWayLeavesTheReportAsItWas) {
  std::int64_t first = 0;
  std::int64_t third = 0;
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    first = Profiles(*reader).at(0).id;
    third = Profiles(*reader).at(2).id;
  }
  ProfileRequest earlier;
  earlier.sections = {"LaunchStats"};
  ASSERT_TRUE(
      WriteMetrics(path_, {{third, {{"gpu__time_duration.sum", 1.0, "nsecond"}}}}, earlier).ok());
  // The file's own table refuses every finding (a trigger is refused before any write:
  // schema_objects.h).
  test::ExecSql(path_,
                "DROP TABLE kernel_findings; CREATE TABLE kernel_findings (profiled_kernel_id "
                "INTEGER NOT NULL, rank INTEGER NOT NULL CONSTRAINT refused_by_the_test CHECK "
                "(rank < 0), rule_id TEXT NOT NULL, severity TEXT NOT NULL, section TEXT NOT NULL, "
                "title TEXT NOT NULL, message TEXT NOT NULL, speedup_pct REAL, speedup_formula "
                "TEXT NOT NULL, PRIMARY KEY (profiled_kernel_id, rank)) WITHOUT ROWID");

  EvaluationRows rows;
  rows.metrics[first] = {{"dram__bytes.sum", 1024.0, "byte"}};
  rows.metrics[third] = {{"dram__bytes.sum", 2048.0, "byte"}};
  rows.findings[first] = {
      {"small_grid", "INF", "LaunchStats", "Small Grid", "2 blocks", std::nullopt, ""}};
  rows.request.sections = {"SpeedOfLight"};
  Status written = WriteEvaluation(path_, rows);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find("cannot store the findings in " + path_), std::string::npos)
      << written.message();
  EXPECT_NE(written.message().find("refused_by_the_test"), std::string::npos) << written.message();

  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  auto metrics = ReadKernelMetrics(*reader);
  ASSERT_TRUE(metrics.ok()) << metrics.status().message();
  EXPECT_EQ(metrics->count(first), 0u) << "no partial kernel_metrics rows";
  ASSERT_EQ(metrics->at(third).size(), 1u);
  EXPECT_EQ(metrics->at(third)[0].name, "gpu__time_duration.sum") << "the earlier values stay";
  auto request = ReadProfileRequest(*reader);
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->sections, std::vector<std::string>{"LaunchStats"});
}

// Guards "findings empty: kernel_findings is left alone": a report written before the table
// existed does not get it from an evaluation that measured nothing.
TEST_F(ProfileStoreTest, NoFindingsLeaveTheFindingsTableAlone) {
  test::ExecSql(path_, "DROP TABLE kernel_findings");
  ProfileRequest request;
  request.sections = {"LaunchStats"};
  ASSERT_TRUE(WriteMetrics(path_, {}, request).ok());
  EXPECT_EQ(
      test::QueryInt(path_, "SELECT count(*) FROM sqlite_master WHERE name = 'kernel_findings'"),
      0);
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  auto back = ReadProfileRequest(*reader);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->sections, request.sections);
}

// Guards the corruption path: a damaged blob is a one-line error, not a crash or garbage.
TEST_F(ProfileStoreTest, CorruptCounterDataIsAOneLineError) {
  std::int64_t id = 0;
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    std::vector<StoredProfile> profiles = Profiles(*reader);
    ASSERT_EQ(profiles.size(), 3u);
    id = profiles[0].id;
  }
  test::ExecSql(path_, "UPDATE profiled_kernels SET counter_data = x'00112233' WHERE id = " +
                           std::to_string(id));
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(Profiles(*reader).size(), 3u) << "the listing does not depend on the blobs";
  StatusOr<std::vector<std::uint8_t>> image = ReadCounterData(*reader, id);
  ASSERT_FALSE(image.ok());
  const std::string& message = image.status().message();
  EXPECT_NE(message.find("corrupt"), std::string::npos) << message;
  EXPECT_NE(message.find(path_), std::string::npos) << "names the report: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// Guards schema-version gating: a version-1 report (recorded on the H200 before profiling
// existed) reads as "no profiled kernels", not as an SQL error about a missing table.
TEST(ProfileStoreV1Test, VersionOneReportHasNoProfiledKernels) {
  test::TempDir dir;
  const std::string path = dir.File("h100_add.sqlite");
  std::filesystem::copy_file(std::string(GPUSCOPE_TEST_DATA_DIR) +
                                 "/reports/legacy/h200_add_2026-11-21.sqlite",
                             path);
  auto opened = ReportReader::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  const ReportReader& reader = **opened;
  ASSERT_EQ(reader.schema_version(), 1);

  auto profiles = ReadProfiledKernels(reader);
  ASSERT_TRUE(profiles.ok()) << profiles.status().message();
  EXPECT_TRUE(profiles->empty());
  auto metrics = ReadKernelMetrics(reader);
  ASSERT_TRUE(metrics.ok()) << metrics.status().message();
  EXPECT_TRUE(metrics->empty());
  auto request = ReadProfileRequest(reader);
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_FALSE(request->present);
  auto image = ReadCounterData(reader, 1);
  ASSERT_FALSE(image.ok());
  EXPECT_NE(image.status().message().find("no profiled kernels"), std::string::npos)
      << image.status().message();
}

// Guards the codec directly: round trip, and a stored size that does not match is
// corruption (both directions), as is data that is not zlib at all.
TEST(CounterDataCodecTest, RoundTripAndSizeMismatch) {
  const std::vector<std::uint8_t> image = VariedImage(64 * 1024 + 3, 7);
  auto packed = CompressCounterData(image);
  ASSERT_TRUE(packed.ok()) << packed.status().message();
  EXPECT_LT(packed->size(), image.size());
  auto unpacked = DecompressCounterData(*packed, image.size());
  ASSERT_TRUE(unpacked.ok()) << unpacked.status().message();
  EXPECT_TRUE(*unpacked == image);

  auto too_big = DecompressCounterData(*packed, image.size() + 1);
  ASSERT_FALSE(too_big.ok());
  EXPECT_NE(too_big.status().message().find("corrupt"), std::string::npos);
  auto too_small = DecompressCounterData(*packed, image.size() - 1);
  EXPECT_FALSE(too_small.ok());
  const std::vector<std::uint8_t> garbage = {0x00, 0x11, 0x22, 0x33};
  auto not_zlib = DecompressCounterData(garbage, image.size());
  ASSERT_FALSE(not_zlib.ok());
  EXPECT_EQ(not_zlib.status().message().find('\n'), std::string::npos);
}

// A damaged report's size field must not turn into a huge allocation (it used to throw
// std::length_error out of `gpuscope stats --page`).
TEST(CounterDataCodecTest, ImpossibleSizesAreCorruptionNotAllocations) {
  const std::vector<std::uint8_t> image(4096, 7);
  auto packed = CompressCounterData(image);
  ASSERT_TRUE(packed.ok());
  for (std::size_t size : {std::size_t{0}, std::size_t{1} << 40, static_cast<std::size_t>(-1)}) {
    auto unpacked = DecompressCounterData(*packed, size);
    ASSERT_FALSE(unpacked.ok()) << size;
    EXPECT_NE(unpacked.status().message().find("corrupt counter data"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpuscope::store
