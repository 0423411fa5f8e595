#include "util/nvtx_range_filter.h"

namespace gpuscope {

StatusOr<NvtxRangeSpec> ParseNvtxRangeSpec(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  NvtxRangeSpec spec;
  std::string_view rest = text;
  // A regex may hold '@' and '/': only the text before "regex:" can name the domain.
  const std::size_t regex_at = rest.find("regex:");
  const std::size_t at = rest.substr(0, regex_at).find('@');
  if (at != std::string_view::npos) {
    spec.domain = std::string(rest.substr(0, at));
    rest.remove_prefix(at + 1);
    if (spec.domain.empty()) {
      return Status::Error("--nvtx-include " + quoted + ": empty domain before '@'");
    }
  }
  if (!rest.empty() && rest.back() == '/') {
    spec.kind = NvtxRangeKind::kPushPop;
    rest.remove_suffix(1);
  } else {
    spec.kind = NvtxRangeKind::kStartEnd;
  }
  if (rest.empty()) {
    return Status::Error("--nvtx-include " + quoted + ": no range name (push/pop: name/, "
                         "start/end: name, either with an optional domain@)");
  }
  const bool is_regex = rest.starts_with("regex:");
  if (!is_regex && (rest.find('/') != std::string_view::npos || rest.front() == '[' ||
                    rest.back() == ']')) {
    return Status::Error("--nvtx-include " + quoted +
                         ": nested range forms (A/B/, [A, B], A/*/B) are not supported; "
                         "name one range: [domain@]name/ (push/pop) or [domain@]name (start/end)");
  }
  StatusOr<NameMatcher> name = NameMatcher::Parse(rest);
  if (!name.ok()) return Status::Error("--nvtx-include " + quoted + ": " + name.status().message());
  spec.name = *name;
  return spec;
}

StatusOr<NvtxRangeFilter> NvtxRangeFilter::Parse(const std::vector<std::string>& specs) {
  NvtxRangeFilter filter;
  for (const std::string& text : specs) {
    StatusOr<NvtxRangeSpec> spec = ParseNvtxRangeSpec(text);
    if (!spec.ok()) return spec.status();
    filter.specs_.push_back(std::move(*spec));
    filter.texts_.push_back(text);
  }
  return filter;
}

bool NvtxRangeFilter::Matches(NvtxRangeKind kind, std::string_view domain,
                              std::string_view name) const {
  for (const NvtxRangeSpec& spec : specs_) {
    if (spec.kind == kind && spec.domain == domain && spec.name.Matches(name)) return true;
  }
  return false;
}

bool NvtxRangeFilter::Wants(NvtxRangeKind kind) const {
  for (const NvtxRangeSpec& spec : specs_) {
    if (spec.kind == kind) return true;
  }
  return false;
}

std::string NvtxRangeDisplayName(std::string_view domain, std::string_view name) {
  return domain.empty() ? std::string(name) : std::string(domain) + "@" + std::string(name);
}

}  // namespace gpuscope
