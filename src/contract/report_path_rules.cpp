#include "contract/report_path_rules.h"

namespace gpuscope::contract {
namespace {

std::string EscapePercent(std::string_view text) {
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '%') out.push_back('%');
  }
  return out;
}

}  // namespace

StatusOr<std::string> ExpandReportPath(std::string_view pattern, const PatternContext& context,
                                       bool is_root) {
  StatusOr<std::string> expanded = ExpandPathPattern(pattern, context);
  if (!expanded.ok()) return expanded.status();
  if (expanded->empty()) return Status::Error("the report path is empty");
  if (!is_root && !PatternHasPid(pattern)) {
    // (Built with append: GCC 12 warns falsely about `"." + std::to_string(...)`.)
    std::string suffix = ".";
    suffix += std::to_string(context.pid);
    return InsertBeforeExtension(*expanded, suffix);
  }
  return expanded;
}

std::string AbsoluteReportPattern(std::string_view pattern, std::string_view working_directory) {
  if (pattern.starts_with('/')) return std::string(pattern);
  return EscapePercent(working_directory) + "/" + std::string(pattern);
}

}  // namespace gpuscope::contract
