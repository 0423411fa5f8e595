#include "cli/format_option.h"

#include <algorithm>
#include <string>

namespace gpuscope::cli {
namespace {

std::string_view FormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kColumn:
      return "column";
    case OutputFormat::kCsv:
      return "csv";
    case OutputFormat::kJson:
      return "json";
  }
  return "column";
}

// "column or csv", "column, csv or json".
std::string Alternatives(std::span<const OutputFormat> formats) {
  std::string text;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) text += i + 1 == formats.size() ? " or " : ", ";
    text += FormatName(formats[i]);
  }
  return text;
}

}  // namespace

StatusOr<OutputFormat> ParseFormatOption(std::string_view value,
                                         std::span<const OutputFormat> supported) {
  StatusOr<OutputFormat> format = render::ParseStatsFormat(value);
  if (!format.ok() ||
      std::find(supported.begin(), supported.end(), *format) == supported.end()) {
    return Status::Error("option '--format' expects " + Alternatives(supported) + ", not '" +
                         std::string(value) + "'");
  }
  return format;
}

}  // namespace gpuscope::cli
