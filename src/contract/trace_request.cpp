#include "contract/trace_request.h"

#include "contract/environment_variables.h"

namespace gpuscope::contract {

VariableValues TraceRequest::ToEnvironment() const {
  return {
      {kReportVariable, report_pattern},
      {kFollowChildrenVariable, FlagValue(follow_children)},
      {kForceOverwriteVariable, FlagValue(force_overwrite)},
      {kReportPermissionsVariable, std::string(ReportPermissionsName(report_permissions))},
      {kProfileFromStartVariable, FlagValue(profile_from_start)},
      {kQuietVariable, FlagValue(quiet)},
      {kTraceVariable, TraceListName(trace)},
      {kApiCaptureVariable, std::string(ApiCaptureName(trace.api_capture))},
      {kCudaGraphTraceVariable, std::string(CudaGraphTraceName(trace.cuda_graph_trace))},
      {kBacktraceVariable, FlagValue(backtrace)},
      {kManifestVariable, manifest_path},
  };
}

RequestReading<TraceRequest> TraceRequest::FromEnvironment(const EnvironmentLookup& getenv) {
  RequestReading<TraceRequest> reading;
  TraceRequest& request = reading.request;
  std::vector<std::string>& problems = reading.problems;
  if (std::optional<std::string_view> pattern = GivenValue(getenv, kReportVariable)) {
    request.report_pattern = std::string(*pattern);
  }
  ReadFlag(getenv, kFollowChildrenVariable, request.follow_children, problems);
  ReadFlag(getenv, kForceOverwriteVariable, request.force_overwrite, problems);
  if (std::optional<std::string_view> permissions = GivenValue(getenv, kReportPermissionsVariable)) {
    if (std::optional<ReportPermissions> parsed = ParseReportPermissions(*permissions)) {
      request.report_permissions = *parsed;
    } else {
      problems.push_back(std::string(kReportPermissionsVariable) + "='" +
                         std::string(*permissions) + "' is not private or umask; using private");
    }
  }
  ReadFlag(getenv, kProfileFromStartVariable, request.profile_from_start, problems);
  ReadFlag(getenv, kQuietVariable, request.quiet, problems);
  ReadFlag(getenv, kBacktraceVariable, request.backtrace, problems);
  // Set but empty stays empty: no manifest.
  if (const char* manifest = getenv(kManifestVariable); manifest != nullptr) {
    request.manifest_path = manifest;
  }
  // Each part of the scope on its own: a bad value keeps that part's default.
  auto read = [&](const char* name, auto parse, auto apply) {
    std::optional<std::string_view> raw = GivenValue(getenv, name);
    if (!raw) return;
    auto parsed = parse(*raw);
    if (parsed.ok()) {
      apply(*parsed);
    } else {
      problems.push_back(std::string(name) + ": " + parsed.status().message() +
                         "; using the default");
    }
  };
  read(kTraceVariable, [&](std::string_view raw) { return ParseTraceList(raw, request.trace); },
       [&](const TraceScope& scope) { request.trace = scope; });
  read(kApiCaptureVariable, ParseApiCapture,
       [&](ApiCapture capture) { request.trace.api_capture = capture; });
  read(kCudaGraphTraceVariable, ParseCudaGraphTrace,
       [&](CudaGraphTrace trace) { request.trace.cuda_graph_trace = trace; });
  return reading;
}

}  // namespace gpuscope::contract
