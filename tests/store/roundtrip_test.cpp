// Every record type through the production writer and back through the reader, every
// field compared.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/schema.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

constexpr model::Timestamp kT0 = testing::kSampleStart;

// Compares one field and names it in the failure message.
#define EXPECT_FIELD(field) EXPECT_EQ(actual.field, expected.field) << #field

void ExpectSame(const model::KernelRecord& actual, const model::KernelRecord& expected) {
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(device_id);
  EXPECT_FIELD(context_id);
  EXPECT_FIELD(stream_id);
  EXPECT_FIELD(correlation_id);
  EXPECT_FIELD(grid_id);
  EXPECT_FIELD(grid_x);
  EXPECT_FIELD(grid_y);
  EXPECT_FIELD(grid_z);
  EXPECT_FIELD(block_x);
  EXPECT_FIELD(block_y);
  EXPECT_FIELD(block_z);
  EXPECT_FIELD(cluster_x);
  EXPECT_FIELD(cluster_y);
  EXPECT_FIELD(cluster_z);
  EXPECT_FIELD(registers_per_thread);
  EXPECT_FIELD(static_shared_memory);
  EXPECT_FIELD(dynamic_shared_memory);
  EXPECT_FIELD(shared_memory_executed);
  EXPECT_FIELD(local_memory_per_thread);
  EXPECT_FIELD(local_memory_total);
  EXPECT_FIELD(graph_id);
  EXPECT_FIELD(graph_node_id);
  EXPECT_FIELD(launch_type);
  EXPECT_FIELD(cache_config);
  EXPECT_FIELD(device_launched);
  EXPECT_FIELD(mangled_name);
}

void ExpectSame(const model::MemcpyRecord& actual, const model::MemcpyRecord& expected) {
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(device_id);
  EXPECT_FIELD(context_id);
  EXPECT_FIELD(stream_id);
  EXPECT_FIELD(correlation_id);
  EXPECT_FIELD(runtime_correlation_id);
  EXPECT_FIELD(copy_kind);
  EXPECT_FIELD(src_kind);
  EXPECT_FIELD(dst_kind);
  EXPECT_FIELD(is_async);
  EXPECT_FIELD(bytes);
  EXPECT_FIELD(src_device_id);
  EXPECT_FIELD(dst_device_id);
  EXPECT_FIELD(graph_id);
  EXPECT_FIELD(graph_node_id);
}

void ExpectSame(const model::MemsetRecord& actual, const model::MemsetRecord& expected) {
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(device_id);
  EXPECT_FIELD(context_id);
  EXPECT_FIELD(stream_id);
  EXPECT_FIELD(correlation_id);
  EXPECT_FIELD(value);
  EXPECT_FIELD(memory_kind);
  EXPECT_FIELD(is_async);
  EXPECT_FIELD(bytes);
  EXPECT_FIELD(graph_id);
  EXPECT_FIELD(graph_node_id);
}

void ExpectSame(const model::ApiCallRecord& actual, const model::ApiCallRecord& expected) {
  EXPECT_FIELD(domain);
  EXPECT_FIELD(cbid);
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(process_id);
  EXPECT_FIELD(thread_id);
  EXPECT_FIELD(correlation_id);
  EXPECT_FIELD(return_value);
  EXPECT_FIELD(name);
  EXPECT_FIELD(stack_id);
}

void ExpectSame(const model::MemoryRecord& actual, const model::MemoryRecord& expected) {
  EXPECT_FIELD(timestamp);
  EXPECT_FIELD(op);
  EXPECT_FIELD(memory_kind);
  EXPECT_FIELD(address);
  EXPECT_FIELD(bytes);
  EXPECT_FIELD(device_id);
  EXPECT_FIELD(context_id);
  EXPECT_FIELD(stream_id);
  EXPECT_FIELD(correlation_id);
  EXPECT_FIELD(is_async);
  EXPECT_FIELD(pc);
}

void ExpectSame(const model::SyncRecord& actual, const model::SyncRecord& expected) {
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(kind);
  EXPECT_FIELD(context_id);
  EXPECT_FIELD(stream_id);
  EXPECT_FIELD(event_id);
  EXPECT_FIELD(correlation_id);
}

void ExpectSame(const model::NvtxRecord& actual, const model::NvtxRecord& expected) {
  EXPECT_FIELD(kind);
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(id);
  EXPECT_FIELD(thread_id);
  EXPECT_FIELD(process_id);
  EXPECT_FIELD(category);
  EXPECT_FIELD(color);
  EXPECT_FIELD(name);
  EXPECT_FIELD(domain);
}

