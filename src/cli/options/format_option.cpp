#include "cli/options/format_option.h"

#include <algorithm>
#include <span>
#include <string>

#include "cli/options/option_targets.h"

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

constexpr std::string_view kCsvHelp = "the same as --format csv (nvprof's and ncu's spelling)";

}  // namespace

OptionSpec FormatOption(OutputFormat& format) {
  static constexpr OutputFormat kAllFormats[] = {OutputFormat::kColumn, OutputFormat::kCsv,
                                                 OutputFormat::kJson};
  return {"format", 0, "column|csv|json", "output format (default column)",
          [&format](const ParsedOption& option) {
            StatusOr<OutputFormat> parsed = ParseFormatOption(option.value, kAllFormats);
            if (!parsed.ok()) return parsed.status();
            format = *parsed;
            return Status();
          }};
}

OptionSpec FormatOption(bool& csv) {
  static constexpr OutputFormat kColumnAndCsv[] = {OutputFormat::kColumn, OutputFormat::kCsv};
  return {"format", 0, "column|csv", "output format (default column)",
          [&csv](const ParsedOption& option) {
            StatusOr<OutputFormat> parsed = ParseFormatOption(option.value, kColumnAndCsv);
            if (!parsed.ok()) return parsed.status();
            csv = *parsed == OutputFormat::kCsv;
            return Status();
          }};
}

OptionSpec CsvOption(OutputFormat& format) {
  return {"csv", 0, "", kCsvHelp, SetTo(format, OutputFormat::kCsv)};
}

OptionSpec CsvOption(bool& csv) { return {"csv", 0, "", kCsvHelp, SetFlag(csv)}; }

}  // namespace gpuscope::cli
