#include "contract/trace_request.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "contract/environment_variables.h"
#include "environment_of.h"

namespace gpuscope::contract {
namespace {

using testing::EnvironmentOf;
using testing::With;

TraceRequest EveryTraceField() {
  TraceRequest request;
  request.report_pattern = "/work/out/rank%q{RANK}_%p.sqlite";
  request.follow_children = false;
  request.force_overwrite = true;
  request.report_permissions = ReportPermissions::kUmask;
  request.profile_from_start = false;
  request.quiet = true;
  request.trace.cuda_api = false;
  request.trace.nvtx = false;
  request.trace.api_capture = ApiCapture::kCallback;
  request.trace.cuda_graph_trace = CudaGraphTrace::kGraph;
  request.backtrace = true;
  request.manifest_path = "/tmp/gpuscope-manifest-abc";
  return request;
}

void ExpectSameRequest(const TraceRequest& read, const TraceRequest& written) {
  EXPECT_EQ(read.report_pattern, written.report_pattern);
  EXPECT_EQ(read.follow_children, written.follow_children);
  EXPECT_EQ(read.force_overwrite, written.force_overwrite);
  EXPECT_EQ(read.report_permissions, written.report_permissions);
  EXPECT_EQ(read.profile_from_start, written.profile_from_start);
  EXPECT_EQ(read.quiet, written.quiet);
  EXPECT_EQ(read.trace.cuda_api, written.trace.cuda_api);
  EXPECT_EQ(read.trace.cuda_gpu, written.trace.cuda_gpu);
  EXPECT_EQ(read.trace.nvtx, written.trace.nvtx);
  EXPECT_EQ(read.trace.api_capture, written.trace.api_capture);
  EXPECT_EQ(read.trace.cuda_graph_trace, written.trace.cuda_graph_trace);
  EXPECT_EQ(read.backtrace, written.backtrace);
  EXPECT_EQ(read.manifest_path, written.manifest_path);
}

TEST(TraceRequest, EveryFieldComesBackAsWritten) {
  for (const TraceRequest& written : {TraceRequest{}, EveryTraceField()}) {
    RequestReading<TraceRequest> read =
        TraceRequest::FromEnvironment(EnvironmentOf(written.ToEnvironment()));
    EXPECT_TRUE(read.problems.empty()) << read.problems.front();
    ExpectSameRequest(read.request, written);
  }
}

// The launcher always sets every variable, so that a nested run never inherits the outer one's.
TEST(TraceRequest, WritesEveryTracingVariableOnce) {
  std::set<std::string> names;
  for (const auto& [name, value] : TraceRequest{}.ToEnvironment()) {
    EXPECT_TRUE(names.insert(name).second) << name << " twice";
  }
  EXPECT_EQ(names, (std::set<std::string>{
                       kReportVariable, kFollowChildrenVariable, kForceOverwriteVariable,
                       kReportPermissionsVariable, kProfileFromStartVariable, kQuietVariable,
                       kTraceVariable, kApiCaptureVariable, kCudaGraphTraceVariable,
                       kBacktraceVariable, kManifestVariable}));
}

// Nothing set (the library loaded by hand): the defaults, without a problem.
TEST(TraceRequest, NothingSetIsTheDefaults) {
  RequestReading<TraceRequest> read = TraceRequest::FromEnvironment(EnvironmentOf({}));
  EXPECT_TRUE(read.problems.empty());
  ExpectSameRequest(read.request, TraceRequest{});
  EXPECT_EQ(read.request.report_pattern, kDefaultReportPattern);
}

// A bad value costs only its own field, which keeps its default; the line names the variable.
TEST(TraceRequest, AMalformedValueKeepsItsDefaultAndNamesTheVariable) {
  const char* names[] = {kFollowChildrenVariable,   kForceOverwriteVariable, kReportPermissionsVariable,
                         kProfileFromStartVariable, kQuietVariable,          kTraceVariable,
                         kApiCaptureVariable,       kCudaGraphTraceVariable, kBacktraceVariable};
  const TraceRequest written = EveryTraceField();
  for (const char* name : names) {
    RequestReading<TraceRequest> read = TraceRequest::FromEnvironment(
        EnvironmentOf(With(written.ToEnvironment(), name, "maybe")));
    ASSERT_EQ(read.problems.size(), 1u) << name;
    EXPECT_EQ(read.problems[0].rfind(name, 0), 0u) << read.problems[0];
    // The other fields are as written.
    EXPECT_EQ(read.request.manifest_path, written.manifest_path);
  }
  RequestReading<TraceRequest> follow =
      TraceRequest::FromEnvironment(EnvironmentOf({{kFollowChildrenVariable, "maybe"}}));
  EXPECT_TRUE(follow.request.follow_children);
  EXPECT_EQ(follow.problems[0], "GPUSCOPE_FOLLOW_CHILDREN='maybe' is not 1 or 0; using 1");
  RequestReading<TraceRequest> capture =
      TraceRequest::FromEnvironment(EnvironmentOf({{kApiCaptureVariable, "maybe"}}));
  EXPECT_EQ(capture.request.trace.api_capture, kDefaultApiCapture);
}

// Flags written by hand may be spelled as users spell them.
TEST(TraceRequest, FlagsTakeCommonSpellings) {
  auto follow = [](const char* value) {
    return TraceRequest::FromEnvironment(EnvironmentOf({{kFollowChildrenVariable, value}}))
        .request.follow_children;
  };
  EXPECT_FALSE(follow("off"));
  EXPECT_FALSE(follow("FALSE"));
  EXPECT_TRUE(follow("Yes"));
  EXPECT_TRUE(follow(""));  // empty: unset, the default
}

}  // namespace
}  // namespace gpuscope::contract
