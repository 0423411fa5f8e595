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

#include "cli/option_parser.h"
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

// Option ids of the filters; a command's own ids must stay below kFirstKernelFilterOption.
inline constexpr int kFirstKernelFilterOption = 1000;

// The filters' option declarations. `verb` says what a selected launch gets: "profile",
// "print".
std::vector<OptionSpec> KernelFilterOptionSpecs(std::string_view verb);

// Applies `option` to `filter` when it is one of the filters (then true), with its value
// checked; false for any other option.
StatusOr<bool> ApplyKernelFilterOption(const ParsedOption& option, KernelFilterText& filter);

// The filter the texts describe (they were checked when applied).
StatusOr<KernelFilterSpec> ToKernelFilterSpec(const KernelFilterText& filter);

}  // namespace gpuscope::cli
