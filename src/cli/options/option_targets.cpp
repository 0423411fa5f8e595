#include "cli/options/option_targets.h"

#include "util/comma_list.h"

namespace gpuscope::cli {

OptionTarget SetFlag(bool& field) { return SetTo(field, true); }

OptionTarget ClearFlag(bool& field) { return SetTo(field, false); }

OptionTarget StoreText(std::string& field) {
  return [&field](const ParsedOption& option) {
    field = option.value;
    return Status();
  };
}

OptionTarget StoreText(std::optional<std::string>& field) {
  return [&field](const ParsedOption& option) {
    field = option.value;
    return Status();
  };
}

OptionTarget StoreNonEmptyText(std::string& field, std::string_view what) {
  return [&field, what](const ParsedOption& option) {
    if (option.value.empty()) {
      return Status::Error("option '" + option.spelling + "' needs " + std::string(what));
    }
    field = option.value;
    return Status();
  };
}

OptionTarget StoreNonEmptyText(std::optional<std::string>& field, std::string_view what) {
  return [&field, what](const ParsedOption& option) {
    if (option.value.empty()) {
      return Status::Error("option '" + option.spelling + "' needs " + std::string(what));
    }
    field = option.value;
    return Status();
  };
}

OptionTarget AppendText(std::vector<std::string>& field) {
  return [&field](const ParsedOption& option) {
    field.push_back(option.value);
    return Status();
  };
}

OptionTarget AppendCommaList(std::vector<std::string>& field) {
  return [&field](const ParsedOption& option) {
    for (std::string& name : SplitCommaList(option.value)) field.push_back(std::move(name));
    return Status();
  };
}

OptionTarget StoreOnOff(bool& field) {
  return [&field](const ParsedOption& option) {
    if (option.value != "on" && option.value != "off") {
      return Status::Error("option '" + option.spelling + "' expects 'on' or 'off', not '" +
                           option.value + "'");
    }
    field = option.value == "on";
    return Status();
  };
}

OptionTarget StoreTimeUnit(TimeUnit& field) {
  return [&field](const ParsedOption& option) {
    StatusOr<TimeUnit> unit = ParseTimeUnit(option.value);
    if (!unit.ok()) {
      return Status::Error("option '" + option.spelling + "' expects s, ms, us, ns or auto, not '" +
                           option.value + "'");
    }
    field = *unit;
    return Status();
  };
}

OptionTarget StoreReportPermissions(ReportPermissions& field) {
  return [&field](const ParsedOption& option) {
    std::optional<ReportPermissions> parsed = ParseReportPermissions(option.value);
    if (!parsed) {
      return Status::Error("option '" + option.spelling + "' expects 'private' or 'umask', not '" +
                           option.value + "'");
    }
    field = *parsed;
    return Status();
  };
}

Status NotOneOf(const ParsedOption& option, std::span<const std::string_view> names) {
  std::string list;
  for (std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return Status::Error("option '" + option.spelling + "' expects " + list + ", not '" +
                       option.value + "'");
}

OptionTarget Marking(bool& given, OptionTarget target) {
  return [&given, target = std::move(target)](const ParsedOption& option) {
    given = true;
    return target(option);
  };
}

}  // namespace gpuscope::cli
