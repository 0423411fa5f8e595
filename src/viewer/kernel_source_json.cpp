#include "viewer/kernel_source_json.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/source/source_summary.h"
#include "render/escaping.h"
#include "render/source_page.h"

namespace gpuscope::viewer {
namespace {

namespace src = analysis::source;
using render::JsonString;

std::string OptionalCount(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : "null";
}

std::string OptionalText(const std::optional<std::string>& text) {
  return text ? JsonString(*text) : "null";
}

const char* KindName(src::ColumnKind kind) {
  switch (kind) {
    case src::ColumnKind::kExcess:
      return "excess";
    case src::ColumnKind::kAllSamples:
    case src::ColumnKind::kNotIssued:
    case src::ColumnKind::kStallReason:
    case src::ColumnKind::kStallNotIssued:
      return "samples";
    case src::ColumnKind::kMetric:
      break;
  }
  return "count";
}

bool IsPerReason(src::ColumnKind kind) {
  return kind == src::ColumnKind::kStallReason || kind == src::ColumnKind::kStallNotIssued;
}

std::string ValuesJson(const src::ColumnValues& values, const std::vector<std::size_t>& columns) {
  std::string out = "[";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) out += ',';
    out += OptionalCount(columns[i] < values.size() ? values[columns[i]] : std::nullopt);
  }
  return out + "]";
}

std::string StallsJson(const src::ColumnValues& values) {
  std::string out = "[";
  for (const auto& [column, samples] : src::StallReasons(values)) {
    if (out.size() > 1) out += ',';
    out +=
        "[" + JsonString(src::SourceColumns()[column].header) + "," + std::to_string(samples) + "]";
  }
  return out + "]";
}

std::string ColumnsJson(const std::vector<std::size_t>& columns, const src::ColumnValues& totals) {
  std::string out = "[";
  for (std::size_t c : columns) {
    if (out.size() > 1) out += ',';
    const src::SourceColumn& column = src::SourceColumns()[c];
    out += "{\"name\":" + JsonString(column.header) + ",\"kind\":\"" + KindName(column.kind) +
           "\",\"total\":" + OptionalCount(totals[c]) + "}";
  }
  return out + "]";
}

std::string LinesJson(const src::KernelSource& source, const std::vector<std::size_t>& columns) {
  std::string out = "[";
  for (const src::LineRow& line : source.lines) {
    if (out.size() > 1) out += ',';
    std::string instructions;
    for (std::size_t index : line.instructions) {
      if (!instructions.empty()) instructions += ',';
      instructions += std::to_string(index);
    }
    out += "{\"file\":" +
           (line.file ? JsonString(src::FileBaseName(*line.file)) : std::string("null")) +
           ",\"path\":" + OptionalText(line.file) +
           ",\"line\":" + (line.line ? std::to_string(*line.line) : std::string("null")) +
           ",\"text\":" + OptionalText(line.text) +
           ",\"values\":" + ValuesJson(line.values, columns) +
           ",\"stalls\":" + StallsJson(line.values) + ",\"instructions\":[" + instructions + "]}";
  }
  return out + "]";
}

std::string InstructionsJson(const src::KernelSource& source,
                             const std::vector<std::size_t>& columns) {
  // Which line row holds each instruction (every instruction is in exactly one).
  std::vector<std::size_t> line_of(source.instructions.size(), 0);
  for (std::size_t l = 0; l < source.lines.size(); ++l) {
    for (std::size_t index : source.lines[l].instructions) {
      if (index < line_of.size()) line_of[index] = l;
    }
  }
  std::string out = "[";
  for (std::size_t i = 0; i < source.instructions.size(); ++i) {
    const src::InstructionRow& row = source.instructions[i];
    if (i) out += ',';
    out += "{\"pc\":" + JsonString(src::HexOffset(row.pc_offset)) +
           ",\"function\":" + JsonString(row.function) + ",\"sass\":" + OptionalText(row.sass) +
           ",\"line\":" + std::to_string(line_of[i]) +
           ",\"values\":" + ValuesJson(row.values, columns) +
           ",\"stalls\":" + StallsJson(row.values) + "}";
  }
  return out + "]";
}

}  // namespace

std::string KernelSourceJson(const src::KernelSource* source) {
  const std::string reason = src::NoSourceDataReason(source);
  if (!reason.empty()) return "{\"available\":false,\"message\":" + JsonString(reason) + "}";
  std::vector<std::size_t> columns;
  for (std::size_t c : src::ColumnsWithValues(*source)) {
    if (!IsPerReason(src::SourceColumns()[c].kind)) columns.push_back(c);
  }
  const src::ColumnValues totals = src::KernelTotals(*source);
  std::string reasons = "[";
  for (const auto& [column, samples] : src::StallReasons(totals)) {
    if (reasons.size() > 1) reasons += ',';
    reasons += "{\"name\":" + JsonString(src::SourceColumns()[column].header) +
               ",\"samples\":" + std::to_string(samples) + "}";
  }
  reasons += "]";
  return std::string("{\"available\":true,\"message\":") + JsonString(source->message) +
         ",\"has_lines\":" + (source->has_lines ? "true" : "false") +
         ",\"has_sass\":" + (source->has_sass ? "true" : "false") +
         ",\"lines_note\":" + JsonString(source->has_lines ? "" : render::kNoLineInfoNote) +
         ",\"columns\":" + ColumnsJson(columns, totals) + ",\"stall_reasons\":" + reasons +
         ",\"lines\":" + LinesJson(*source, columns) +
         ",\"instructions\":" + InstructionsJson(*source, columns) + "}";
}

}  // namespace gpuscope::viewer