void ExpectSame(const model::OverheadRecord& actual, const model::OverheadRecord& expected) {
  EXPECT_FIELD(start);
  EXPECT_FIELD(end);
  EXPECT_FIELD(overhead_kind);
  EXPECT_FIELD(process_id);
  EXPECT_FIELD(thread_id);
  EXPECT_FIELD(name);
}

void ExpectSame(const model::DeviceRecord& actual, const model::DeviceRecord& expected) {
  EXPECT_FIELD(id);
  EXPECT_FIELD(name);
  EXPECT_FIELD(uuid);
  EXPECT_FIELD(compute_major);
  EXPECT_FIELD(compute_minor);
  EXPECT_FIELD(num_sms);
  EXPECT_FIELD(warp_size);
  EXPECT_FIELD(max_threads_per_block);
  EXPECT_FIELD(max_warps_per_sm);
  EXPECT_FIELD(max_blocks_per_sm);
  EXPECT_FIELD(max_registers_per_sm);
  EXPECT_FIELD(max_registers_per_block);
  EXPECT_FIELD(max_shared_memory_per_sm);
  EXPECT_FIELD(max_shared_memory_per_block);
  EXPECT_FIELD(max_shared_memory_per_block_optin);
  EXPECT_FIELD(global_memory_bytes);
  EXPECT_FIELD(global_memory_bandwidth_kbps);
  EXPECT_FIELD(core_clock_khz);
  EXPECT_FIELD(l2_cache_bytes);
  EXPECT_FIELD(max_ipc);
  EXPECT_FIELD(ecc_enabled);
  EXPECT_FIELD(mig_enabled);
}

#undef EXPECT_FIELD

model::Timestamp FixedClock() { return kT0 + 9'000'000; }

// Collects every row of one ForEach into copies (views stay valid: the reader lives on).
template <typename Record, typename ForEach>
std::vector<Record> Collect(ForEach for_each) {
  std::vector<Record> rows;
  Status status = for_each([&](const Record& row) {
    rows.push_back(row);
    return true;
  });
  EXPECT_TRUE(status.ok()) << status.message();
  return rows;
}

class RoundTripTest : public ::testing::Test {
 protected:
  static constexpr int kEach = 3;

  void SetUp() override {
    auto created = ReportWriter::Create(path_, false);
    ASSERT_TRUE(created.ok()) << created.status().message();
    ReportWriter& writer = *created.value();
    writer.set_clock(&FixedClock);
    model::ProcessRecord process;
    process.pid = 4242;
    process.parent_pid = 4241;
    process.hostname = "node-a";
    process.command_line = "./app --size 3";
    process.start = kT0 - 5'000;
    writer.OnProcess(process);
    writer.OnDevice(testing::SampleDevice(0));
    writer.OnDevice(testing::SampleDevice(1));
    writer.OnContext({3, 1, 13});
    writer.OnStream({13, 3, -2, 1});
    writer.OnStream({14, 3, 0, 0});
    for (int i = 0; i < kEach; ++i) {
      writer.OnKernel(testing::SampleKernel(i));
      writer.OnMemcpy(testing::SampleMemcpy(i));
      writer.OnMemset(testing::SampleMemset(i));
      writer.OnApiCall(testing::SampleApiCall(i), /*nested_in_runtime=*/i == 1);
      writer.OnMemory(testing::SampleMemory(i));
      writer.OnSync(testing::SampleSync(i));
      writer.OnNvtx(testing::SampleNvtx(i));
      writer.OnOverhead(testing::SampleOverhead(i));
    }
    model::CollectionCounters counters;
    counters.dropped_records = 11;
    counters.kernels_without_timestamp = 12;
    counters.copies_without_timestamp = 13;
    counters.memsets_without_timestamp = 14;
    counters.unknown_records = 15;
    counters.unfinished_nvtx_ranges = 16;
    counters.unreadable_buffers = 17;
    writer.OnCounters(counters);
    ASSERT_TRUE(writer.Close().ok()) << writer.status().message();
    EXPECT_EQ(writer.records_not_written(), 0u);

    auto opened = ReportReader::Open(path_);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    reader_ = std::move(opened.value());
  }

  test::TempDir dir_;
  std::string path_ = dir_.File("report.sqlite");
  std::unique_ptr<ReportReader> reader_;
};

