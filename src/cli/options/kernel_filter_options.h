// Nsight Compute's kernel filters as command-line options, declared once for the two commands
// that take them: `profile` (which launches to measure) and `stats --page` (which measured
// launches to print again):
//   -k/--kernel-name name|regex:expr   --kernel-name-base function|demangled|mangled
//   -s/--launch-skip N   -c/--launch-count N   --kernel-id ctx:stream:name:invocation
//   --devices 0,1
// Values are checked when parsed, so a bad expression is refused before any work; the texts
// are kept as given (profile hands them to the injection through the environment).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options/option_parser.h"
#include "util/kernel_filter.h"
#include "util/status.h"

namespace gpuscope::cli {

struct KernelFilterText {
  std::string kernel_name;  // -k: name or regex:<expr>; empty: any
  std::string kernel_name_base = "function";
  std::optional<std::uint64_t> launch_skip;
  std::optional<std::uint64_t> launch_count;
  std::string kernel_id;  // --kernel-id context:stream:name:invocation
  std::string devices;    // --devices 0,1
  bool any_given = false;  // whether any of these options was given
};

// The filters' option declarations, filling `filter`. `verb` says what a selected launch
// gets: "profile", "print".
std::vector<OptionSpec> KernelFilterOptionSpecs(std::string_view verb, KernelFilterText& filter);

// The filter the texts describe (they were checked when applied).
StatusOr<KernelFilterSpec> ToKernelFilterSpec(const KernelFilterText& filter);

}  // namespace gpuscope::cli
