#include "writer_failure_check.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <sstream>
#include <vector>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/synthetic_trace.h"

namespace gpuscope::store::test {

namespace {

constexpr model::Timestamp kStart = testing::SyntheticTraceOptions{}.start_time;
constexpr std::uint64_t kKernelsPerFlush = 1000;

// Each flush is one second after the previous one, so "incomplete from" is predictable, and
// later than every record it commits (a flush of 8,000 synthetic launches spans ~50 ms of
// trace time): the readers skip records after a run's end as damaged.
constexpr model::Timestamp kFlushStepNs = 1'000'000'000;
std::atomic<std::uint64_t> flushes{0};
model::Timestamp SecondPerFlush() { return kStart + (++flushes) * kFlushStepNs; }

std::map<std::string, std::string> Parse(const std::string& account) {
  std::map<std::string, std::string> values;
  std::istringstream lines(account);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t equals = line.find('=');
    if (equals != std::string::npos) values[line.substr(0, equals)] = line.substr(equals + 1);
  }
  return values;
}

std::uint64_t Number(const std::map<std::string, std::string>& values, const std::string& key) {
  auto found = values.find(key);
  return found == values.end() ? 0 : std::stoull(found->second);
}

std::string Describe(const LossByTable& losses) {
  std::string text;
  for (const auto& [table, count] : losses) text += table + ":" + std::to_string(count) + " ";
  return text;
}

}  // namespace

std::string WriteUntilFull(const std::string& path, std::uint64_t kernels,
                           std::uint64_t fill_after_flushes, const std::function<void()>& fill,
                           std::uint64_t kernels_per_flush) {
  std::ostringstream out;
  flushes = 0;
  auto created = ReportWriter::Create(path, false);
  if (!created.ok()) return "create_error=" + created.status().message() + "\n";
  ReportWriter& writer = *created.value();
  writer.set_clock(SecondPerFlush);
  std::vector<std::string> messages;
  writer.set_failure_observer([&](const std::string& message) { messages.push_back(message); });

  // In two parts when something else fills the disk in between; each part starts with the
  // process, device, context and stream records.
  testing::SyntheticTraceOptions options;
  options.flush_every_kernels = kernels_per_flush;
  const std::uint64_t first =
      fill ? std::min(kernels, fill_after_flushes * kernels_per_flush) : kernels;
  options.kernels = first;
  testing::WriteSyntheticTrace(writer, options);
  std::uint64_t sent = 2 * first + 4;
  if (fill) {
    fill();
    options.kernels = kernels - first;
    options.seed = 2;
    testing::WriteSyntheticTrace(writer, options);
    sent += 2 * (kernels - first) + 4;
  }
  Status closed = writer.Close();
  out << "sent=" << sent << "\nclose=" << closed.message() << "\nlost=" << writer.records_not_written()
      << "\nlost_by_table=" << Describe(writer.records_not_written_by_table())
      << "\nloss_stored=" << writer.loss_stored() << "\nsummary=" << writer.LossSummary()
      << "\nmessages=" << messages.size() << "\n";
  for (const std::string& message : messages) out << "message=" << message << "\n";

  Status finalized = FinalizeReport(path);
  out << "finalize=" << (finalized.ok() ? "ok" : finalized.message()) << "\n";
  auto reader = ReportReader::Open(path);
  if (!reader.ok()) {
    out << "open=" << reader.status().message() << "\n";
    return out.str();
  }
  const ReportReader& report = *reader.value();
  std::uint64_t decoded = 0;
  Status read = report.ForEachKernel([&](const KernelRow&) {
    ++decoded;
    return true;
  });
  out << "open=ok\nread=" << (read.ok() ? "ok" : read.message())
      << "\nkernels=" << report.CountRows("kernels").value()
      << "\napi_calls=" << report.CountRows("api_calls").value() << "\ndecoded=" << decoded
      << "\nstored_lost=" << report.records_not_written()
      << "\nstored_lost_by_table=" << Describe(report.records_not_written_by_table())
      << "\nwrite_error=" << report.write_error()
      << "\ncomplete_until_flush=" << (report.complete_until() - kStart) / kFlushStepNs
      << "\nflushes=" << flushes << "\nfinalized=" << report.finalized()
      << "\nclosed_by_writer=" << report.closed_by_writer().value_or(false) << "\n";
  return out.str();
}

void ExpectCompleteAccount(const std::string& account, std::uint64_t kernels) {
  const std::map<std::string, std::string> v = Parse(account);
  SCOPED_TRACE(account);
  ASSERT_EQ(v.count("create_error"), 0u);
  // The writer failed: one line, naming the report, and Close returns that error.
  EXPECT_NE(v.at("close").find("report "), std::string::npos);
  const std::uint64_t lost = Number(v, "lost");
  EXPECT_GT(lost, 0u);
  EXPECT_LT(lost, 2 * kernels) << "nothing was kept";
  // Said once, with the time the data is complete up to.
  ASSERT_EQ(Number(v, "messages"), 1u);
  const std::string& message = v.at("message");
  EXPECT_NE(message.find(" is incomplete from "), std::string::npos);
  EXPECT_NE(message.find(" ms after tracing began") == std::string::npos
                ? message.find(" s after tracing began")
                : 0,
            std::string::npos);
  EXPECT_EQ(message.find('\n'), std::string::npos);
  // Counted, stored, and the report is whole and readable.
  EXPECT_EQ(v.at("loss_stored"), "1");
  EXPECT_EQ(v.at("finalize"), "ok");
  ASSERT_EQ(v.at("open"), "ok");
  EXPECT_EQ(v.at("read"), "ok");
  EXPECT_EQ(Number(v, "stored_lost"), lost);
  EXPECT_EQ(v.at("stored_lost_by_table"), v.at("lost_by_table"));
  EXPECT_NE(v.at("lost_by_table").find("kernels:"), std::string::npos);
  EXPECT_FALSE(v.at("write_error").empty());
  EXPECT_EQ(v.at("finalized"), "1");
  EXPECT_EQ(v.at("closed_by_writer"), "1");
  const std::uint64_t kept_kernels = Number(v, "kernels");
  EXPECT_GT(kept_kernels, 0u);
  EXPECT_EQ(Number(v, "decoded"), kept_kernels);
  // Complete up to the last commit before the failure, which is in the past of the close.
  EXPECT_GT(Number(v, "complete_until_flush"), 0u);
  EXPECT_LE(Number(v, "complete_until_flush"), Number(v, "flushes"));
  // Every record is in the report or counted as not written, table by table.
  std::map<std::string, std::uint64_t> lost_by_table;
  std::uint64_t sum_by_table = 0;
  std::istringstream tables(v.at("lost_by_table"));
  std::string entry;
  while (tables >> entry) {
    const std::size_t colon = entry.find(':');
    lost_by_table[entry.substr(0, colon)] = std::stoull(entry.substr(colon + 1));
    sum_by_table += lost_by_table[entry.substr(0, colon)];
  }
  EXPECT_EQ(sum_by_table, lost);
  EXPECT_EQ(kept_kernels + lost_by_table["kernels"], kernels);
  EXPECT_EQ(Number(v, "api_calls") + lost_by_table["api_calls"], kernels);
}

}  // namespace gpuscope::store::test