TEST_F(RoundTripTest, ProcessDevicesContextsStreamsAndMeta) {
  EXPECT_EQ(reader_->schema_version(), kSchemaVersion);
  EXPECT_TRUE(reader_->finalized());
  EXPECT_FALSE(reader_->writer_version().empty());
  const ProcessInfo& process = reader_->process();
  EXPECT_EQ(process.pid, 4242u);
  EXPECT_EQ(process.parent_pid, 4241u);
  EXPECT_EQ(process.hostname, "node-a");
  EXPECT_EQ(process.command_line, "./app --size 3");
  EXPECT_EQ(process.start, kT0 - 5'000);
  EXPECT_EQ(process.end, FixedClock());  // the last flush

  ASSERT_EQ(reader_->devices().size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const DeviceInfo& device = reader_->devices()[i];
    ExpectSame(device.record, testing::SampleDevice(i));
    EXPECT_EQ(device.name, "NVIDIA H200");
    EXPECT_EQ(device.record.name.data(), device.name.data());  // views into the row's strings
  }
  ASSERT_EQ(reader_->contexts().size(), 1u);
  EXPECT_EQ(reader_->contexts()[0].context_id, 3u);
  EXPECT_EQ(reader_->contexts()[0].device_id, 1u);
  EXPECT_EQ(reader_->contexts()[0].null_stream_id, 13u);
  ASSERT_EQ(reader_->streams().size(), 2u);
  EXPECT_EQ(reader_->streams()[0].stream_id, 13u);
  EXPECT_EQ(reader_->streams()[0].context_id, 3u);
  EXPECT_EQ(reader_->streams()[0].priority, -2);
  EXPECT_EQ(reader_->streams()[0].flags, 1u);
  EXPECT_EQ(reader_->streams()[1].stream_id, 14u);
}

TEST_F(RoundTripTest, Counters) {
  const model::CollectionCounters& counters = reader_->counters();
  EXPECT_EQ(counters.dropped_records, 11u);
  EXPECT_EQ(counters.kernels_without_timestamp, 12u);
  EXPECT_EQ(counters.copies_without_timestamp, 13u);
  EXPECT_EQ(counters.memsets_without_timestamp, 14u);
  EXPECT_EQ(counters.unknown_records, 15u);
  EXPECT_EQ(counters.unfinished_nvtx_ranges, 16u);
  EXPECT_EQ(counters.unreadable_buffers, 17u);
  EXPECT_EQ(reader_->records_not_written(), 0u);
  EXPECT_EQ(test::QueryInt(path_, "SELECT value FROM counters WHERE name = 'dropped_records'"), 11);
}

TEST_F(RoundTripTest, Kernels) {
  auto rows = Collect<KernelRow>([&](auto fn) { return reader_->ForEachKernel(fn); });
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kEach));
  for (int i = 0; i < kEach; ++i) {
    SCOPED_TRACE(i);
    ExpectSame(rows[i].record, testing::SampleKernel(i));
    EXPECT_EQ(rows[i].demangled_name, i == 0   ? "vecAdd(float const*, float const*, float*, int)"
                                      : i == 1 ? "add(int, int, int*)"
                                               : "triton_poi_fused_0");
  }
  EXPECT_NE(rows[0].name_id, rows[1].name_id);
}

TEST_F(RoundTripTest, ApiCalls) {
  auto rows = Collect<ApiCallRow>([&](auto fn) { return reader_->ForEachApiCall(fn); });
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kEach));
  for (int i = 0; i < kEach; ++i) {
    SCOPED_TRACE(i);
    ExpectSame(rows[i].record, testing::SampleApiCall(i));
    EXPECT_EQ(rows[i].nested_in_runtime, i == 1);
  }
}

TEST_F(RoundTripTest, CopiesMemsetsMemorySyncs) {
  auto copies = Collect<model::MemcpyRecord>([&](auto fn) { return reader_->ForEachMemcpy(fn); });
  auto memsets = Collect<model::MemsetRecord>([&](auto fn) { return reader_->ForEachMemset(fn); });
  auto memory = Collect<model::MemoryRecord>([&](auto fn) { return reader_->ForEachMemory(fn); });
  auto syncs = Collect<model::SyncRecord>([&](auto fn) { return reader_->ForEachSync(fn); });
  ASSERT_EQ(copies.size(), static_cast<std::size_t>(kEach));
  ASSERT_EQ(memsets.size(), static_cast<std::size_t>(kEach));
  ASSERT_EQ(memory.size(), static_cast<std::size_t>(kEach));
  ASSERT_EQ(syncs.size(), static_cast<std::size_t>(kEach));
  for (int i = 0; i < kEach; ++i) {
    SCOPED_TRACE(i);
    ExpectSame(copies[i], testing::SampleMemcpy(i));
    ExpectSame(memsets[i], testing::SampleMemset(i));
    ExpectSame(memory[i], testing::SampleMemory(i));
    ExpectSame(syncs[i], testing::SampleSync(i));
  }
}

