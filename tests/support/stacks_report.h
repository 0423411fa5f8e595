// A finalised report holding call stacks as a `--backtrace` run of this program records them: a
// Python stack (id 1) with its names, a native stack (id 2) of this program's own frames
// (own_native_frames.h) with their addresses only, the module map, and API calls with stack 1,
// stack 2 and none. For the tests of the stack tables (tests/store) and of the run's
// symbolization step (tests/cli).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "own_native_frames.h"
#include "inject/module_map.h"
#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::testing {

inline std::unique_ptr<store::ReportReader> OpenReport(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  return reader.ok() ? std::move(*reader) : nullptr;
}

class StackStoreTest : public ::testing::Test {
 protected:
  std::string Build() {
    using model::FrameKind;
    const std::string path = dir_.File("stacks.sqlite");
    store::testing::ReportBuilder report(path);
    python_ = {{FrameKind::kPython, 0, "/home/me/train.py", "train_step", 42},
               {FrameKind::kPython, 0, "/home/me/train.py", "<module>", 80}};
    for (const inject::CapturedFrame& frame : CaptureHere()) {
      native_.push_back({FrameKind::kNative, frame.address, {}, {}, 0});
    }
    report.Write(model::StackRecord{1, python_.data(), python_.size()});
    report.Write(model::StackRecord{2, native_.data(), native_.size()});
    modules_ = inject::LoadedModules();
    for (const inject::LoadedModule& m : modules_) {
      report.Write(model::ModuleRecord{m.path, m.start, m.end, m.bias, m.build_id});
    }
    report.Api("cudaLaunchKernel", 100, 10, 501, {.stack_id = 1});
    report.Api("cudaMemcpy", 200, 10, 502, {.stack_id = 2});
    report.Api("cudaMalloc", 300, 10, 503);
    EXPECT_TRUE(report.Close().ok());
    EXPECT_TRUE(store::FinalizeReport(path).ok());
    return path;
  }

  store::testing::ScratchDir dir_;
  std::vector<model::StackFrame> python_, native_;
  std::vector<inject::LoadedModule> modules_;
};

}  // namespace gpuscope::testing
