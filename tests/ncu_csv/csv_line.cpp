#include "csv_line.h"

namespace gpuscope::ncu_csv {

std::optional<std::vector<std::string>> SplitCsvLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> fields;
  std::string field;
  size_t i = 0;
  while (true) {
    field.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {  // "" is one quote inside a field
            field += '"';
            i += 2;
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        field += line[i++];
      }
      if (!closed) return std::nullopt;
      if (i < line.size() && line[i] != ',') return std::nullopt;
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return std::nullopt;  // a quote in the middle of a bare field
        field += line[i++];
      }
    }
    fields.push_back(field);
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

bool LooksLikeQuotedRecord(std::string_view line) { return !line.empty() && line.front() == '"'; }

}  // namespace gpuscope::ncu_csv
