// The targets an option declaration names (OptionSpec::target): each fills one field, and
// checks the value first where the field's type needs it, with the error naming the option
// as the user spelled it. A command's options are then a list of declarations, e.g.
//   {"csv", 0, "", "print CSV", SetFlag(options.csv)},
// and parsing them is one call (ParseCommandLine), with no switch over option ids.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options/option_parser.h"
#include "contract/environment_values.h"
#include "util/report_permissions.h"
#include "util/status.h"
#include "util/units.h"

namespace gpuscope::cli {

// Flags (options without a value).
OptionTarget SetFlag(bool& field);    // true
OptionTarget ClearFlag(bool& field);  // false: --no-rules
template <typename T>
OptionTarget SetTo(T& field, T value) {
  return [&field, value](const ParsedOption&) {
    field = value;
    return Status();
  };
}

// Texts, as given.
OptionTarget StoreText(std::string& field);
OptionTarget StoreText(std::optional<std::string>& field);
// A text that must not be empty: "option '-o' needs a file name" (`what`: "a file name").
OptionTarget StoreNonEmptyText(std::string& field, std::string_view what);
OptionTarget StoreNonEmptyText(std::optional<std::string>& field, std::string_view what);
// Repeatable: each occurrence adds its value, or (comma list) each of its comma-separated names.
OptionTarget AppendText(std::vector<std::string>& field);
OptionTarget AppendCommaList(std::vector<std::string>& field);

// nvprof's on|off.
OptionTarget StoreOnOff(bool& field);
// -u: s|ms|us|ns|auto.
OptionTarget StoreTimeUnit(TimeUnit& field);
// --report-permissions (run and profile): private|umask.
OptionTarget StoreReportPermissions(ReportPermissions& field);

// One name of a fixed list, stored as its value: "option '--page' expects details, raw, not
// 'x'" names the list on a bad value.
template <typename T>
struct NamedValue {
  std::string_view name;
  T value;
};
Status NotOneOf(const ParsedOption& option, std::span<const std::string_view> names);
template <typename T>
OptionTarget StoreChoice(T& field, std::vector<NamedValue<T>> table) {
  return [&field, table = std::move(table)](const ParsedOption& option) {
    std::vector<std::string_view> names;
    for (const NamedValue<T>& entry : table) {
      if (option.value == entry.name) {
        field = entry.value;
        return Status();
      }
      names.push_back(entry.name);
    }
    return NotOneOf(option, names);
  };
}

// One name of a list of spellings declared in the contract, which the injection reads too
// (contract/environment_values.h); errors as StoreChoice's.
template <typename T, std::size_t N>
OptionTarget StoreSpelling(T& field, const contract::Spelling<T> (&spellings)[N]) {
  std::vector<NamedValue<T>> table;
  for (const contract::Spelling<T>& spelling : spellings) {
    table.push_back({spelling.name, spelling.value});
  }
  return StoreChoice(field, std::move(table));
}

// The value read by `parse` (value -> StatusOr<T>), whose error is the option's.
template <typename T, typename Parse>
OptionTarget StoreParsed(T& field, Parse parse) {
  return [&field, parse = std::move(parse)](const ParsedOption& option) {
    auto parsed = parse(option.value);
    if (!parsed.ok()) return parsed.status();
    field = std::move(*parsed);
    return Status();
  };
}

// `target`, and records that the option was given (for checks of which options combine).
OptionTarget Marking(bool& given, OptionTarget target);

}  // namespace gpuscope::cli
