// Which NVTX ranges `gpuscope profile --replay-mode app-range --nvtx-include` measures, in
// Nsight Compute's spelling (shared by the CLI, which rejects a bad spec before the program
// starts, and the injection, which matches the program's ranges):
//
//   [domain@]name/    a push/pop range (nvtxRangePush*, nvtxDomainRangePushEx) named `name`,
//                     at any nesting level; the trailing '/' says push/pop
//   [domain@]name     a start/end range (nvtxRangeStart*, nvtxDomainRangeStartEx)
//
// Without `domain@` the range must be in the default domain (ncu's rule). `name` is exact or
// `regex:<expr>` (NameMatcher); `domain` is exact. --nvtx-include is repeatable: a range is
// measured when any spec matches it. ncu's nested forms (`A/B/`, `[A`, `B]`, `A/*/B`) are not
// supported and are refused with one message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/kernel_filter.h"
#include "util/status.h"

namespace gpuscope {

enum class NvtxRangeKind { kPushPop, kStartEnd };

struct NvtxRangeSpec {
  NvtxRangeKind kind = NvtxRangeKind::kPushPop;
  std::string domain;  // empty: the default domain
  NameMatcher name;
};

StatusOr<NvtxRangeSpec> ParseNvtxRangeSpec(std::string_view text);

class NvtxRangeFilter {
 public:
  // `specs`: the --nvtx-include texts; an error names the first bad one.
  static StatusOr<NvtxRangeFilter> Parse(const std::vector<std::string>& specs);
  bool empty() const { return specs_.empty(); }
  // `domain`: empty for the default domain (or one whose name gpuscope never saw).
  bool Matches(NvtxRangeKind kind, std::string_view domain, std::string_view name) const;
  // Whether any spec is of `kind` (the injection only watches the callbacks it needs).
  bool Wants(NvtxRangeKind kind) const;
  // The specs as given, which Parse reads back (the launcher hands them to the injection).
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  std::vector<NvtxRangeSpec> specs_;
  std::vector<std::string> texts_;
};

// The name a measured NVTX range gets in the report: "domain@name" or "name" (default domain).
std::string NvtxRangeDisplayName(std::string_view domain, std::string_view name);

}  // namespace gpuscope
