// A collector wired exactly as in the traced process (CUPTI's translator, CUPTI's buffer
// callbacks), with a sink chosen by the test. Buffers are filled with real CUPTI record
// structs and handed over through cupti::BufferRequested / cupti::BufferCompleted, the
// functions CUPTI itself calls.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>

#include "cupti/tracing/activity.h"
#include "cupti/tracing/translate.h"
#include "cupti_record_writer.h"
#include "inject/collector.h"

namespace gpuscope::inject::testing {

inline CollectorOptions SmallCollectorOptions() {
  CollectorOptions options;
  options.pool.buffer_bytes = 256 * 1024;
  options.pool.soft_limit = 4;
  options.pool.hard_limit = 16;
  options.commit_interval = std::chrono::milliseconds(60'000);  // commits only on request
  return options;
}

inline ProcessDescription TestProcess() {
  ProcessDescription process;
  process.pid = 4321;
  process.parent_pid = 1234;
  process.hostname = "gpu-node-1";
  process.command_line = "./vector_add --n 1024";
  // Before every record the tests deliver, as in a real run (tracing starts once the process
  // is described): a reader leaves out rows outside the run (store/damaged_rows.h).
  process.start = 500;
  return process;
}

class CollectorHarness {
 public:
  CollectorHarness(model::RecordSink& sink, CollectorOptions options = SmallCollectorOptions())
      : collector_(std::make_unique<Collector>(sink, std::make_unique<cupti::ActivityTranslator>(),
                                               WithRegistry(options, start_end_ids_))) {
    EXPECT_TRUE(collector_->Start(TestProcess()).ok());
    cupti::SetBufferCollector(collector_.get());
  }
  ~CollectorHarness() {
    cupti::SetBufferCollector(nullptr);
    collector_.reset();
  }

  // One buffer, as CUPTI would fill and return it. Returns the buffer's address.
  std::uint8_t* Deliver(const std::function<void(CuptiRecordWriter&)>& fill) {
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0;
    std::size_t max_records = 123;
    cupti::BufferRequested(&buffer, &size, &max_records);
    EXPECT_NE(buffer, nullptr);
    EXPECT_EQ(max_records, 0u) << "as many records as fit";
    if (buffer == nullptr) return nullptr;
    CuptiRecordWriter writer(buffer, size);
    fill(writer);
    cupti::BufferCompleted(nullptr, 0, buffer, size, writer.used());
    return buffer;
  }

  void Commit() {
    const std::uint64_t ticket = collector_->RequestCommit();
    ASSERT_TRUE(collector_->WaitForCommit(ticket, std::chrono::seconds(10)))
        << "the writer did not commit";
  }

  void Finish() { ASSERT_TRUE(collector_->Finish(std::chrono::seconds(10))); }

  Collector& collector() { return *collector_; }
  // What the nvtxRangeStart callback fills in the traced process.
  NvtxStartEndIds& start_end_ids() { return start_end_ids_; }

 private:
  static CollectorOptions WithRegistry(CollectorOptions options, NvtxStartEndIds& ids) {
    options.nvtx_start_end_ids = &ids;
    return options;
  }

  NvtxStartEndIds start_end_ids_;  // declared first: the collector refers to it
  std::unique_ptr<Collector> collector_;
};

}  // namespace gpuscope::inject::testing
