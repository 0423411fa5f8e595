#include "viewer/viewer_routes.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "viewer/event_search.h"
#include "viewer/level_of_detail.h"

namespace gpuscope::viewer {
namespace {

template <typename T>
StatusOr<T> Number(const HttpRequest& request, const std::string& name) {
  auto found = request.query.find(name);
  if (found == request.query.end()) return Status::Error("missing parameter '" + name + "'");
  const std::string& text = found->second;
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Status::Error("parameter '" + name + "' must be a non-negative integer, not '" +
                         text.substr(0, 40) + "'");
  }
  return value;
}

StatusOr<std::size_t> ReportIndex(const ViewerData& data, const HttpRequest& request,
                                  const std::string& name) {
  StatusOr<std::uint64_t> index = Number<std::uint64_t>(request, name);
  if (!index.ok()) return index.status();
  if (index.value() >= data.size()) {
    return Status::Error("parameter '" + name + "': no report " + std::to_string(index.value()) +
                         " (" + std::to_string(data.size()) + " loaded)");
  }
  return static_cast<std::size_t>(index.value());
}

HttpResponse Json(std::string body) {
  HttpResponse response;
  response.body = std::move(body);
  return response;
}

HttpResponse BadRequest(const Status& status) { return JsonError(400, status.message()); }

HttpResponse Slices(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> report = ReportIndex(data, request, "report");
  if (!report.ok()) return BadRequest(report.status());
  auto track_id = request.query.find("track");
  if (track_id == request.query.end()) return JsonError(400, "missing parameter 'track'");
  StatusOr<std::uint64_t> start = Number<std::uint64_t>(request, "start");
  if (!start.ok()) return BadRequest(start.status());
  StatusOr<std::uint64_t> end = Number<std::uint64_t>(request, "end");
  if (!end.ok()) return BadRequest(end.status());
  StatusOr<std::uint32_t> pixels = Number<std::uint32_t>(request, "px");
  if (!pixels.ok()) return BadRequest(pixels.status());
  if (end.value() <= start.value()) return JsonError(400, "'end' must be after 'start'");
  if (pixels.value() == 0 || pixels.value() > kMaxPixels) {
    return JsonError(400, "'px' must be between 1 and " + std::to_string(kMaxPixels));
  }
  const TrackIndex& index = data.index(report.value());
  const Track* track = index.FindTrack(track_id->second);
  if (track == nullptr) {
    return JsonError(404, "no track '" + track_id->second.substr(0, 80) + "' in report " +
                              std::to_string(report.value()));
  }
  return Json(SlicesJson(index, *track, {start.value(), end.value(), pixels.value()}));
}

HttpResponse Event(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> report = ReportIndex(data, request, "report");
  if (!report.ok()) return BadRequest(report.status());
  auto type_name = request.query.find("type");
  if (type_name == request.query.end()) return JsonError(400, "missing parameter 'type'");
  std::optional<EventType> type = ParseEventType(type_name->second);
  if (!type) {
    return JsonError(400, "parameter 'type' must be kernel, memcpy, memset, api, nvtx or mark");
  }
  StatusOr<std::uint32_t> id = Number<std::uint32_t>(request, "id");
  if (!id.ok()) return BadRequest(id.status());
  StatusOr<std::string> event = data.EventJson(report.value(), *type, id.value());
  if (!event.ok()) return JsonError(404, event.status().message());
  return Json(std::move(event.value()));
}

// A comma-separated list of report indexes. It may name at most as many entries as reports
// are open (a longer list is refused before any entry is parsed), so that one URL, which any
// web page can make a browser send, costs at most one pass over every report; a report
// listed twice is counted once (ViewerData::SummaryJson).
StatusOr<std::vector<std::size_t>> ReportList(const ViewerData& data, std::string_view text,
                                              const std::string& name) {
  std::size_t entries = static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  if (entries > data.size()) {
    return Status::Error("parameter '" + name + "' lists " + std::to_string(entries) +
                         " reports; at most " + std::to_string(data.size()) + " (those open)");
  }
  std::vector<std::size_t> reports;
  while (true) {
    std::size_t comma = text.find(',');
    HttpRequest one;
    one.query[name] = std::string(text.substr(0, comma));
    StatusOr<std::size_t> index = ReportIndex(data, one, name);
    if (!index.ok()) return index.status();
    reports.push_back(index.value());
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return reports;
}

HttpResponse Summary(ViewerData& data, const HttpRequest& request) {
  auto list = request.query.find("reports");
  std::vector<std::size_t> reports;
  if (list == request.query.end()) {
    for (std::size_t i = 0; i < data.size(); ++i) reports.push_back(i);
  } else {
    StatusOr<std::vector<std::size_t>> listed = ReportList(data, list->second, "reports");
    if (!listed.ok()) return BadRequest(listed.status());
    reports = std::move(listed.value());
  }
  // start and end (absolute ns, both or neither): the tables of that range of the timeline.
  const bool ranged = request.query.count("start") || request.query.count("end");
  if (!ranged) {
    StatusOr<std::string> summary = data.SummaryJson(reports);
    if (!summary.ok()) return JsonError(500, summary.status().message());
    return Json(std::move(summary.value()));
  }
  StatusOr<std::uint64_t> start = Number<std::uint64_t>(request, "start");
  if (!start.ok()) return BadRequest(start.status());
  StatusOr<std::uint64_t> end = Number<std::uint64_t>(request, "end");
  if (!end.ok()) return BadRequest(end.status());
  if (end.value() <= start.value()) return JsonError(400, "'end' must be after 'start'");
  StatusOr<std::string> summary =
      data.RangeSummaryJson(reports, analysis::TimeWindow{start.value(), end.value()});
  if (!summary.ok()) return JsonError(500, summary.status().message());
  return Json(std::move(summary.value()));
}

HttpResponse Kernel(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> report = ReportIndex(data, request, "report");
  if (!report.ok()) return BadRequest(report.status());
  auto name = request.query.find("name");
  if (name == request.query.end() || name->second.empty()) {
    return JsonError(400, "missing parameter 'name'");
  }
  StatusOr<std::string> page = data.KernelJson(report.value(), name->second);
  if (!page.ok()) return JsonError(404, page.status().message());
  return Json(std::move(page.value()));
}

HttpResponse Findings(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> report = ReportIndex(data, request, "report");
  if (!report.ok()) return BadRequest(report.status());
  StatusOr<std::string> findings = data.FindingsJson(report.value());
  if (!findings.ok()) return JsonError(500, findings.status().message());
  return Json(std::move(findings.value()));
}

HttpResponse Search(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> report = ReportIndex(data, request, "report");
  if (!report.ok()) return BadRequest(report.status());
  auto query = request.query.find("q");
  if (query == request.query.end()) return JsonError(400, "missing parameter 'q'");
  return Json(SearchJson(data.index(report.value()), query->second, kMaxSearchMatches));
}

// Without `nvtx`: the alignment the command line asked for; with it, where that NVTX range
// first starts in each report (404 naming the reports without it).
HttpResponse Alignment(ViewerData& data, const HttpRequest& request) {
  auto range = request.query.find("nvtx");
  if (range == request.query.end()) return Json(AxisAlignmentJson(data.alignment()));
  if (range->second.empty()) return JsonError(400, "parameter 'nvtx' needs a range name");
  StatusOr<std::string> anchors = data.NvtxRangeAnchorsJson(range->second);
  if (!anchors.ok()) return JsonError(404, anchors.status().message());
  return Json(std::move(anchors.value()));
}

HttpResponse Diff(ViewerData& data, const HttpRequest& request) {
  StatusOr<std::size_t> a = ReportIndex(data, request, "a");
  if (!a.ok()) return BadRequest(a.status());
  StatusOr<std::size_t> b = ReportIndex(data, request, "b");
  if (!b.ok()) return BadRequest(b.status());
  return Json(data.DiffJson(a.value(), b.value()));
}

constexpr std::string_view kNoAssetsPage =
    "<!doctype html><meta charset=\"utf-8\"><title>gpuscope</title>"
    "<p>This gpuscope was built without its web viewer (src/viewer/web/ was empty). The data "
    "API answers under <a href=\"/api/reports\">/api/reports</a>.</p>";

}  // namespace

HttpResponse HandleViewerRequest(ViewerData& data, std::span<const EmbeddedFile> assets,
                                 const HttpRequest& request) {
  const std::string& path = request.path;
  if (path.rfind("/api/", 0) == 0) {
    if (path == "/api/reports") return Json(data.ReportsJson());
    if (path == "/api/tracks") {
      StatusOr<std::size_t> report = ReportIndex(data, request, "report");
      if (!report.ok()) return BadRequest(report.status());
      return Json(data.TracksJson(report.value()));
    }
    if (path == "/api/slices") return Slices(data, request);
    if (path == "/api/event") return Event(data, request);
    if (path == "/api/summary") return Summary(data, request);
    if (path == "/api/kernel") return Kernel(data, request);
    if (path == "/api/diff") return Diff(data, request);
    if (path == "/api/findings") return Findings(data, request);
    if (path == "/api/search") return Search(data, request);
    if (path == "/api/alignment") return Alignment(data, request);
    return JsonError(404, "unknown endpoint " + path.substr(0, 80));
  }
  std::optional<Asset> asset = FindAsset(assets, path);
  if (asset) {
    HttpResponse response;
    response.content_type = std::string(asset->content_type);
    response.body = std::string(asset->bytes);
    return response;
  }
  if ((path == "/" || path == "/index.html") && !FindAsset(assets, "/index.html")) {
    HttpResponse response;
    response.content_type = "text/html; charset=utf-8";
    response.body = std::string(kNoAssetsPage);
    return response;
  }
  return JsonError(404, "not found: " + path.substr(0, 80));
}

}  // namespace gpuscope::viewer