TEST_F(RoundTripTest, NvtxAndOverheads) {
  auto nvtx = Collect<model::NvtxRecord>([&](auto fn) { return reader_->ForEachNvtx(fn); });
  auto overheads =
      Collect<model::OverheadRecord>([&](auto fn) { return reader_->ForEachOverhead(fn); });
  ASSERT_EQ(nvtx.size(), static_cast<std::size_t>(kEach));
  ASSERT_EQ(overheads.size(), static_cast<std::size_t>(kEach));
  for (int i = 0; i < kEach; ++i) {
    SCOPED_TRACE(i);
    ExpectSame(nvtx[i], testing::SampleNvtx(i));
    ExpectSame(overheads[i], testing::SampleOverhead(i));
  }
  // The default domain is stored as NULL, not as an empty name.
  EXPECT_EQ(test::QueryInt(path_, "SELECT count(*) FROM nvtx WHERE domain_id IS NULL"), 2);
}

TEST_F(RoundTripTest, CountRows) {
  for (const char* table :
       {"kernels", "memcpys", "memsets", "api_calls", "memory", "syncs", "nvtx", "overheads"}) {
    auto rows = reader_->CountRows(table);
    ASSERT_TRUE(rows.ok()) << rows.status().message();
    EXPECT_EQ(rows.value(), static_cast<std::uint64_t>(kEach)) << table;
  }
  auto devices = reader_->CountRows("devices");
  ASSERT_TRUE(devices.ok());
  EXPECT_EQ(devices.value(), 2u);
  // Every table of report_tables.h, those of `gpuscope profile` too.
  auto metrics = reader_->CountRows("kernel_metrics");
  ASSERT_TRUE(metrics.ok()) << metrics.status().message();
  EXPECT_EQ(metrics.value(), 0u);
  auto copy_kinds = reader_->CountRows("copy_kinds");
  ASSERT_TRUE(copy_kinds.ok()) << copy_kinds.status().message();
  EXPECT_GT(copy_kinds.value(), 0u);
  auto unknown = reader_->CountRows("kernels; DROP TABLE kernels");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("no table named"), std::string::npos);
}

// A timestamp of 0 means "no timestamp" and must come back as 0, not as the time base.
TEST(RoundTrip, MissingTimestampsStayZero) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    model::KernelRecord untimed = testing::SampleKernel(0);
    untimed.start = untimed.end = 0;
    writer.value()->OnKernel(testing::SampleKernel(1));
    writer.value()->OnKernel(untimed);
    model::NvtxRecord open_range = testing::SampleNvtx(0);
    open_range.end = 0;  // never ended
    writer.value()->OnNvtx(open_range);
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernels WHERE start IS NULL"), 1);
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  auto kernels = Collect<KernelRow>([&](auto fn) { return reader.value()->ForEachKernel(fn); });
  ASSERT_EQ(kernels.size(), 2u);
  // Untimed rows sort first, as ORDER BY start puts NULLs first.
  EXPECT_EQ(kernels[0].record.start, 0u);
  EXPECT_EQ(kernels[0].record.end, 0u);
  EXPECT_EQ(kernels[1].record.start, testing::SampleKernel(1).start);
  auto nvtx = Collect<model::NvtxRecord>([&](auto fn) { return reader.value()->ForEachNvtx(fn); });
  ASSERT_EQ(nvtx.size(), 1u);
  EXPECT_EQ(nvtx[0].end, 0u);
  EXPECT_EQ(nvtx[0].start, testing::SampleNvtx(0).start);
}

// CUPTI may give no UUID and gethostname may fail: an empty (even default-constructed,
// null-data) string must be stored as '' and must not make the writer fail the report.
TEST(RoundTrip, EmptyStringsAreStoredAsEmptyText) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    model::ProcessRecord process;
    process.pid = 7;
    process.start = kT0;
    writer.value()->OnProcess(process);  // hostname and command line: null string_views
    model::DeviceRecord device = testing::SampleDevice(0);
    device.uuid = std::string_view();
    writer.value()->OnDevice(device);
    writer.value()->OnKernel(testing::SampleKernel(1));
    ASSERT_TRUE(writer.value()->Close().ok()) << writer.value()->status().message();
  }
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM devices WHERE uuid = ''"), 1);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM process WHERE hostname = ''"), 1);
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader.value()->process().pid, 7u);
  ASSERT_EQ(reader.value()->devices().size(), 1u);
  EXPECT_EQ(reader.value()->devices()[0].uuid, "");
  EXPECT_EQ(reader.value()->CountRows("kernels").value(), 1u);
}

}  // namespace
}  // namespace gpuscope::store
