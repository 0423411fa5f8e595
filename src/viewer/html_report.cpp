#include "viewer/html_report.h"

#include <algorithm>
#include <array>
#include <deque>
#include <regex>
#include <unordered_map>
#include <vector>

#include "export/json_stream.h"
#include "render/escaping.h"

namespace gpuscope::viewer {
namespace {

// Runs in the page before the modules: turns the embedded module texts into blob: URLs,
// leaves first, rewriting relative import specifiers ("./x.js", "../y.js") to the blob URL
// of the module they name, then imports the entry modules of index.html. Import cycles
// cannot be expressed this way and are reported on the page.
constexpr std::string_view kModuleLoader = R"JS(
(function () {
  'use strict';
  var sources = JSON.parse(document.getElementById('gpuscope-modules').textContent);
  var urls = {};
  var specifier = /(\bfrom\s*|\bimport\s*(?:\(\s*)?)(['"])((?:\.{1,2}\/|\/)[^'"]+)\2/g;
  function resolve(from, spec) {
    var parts = spec.charAt(0) === '/' ? [] : from.split('/').slice(0, -1);
    spec.replace(/^\//, '').split('/').forEach(function (part) {
      if (part === '..') parts.pop(); else if (part !== '.' && part !== '') parts.push(part);
    });
    return parts.join('/');
  }
  function load(name, trail) {
    if (urls[name]) return urls[name];
    if (trail.indexOf(name) >= 0) throw new Error('import cycle: ' + trail.concat(name).join(' -> '));
    if (!Object.prototype.hasOwnProperty.call(sources, name)) throw new Error('missing module ' + name);
    var code = sources[name].replace(specifier, function (all, before, quote, spec) {
      return before + quote + load(resolve(name, spec), trail.concat(name)) + quote;
    });
    urls[name] = URL.createObjectURL(new Blob([code], {type: 'text/javascript'}));
    return urls[name];
  }
  function fail(error) {
    var message = document.createElement('pre');
    message.textContent = 'gpuscope report: cannot start the viewer: ' + error;
    document.body.appendChild(message);
  }
  ENTRIES.forEach(function (entry) {
    try { import(load(entry, [])).catch(fail); } catch (error) { fail(error); }
  });
})();
)JS";

constexpr std::string_view kFallbackPage =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>gpuscope report</title></head>"
    "<body><p>This gpuscope was built without its web viewer (src/viewer/web/ was empty); the "
    "report's data is embedded below as JSON.</p></body></html>\n";

std::string ReplaceAll(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string Attribute(const std::string& tag, const std::string& name) {
  std::regex pattern("\\b" + name + "\\s*=\\s*(\"([^\"]*)\"|'([^']*)'|([^\\s>]+))",
                     std::regex::icase);
  std::smatch match;
  if (!std::regex_search(tag, match, pattern)) return "";
  for (int group : {2, 3, 4}) {
    if (match[group].matched) return match[group].str();
  }
  return "";
}

// "./app.js", "/app.js", "app.js" -> "app.js"
std::string AssetPath(std::string reference) {
  if (reference.rfind("./", 0) == 0) reference.erase(0, 2);
  if (reference.rfind('/', 0) == 0) reference.erase(0, 1);
  return reference;
}

// (Built with += rather than "a" + b: GCC 12 warns falsely about the latter at -O3.)
std::string UrlPath(const std::string& relative) {
  std::string path = "/";
  path += relative;
  return path;
}

// "\"3\":", the key of report 3 in the embedded maps.
std::string ReportKey(std::size_t report) {
  std::string key = "\"";
  key += std::to_string(report);
  key += "\":";
  return key;
}

struct Page {
  std::string html;
  std::vector<std::string> entries;  // module paths index.html starts
};

// index.html with stylesheets and classic scripts inlined and module scripts taken out
// (the loader starts them).
Page InlineAssets(std::span<const EmbeddedFile> assets) {
  std::optional<Asset> index = FindAsset(assets, "/index.html");
  Page page;
  page.html = index ? std::string(index->bytes) : std::string(kFallbackPage);
  std::regex tags("<link\\b[^>]*>|<script\\b[^>]*>\\s*</script\\s*>", std::regex::icase);
  std::string out;
  auto begin = std::sregex_iterator(page.html.begin(), page.html.end(), tags);
  std::size_t copied = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& match = *it;
    std::string tag = match.str();
    out += page.html.substr(copied, static_cast<std::size_t>(match.position()) - copied);
    copied = static_cast<std::size_t>(match.position() + match.length());
    bool is_link = tag.size() > 5 && (tag[1] == 'l' || tag[1] == 'L');
    if (is_link) {
      std::string rel = Attribute(tag, "rel");
      std::transform(rel.begin(), rel.end(), rel.begin(), ::tolower);
      std::optional<Asset> css = FindAsset(assets, UrlPath(AssetPath(Attribute(tag, "href"))));
      if (rel == "stylesheet" && css) {
        out += "<style>\n" + ReplaceAll(std::string(css->bytes), "</", "<\\/") + "\n</style>";
      }
      // Other links (icons, preloads) would point at files the report does not have.
      continue;
    }
    std::string source = Attribute(tag, "src");
    if (source.empty()) {
      out += tag;
      continue;
    }
    std::string path = AssetPath(source);
    std::string type = Attribute(tag, "type");
    std::transform(type.begin(), type.end(), type.begin(), ::tolower);
    if (type == "module") {
      page.entries.push_back(path);
    } else if (std::optional<Asset> script = FindAsset(assets, UrlPath(path))) {
      out += "<script>\n" + ReplaceAll(std::string(script->bytes), "</script", "<\\/script") +
             "\n</script>";
    }
  }
  out += page.html.substr(copied);
  page.html = std::move(out);
  return page;
}

// Where a report is cut so that at most `limit` events start before it (0: not cut).
std::uint64_t CutTime(const TrackIndex& index, std::uint64_t limit) {
  if (index.event_count() <= limit) return 0;
  auto count_before = [&](std::uint64_t t) {
    std::uint64_t count = 0;
    for (const Track& track : index.tracks()) {
      count += static_cast<std::uint64_t>(
          std::lower_bound(track.events.begin(), track.events.end(), t,
                           [](const TrackEvent& e, std::uint64_t time) { return e.start < time; }) -
          track.events.begin());
    }
    return count;
  };
  std::uint64_t low = UINT64_MAX, high = 0;
  for (const Track& track : index.tracks()) {
    if (track.events.empty()) continue;
    low = std::min(low, track.events.front().start);
    high = std::max(high, track.events.back().start + 1);
  }
  // The largest t with count_before(t) <= limit.
  while (low + 1 < high) {
    std::uint64_t middle = low + (high - low) / 2;
    (count_before(middle) <= limit ? low : high) = middle;
  }
  return low;
}

class DataWriter {
 public:
  DataWriter(ViewerData& data, const HtmlReportOptions& options, exporter::JsonStream& json,
             HtmlReportStats& stats)
      : data_(data), options_(options), json_(json), stats_(stats) {}

  Status Write() {
    // The summary first: its trace tables are cut (stats_.trace_cuts) before anything is
    // written, and it is held as text, bounded by the cut.
    StatusOr<std::string> summary =
        data_.EmbeddedSummaryJson(options_.max_trace_rows, stats_.trace_cuts);
    if (!summary.ok()) return summary.status();
    std::vector<std::uint64_t> cuts;
    for (std::size_t r = 0; r < data_.size(); ++r) {
      cuts.push_back(CutTime(data_.index(r), options_.max_events_per_report));
    }
    json_.Raw("{\"reports\":[");
    for (std::size_t r = 0; r < data_.size(); ++r) {
      std::string report = data_.ReportJson(r);
      report.pop_back();  // the closing brace: "embedded" is added
      std::uint64_t total = data_.index(r).event_count();
      std::uint64_t embedded = cuts[r] ? CountBefore(data_.index(r), cuts[r]) : total;
      stats_.total_events += total;
      stats_.embedded_events += embedded;
      stats_.truncated = stats_.truncated || cuts[r] != 0;
      json_.Raw(r ? "," : "")
          .Raw(ScriptSafe(report))
          .Raw(",\"embedded\":{\"events\":")
          .UInt(embedded)
          .Raw(",\"total\":")
          .UInt(total)
          .Raw(",\"limit\":")
          .UInt(options_.max_events_per_report)
          .Raw(",\"cut_at\":");
      if (cuts[r]) {
        json_.UInt(cuts[r]);
      } else {
        json_.Raw("null");
      }
      json_.Raw("}}");
    }
    json_.Raw("],\"tracks\":{");
    for (std::size_t r = 0; r < data_.size(); ++r) {
      json_.Raw(r ? "," : "").Raw(ReportKey(r)).Raw(ScriptSafe(data_.TracksJson(r)));
    }
    json_.Raw("},\"events\":{");
    for (std::size_t r = 0; r < data_.size(); ++r) {
      GPUSCOPE_RETURN_IF_ERROR(LoadFacts(r, cuts[r]));
      json_.Raw(r ? "," : "").Raw(ReportKey(r)).Raw("{");
      WriteEvents(data_.index(r), cuts[r]);
      json_.Raw("}");
      for (auto& facts : facts_) facts.clear();
    }
    json_.Raw("},\"strings\":[");
    for (std::size_t i = 0; i < strings_.size(); ++i) {
      json_.Raw(i ? "," : "").Raw(ScriptSafe(render::JsonString(strings_[i])));
    }
    json_.Raw("],\"details\":{},\"summary\":")
        .Raw(ScriptSafe(summary.value()))
        .Raw(",\"kernels\":{");
    for (std::size_t r = 0; r < data_.size(); ++r) {
      StatusOr<std::string> kernels = data_.AllKernelsJson(r);
      if (!kernels.ok()) return kernels.status();
      json_.Raw(r ? "," : "").Raw(ReportKey(r)).Raw(ScriptSafe(kernels.value()));
    }
    // Cited rows' absolute times are parsed plainly here (rounded); the page takes them from
    // the event arrays through the cited event's track and id.
    json_.Raw("},\"findings\":{");
    for (std::size_t r = 0; r < data_.size(); ++r) {
      StatusOr<std::string> findings = data_.FindingsJson(r);
      if (!findings.ok()) return findings.status();
      json_.Raw(r ? "," : "").Raw(ReportKey(r)).Raw(ScriptSafe(findings.value()));
    }
    // The page computes the range's starts from the embedded NVTX events (exact times).
    json_.Raw("},\"alignment\":").Raw(ScriptSafe(AxisAlignmentJson(data_.alignment())));
    json_.Raw("}");
    return {};
  }

 private:
  static std::uint64_t CountBefore(const TrackIndex& index, std::uint64_t cut) {
    std::uint64_t count = 0;
    for (const Track& track : index.tracks()) {
      for (const TrackEvent& event : track.events) count += event.start < cut;
    }
    return count;
  }

  // How many of a track's events are embedded (all of them, or those starting before `cut`).
  static std::size_t EmbeddedCount(const Track& track, std::uint64_t cut) {
    if (!cut) return track.events.size();
    return static_cast<std::size_t>(
        std::lower_bound(track.events.begin(), track.events.end(), cut,
                         [](const TrackEvent& e, std::uint64_t t) { return e.start < t; }) -
        track.events.begin());
  }

  // The EventFacts of every embedded kernel, copy, memset and API call of report `r`.
  Status LoadFacts(std::size_t r, std::uint64_t cut) {
    for (const Track& track : data_.index(r).tracks()) {
      if (track.kind == "counter") continue;
      std::size_t n = EmbeddedCount(track, cut);
      for (std::size_t i = 0; i < n; ++i) {
        auto type = static_cast<std::size_t>(track.events[i].type());
        if (type < facts_.size()) facts_[type].try_emplace(track.events[i].id);
      }
    }
    for (std::size_t type = 0; type < facts_.size(); ++type) {
      GPUSCOPE_RETURN_IF_ERROR(data_.FillEventFacts(r, static_cast<EventType>(type), facts_[type]));
    }
    return {};
  }

  std::uint32_t StringId(std::string_view text) {
    auto found = string_ids_.find(text);
    if (found != string_ids_.end()) return found->second;
    strings_.emplace_back(text);
    auto id = static_cast<std::uint32_t>(strings_.size() - 1);
    string_ids_.emplace(strings_.back(), id);
    return id;
  }

  template <typename Fn>
  void Column(const char* name, std::size_t count, Fn value) {
    json_.Raw(",\"").Raw(name).Raw("\":[");
    for (std::size_t i = 0; i < count; ++i) {
      if (i) json_.Raw(",");
      value(i);
    }
    json_.Raw("]");
  }

  void WriteEvents(const TrackIndex& index, std::uint64_t cut) {
    bool first = true;
    for (const Track& track : index.tracks()) {
      json_.Raw(first ? "" : ",").Raw(ScriptSafe(render::JsonString(track.id))).Raw(":{");
      first = false;
      if (track.kind == "counter") {
        std::size_t n = track.counter.size();
        while (cut && n > 0 && track.counter[n - 1].time >= cut) --n;
        json_.Raw("\"type\":\"counter\"");
        Column("t", n, [&](std::size_t i) { json_.UInt(track.counter[i].time); });
        Column("v", n, [&](std::size_t i) { json_.Int(track.counter[i].value); });
        json_.Raw("}");
        continue;
      }
      std::size_t n = EmbeddedCount(track, cut);
      const std::vector<TrackEvent>& events = track.events;
      bool mixed = false;
      for (std::size_t i = 1; i < n && !mixed; ++i) mixed = events[i].type() != events[0].type();
      std::string_view main_type = track.kind == "gpu"   ? "kernel"
                                   : track.kind == "api" ? "api"
                                                         : "nvtx";
      json_.Raw("\"type\":\"")
          .Raw(n && !mixed ? EventTypeName(events[0].type()) : main_type)
          .Raw("\"");
      Column("s", n, [&](std::size_t i) { json_.UInt(events[i].start); });
      Column("e", n, [&](std::size_t i) { json_.UInt(events[i].end); });
      Column("name", n, [&](std::size_t i) { json_.UInt(StringId(index.Name(events[i]))); });
      Column("id", n, [&](std::size_t i) { json_.UInt(events[i].id); });
      Column("depth", n, [&](std::size_t i) { json_.UInt(events[i].depth()); });
      if (mixed) {
        Column("types", n, [&](std::size_t i) {
          json_.Raw("\"").Raw(EventTypeName(events[i].type())).Raw("\"");
        });
      }
      WriteFacts(events, n);
      json_.Raw("}");
    }
  }

  // The columns of docs/viewer-api.md's "Embedded format" that describe events beyond their
  // times, each only on the tracks that hold events it applies to (0 for the others there):
  // "corr" (kernels, copies, memsets, API calls), "rcorr" (copies), the launch configuration
  // (kernels), "bytes" (copies, memsets) and "copy" (copies: string index of the copy kind).
  void WriteFacts(const std::vector<TrackEvent>& events, std::size_t n) {
    static const EventFacts kNone;
    std::vector<const EventFacts*> facts(n, &kNone);
    bool has[6] = {};
    for (std::size_t i = 0; i < n; ++i) {
      auto type = static_cast<std::size_t>(events[i].type());
      has[type] = true;
      if (type >= facts_.size()) continue;
      auto found = facts_[type].find(events[i].id);
      if (found != facts_[type].end()) facts[i] = &found->second;
    }
    const bool kernels = has[static_cast<int>(EventType::kKernel)];
    const bool copies = has[static_cast<int>(EventType::kMemcpy)];
    const bool memsets = has[static_cast<int>(EventType::kMemset)];
    const bool api = has[static_cast<int>(EventType::kApi)];
    auto column = [&](const char* name, auto field) {
      Column(name, n, [&](std::size_t i) { json_.Int(field(*facts[i])); });
    };
    if (kernels || copies || memsets || api) {
      column("corr", [](const EventFacts& f) { return std::int64_t{f.correlation_id}; });
    }
    if (copies) {
      column("rcorr", [](const EventFacts& f) { return std::int64_t{f.runtime_correlation_id}; });
    }
    if (kernels) {
      column("gx", [](const EventFacts& f) { return f.launch.grid[0]; });
      column("gy", [](const EventFacts& f) { return f.launch.grid[1]; });
      column("gz", [](const EventFacts& f) { return f.launch.grid[2]; });
      column("bx", [](const EventFacts& f) { return f.launch.block[0]; });
      column("by", [](const EventFacts& f) { return f.launch.block[1]; });
      column("bz", [](const EventFacts& f) { return f.launch.block[2]; });
      column("regs", [](const EventFacts& f) { return f.launch.registers_per_thread; });
      column("ssmem", [](const EventFacts& f) { return f.launch.static_shared_memory; });
      column("dsmem", [](const EventFacts& f) { return f.launch.dynamic_shared_memory; });
    }
    if (copies || memsets) column("bytes", [](const EventFacts& f) { return f.bytes; });
    if (copies) {
      Column("copy", n, [&](std::size_t i) { json_.UInt(StringId(facts[i]->copy_kind)); });
    }
  }

  ViewerData& data_;
  const HtmlReportOptions& options_;
  exporter::JsonStream& json_;
  HtmlReportStats& stats_;
  // A deque: string_ids_ holds views of these strings, which a vector's growth would move
  // (short strings live inside the std::string object).
  std::deque<std::string> strings_;
  std::unordered_map<std::string_view, std::uint32_t> string_ids_;
  // Per EventType up to kApi: row id -> facts, for the report being written.
  std::array<std::unordered_map<std::uint32_t, EventFacts>, 4> facts_;
};

}  // namespace

std::string ScriptSafe(std::string_view json) {
  return ReplaceAll(ReplaceAll(std::string(json), "</", "<\\/"), "<!--", "\\u003c!--");
}

StatusOr<HtmlReportStats> WriteHtmlReport(ViewerData& data, std::span<const EmbeddedFile> assets,
                                          const HtmlReportOptions& options, std::ostream& out) {
  HtmlReportStats stats;
  Page page = InlineAssets(assets);
  // Everything goes just before </body> (or at the end), after the page's own markup.
  std::size_t body_end = page.html.rfind("</body>");
  if (body_end == std::string::npos) body_end = page.html.size();
  exporter::JsonStream json(out);
  json.Raw(std::string_view(page.html).substr(0, body_end));
  json.Raw("\n<script type=\"application/json\" id=\"gpuscope-data\">");
  DataWriter writer(data, options, json, stats);
  GPUSCOPE_RETURN_IF_ERROR(writer.Write());
  json.Raw("</script>\n<script type=\"application/json\" id=\"gpuscope-modules\">{");
  bool first = true;
  for (const EmbeddedFile& file : assets) {
    std::string_view path = file.path;
    bool module = path.ends_with(".js") || path.ends_with(".mjs");
    if (!module) continue;
    json.Raw(first ? "" : ",")
        .Raw(ScriptSafe(render::JsonString(path)))
        .Raw(":")
        .Raw(ScriptSafe(render::JsonString(file.bytes)));
    first = false;
  }
  json.Raw("}</script>\n");
  if (!page.entries.empty()) {
    std::string entries = "[";
    for (std::size_t i = 0; i < page.entries.size(); ++i) {
      if (i) entries += ",";
      entries += render::JsonString(page.entries[i]);
    }
    entries += "]";
    json.Raw("<script>")
        .Raw(ScriptSafe(ReplaceAll(std::string(kModuleLoader), "ENTRIES", entries)))
        .Raw("</script>\n");
  }
  json.Raw(std::string_view(page.html).substr(body_end));
  GPUSCOPE_RETURN_IF_ERROR(json.Flush());
  return stats;
}

}  // namespace gpuscope::viewer
