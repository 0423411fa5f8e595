#include "analysis/source/source_view.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

#include "analysis/source/source_summary.h"
#include "store/source_tables.h"

namespace gpuscope::analysis::source {
namespace {

using InstructionKey = std::tuple<std::uint64_t, std::int64_t, std::uint64_t>;  // crc, fn, pc
using FunctionKey = std::pair<std::uint64_t, std::int64_t>;                     // crc, fn

// A stored file's text split into lines once, for every line row that quotes it.
class SourceTexts {
 public:
  explicit SourceTexts(const std::map<std::int64_t, store::StoredSourceFile>& files) {
    for (const auto& [id, file] : files) {
      paths_[id] = file.path;
      if (!file.content) continue;
      std::vector<std::string>& lines = lines_[file.path];
      std::string_view rest = *file.content;
      while (!rest.empty()) {
        std::size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        if (line.ends_with('\r')) line.remove_suffix(1);
        lines.emplace_back(line);
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
      }
    }
  }
  std::optional<std::string> Path(std::optional<std::int64_t> id) const {
    if (!id) return std::nullopt;
    auto found = paths_.find(*id);
    return found != paths_.end() ? std::optional<std::string>(found->second) : std::nullopt;
  }
  std::optional<std::string> Line(const std::string& path, std::uint32_t line) const {
    auto found = lines_.find(path);
    if (found == lines_.end() || line == 0 || line > found->second.size()) return std::nullopt;
    return found->second[line - 1];
  }

 private:
  std::map<std::int64_t, std::string> paths_;
  std::map<std::string, std::vector<std::string>> lines_;
};

void GroupLines(KernelSource& kernel, const SourceTexts& texts) {
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> by_line;
  std::optional<std::size_t> lineless;
  for (std::size_t i = 0; i < kernel.instructions.size(); ++i) {
    const InstructionRow& row = kernel.instructions[i];
    std::size_t index;
    if (row.file && row.line) {
      auto [found, added] = by_line.try_emplace({*row.file, *row.line}, kernel.lines.size());
      if (added) {
        LineRow line;
        line.file = row.file;
        line.line = row.line;
        line.text = texts.Line(*row.file, *row.line);
        kernel.lines.push_back(std::move(line));
      }
      index = found->second;
    } else {
      if (!lineless) {
        lineless = kernel.lines.size();
        kernel.lines.emplace_back();
      }
      index = *lineless;
    }
    kernel.lines[index].instructions.push_back(i);
    AddColumns(kernel.lines[index].values, row.values);
  }
  for (LineRow& line : kernel.lines) line.values.resize(SourceColumns().size());
  std::stable_sort(kernel.lines.begin(), kernel.lines.end(),
                   [](const LineRow& a, const LineRow& b) {
                     // By file and line; the group without a line last.
                     if (a.line.has_value() != b.line.has_value()) return a.line.has_value();
                     return std::tie(a.file, a.line) < std::tie(b.file, b.line);
                   });
}

template <typename Row>
void SortHottestFirst(std::vector<Row>& rows, std::size_t column) {
  // Rows without a value in the column last; the values are read in place (copies of the
  // optionals made GCC 12 see an uninitialised read at -O3).
  auto has_value = [column](const Row& row) {
    return column < row.values.size() && row.values[column].has_value();
  };
  std::stable_sort(rows.begin(), rows.end(), [column, has_value](const Row& a, const Row& b) {
    const bool a_has = has_value(a), b_has = has_value(b);
    if (a_has != b_has) return a_has;
    return a_has && *a.values[column] > *b.values[column];
  });
}

// The evaluation's rows not stored yet, added as stored ones: new files get ids after the
// stored ones (a path stored already keeps its id, as the writer's INSERT OR IGNORE does).
void AddPending(const store::SourceRows& pending, std::vector<store::StoredSassInstruction>& sass,
                std::map<std::int64_t, store::StoredSourceFile>& files) {
  std::map<std::string, std::int64_t> id_of;
  for (const auto& [id, file] : files) id_of[file.path] = id;
  std::int64_t next = files.empty() ? 1 : files.rbegin()->first + 1;
  auto file_id = [&](const std::string& path) {
    auto [found, added] = id_of.try_emplace(path, next);
    if (added) {
      store::StoredSourceFile file;
      file.path = path;
      if (auto content = pending.files.find(path); content != pending.files.end()) {
        file.content = content->second;
      }
      files[next++] = std::move(file);
    }
    return found->second;
  };
  for (const store::SassInstructionRow& row : pending.instructions) {
    store::StoredSassInstruction stored;
    stored.cubin_crc = row.cubin_crc;
    stored.function_id = row.function_id;
    stored.pc_offset = row.pc_offset;
    stored.sass = row.sass;
    if (row.file) {
      stored.file_id = file_id(*row.file);
      stored.line = row.line;
    }
    sass.push_back(std::move(stored));
  }
}

}  // namespace

std::string HexOffset(std::uint64_t offset) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%04llx", static_cast<unsigned long long>(offset));
  return text;
}

std::string OpcodeOf(const std::string& sass) {
  std::string_view text = sass;
  auto skip_spaces = [&text] {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
      text.remove_prefix(1);
    }
  };
  skip_spaces();
  if (text.starts_with("@")) {  // the guard predicate
    const std::size_t space = text.find(' ');
    text = space == std::string_view::npos ? std::string_view() : text.substr(space);
    skip_spaces();
  }
  const std::size_t end = text.find_first_of(" \t;");
  return std::string(text.substr(0, end));
}

std::string HotSpot::Location() const {
  if (file && line) return FileBaseName(*file) + ":" + std::to_string(*line);
  if (pc_offset) return HexOffset(*pc_offset);
  return "(no line information)";
}

std::string HotSpot::Summary() const {
  std::string digits = std::to_string(value), grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  std::string text = grouped;
  for (std::size_t i = 0; i < opcodes.size() && i < 3; ++i) {
    text += (i == 0 ? " " : "/") + opcodes[i];
  }
  return text + " at " + Location();
}

StatusOr<std::map<std::int64_t, KernelSource>> LoadKernelSources(
    const store::ReportReader& report, const store::SourceRows* pending,
    ImpossibleValueCounts* impossible) {
  std::map<std::int64_t, KernelSource> kernels;
  if (!store::HasSourceTables(report)) return kernels;
  StatusOr<std::map<std::int64_t, store::StoredKernelSource>> collected =
      store::ReadKernelSources(report);
  if (!collected.ok()) return collected.status();
  StatusOr<std::vector<store::StoredInstructionValue>> values =
      store::ReadInstructionValues(report);
  if (!values.ok()) return values.status();
  StatusOr<std::vector<store::StoredSassInstruction>> sass = store::ReadSassInstructions(report);
  if (!sass.ok()) return sass.status();
  StatusOr<std::map<std::int64_t, store::StoredSourceFile>> files = store::ReadSourceFiles(report);
  if (!files.ok()) return files.status();
  // What this process evaluated but could not store (a read-only report) reads as stored.
  if (pending == nullptr && report.unsaved_evaluation() != nullptr) {
    pending = &report.unsaved_evaluation()->source;
  }
  if (pending != nullptr) AddPending(*pending, *sass, *files);
  const SourceTexts texts(*files);

  for (const auto& [id, source] : *collected) {
    kernels[id].requested = true;
    kernels[id].message = source.message;
  }
  // Per kernel, per instruction, its metrics; and the functions each kernel ran.
  std::map<std::int64_t, std::map<InstructionKey, InstructionMetrics>> measured;
  std::map<std::int64_t, std::set<FunctionKey>> functions;
  std::map<FunctionKey, std::string> function_names;
  for (const store::StoredInstructionValue& value : *values) {
    if (std::optional<ImpossibleValue> why = CheckStoredCount(value.value)) {
      if (impossible != nullptr) impossible->Add(*why);
      continue;
    }
    const InstructionKey key{value.cubin_crc, value.function_id, value.pc_offset};
    measured[value.profiled_kernel_id][key][value.metric] += value.value;
    functions[value.profiled_kernel_id].insert({value.cubin_crc, value.function_id});
    function_names[{value.cubin_crc, value.function_id}] = value.function;
  }
  std::map<InstructionKey, const store::StoredSassInstruction*> sass_of;
  for (const store::StoredSassInstruction& row : *sass) {
    sass_of[{row.cubin_crc, row.function_id, row.pc_offset}] = &row;
  }
  for (auto& [id, by_instruction] : measured) {
    KernelSource& kernel = kernels[id];
    // Every instruction of the kernel's functions: the measured ones and, from the listing,
    // those that never ran (ncu lists them too, with zeros).
    std::map<InstructionKey, InstructionRow> rows;
    auto row_of = [&](const InstructionKey& key) -> InstructionRow& {
      InstructionRow& row = rows[key];
      row.cubin_crc = std::get<0>(key);
      row.function = function_names[{std::get<0>(key), std::get<1>(key)}];
      row.pc_offset = std::get<2>(key);
      return row;
    };
    for (const auto& [key, metrics] : by_instruction) row_of(key).values = ComputeColumns(metrics);
    for (const FunctionKey& function : functions[id]) {
      auto from = sass_of.lower_bound({function.first, function.second, 0});
      for (; from != sass_of.end() && std::get<0>(from->first) == function.first &&
             std::get<1>(from->first) == function.second;
           ++from) {
        InstructionRow& row = row_of(from->first);
        if (row.values.empty()) row.values.resize(SourceColumns().size());
        const store::StoredSassInstruction& stored = *from->second;
        row.sass = stored.sass;
        row.file = texts.Path(stored.file_id);
        row.line = row.file ? stored.line : std::nullopt;
        kernel.has_sass = kernel.has_sass || row.sass.has_value();
        kernel.has_lines = kernel.has_lines || (row.file && row.line);
      }
    }
    for (auto& [key, row] : rows) kernel.instructions.push_back(std::move(row));
    GroupLines(kernel, texts);
  }
  return kernels;
}

void SortInstructions(std::vector<InstructionRow>& rows, std::size_t column) {
  SortHottestFirst(rows, column);
}

void SortLines(std::vector<LineRow>& rows, std::size_t column) { SortHottestFirst(rows, column); }

std::vector<HotSpot> TopInstructions(const KernelSource& kernel, std::size_t column,
                                     std::size_t n) {
  std::vector<InstructionRow> rows = kernel.instructions;
  SortInstructions(rows, column);
  std::vector<HotSpot> spots;
  for (const InstructionRow& row : rows) {
    if (spots.size() >= n || column >= row.values.size() || !row.values[column]) break;
    HotSpot spot;
    spot.file = row.file;
    spot.line = row.line;
    for (const LineRow& line : kernel.lines) {
      if (line.file == row.file && line.line == row.line && row.line) spot.source_text = line.text;
    }
    if (row.sass) spot.opcodes.push_back(OpcodeOf(*row.sass));
    spot.pc_offset = row.pc_offset;
    spot.function = row.function;
    spot.value = *row.values[column];
    spots.push_back(std::move(spot));
  }
  return spots;
}

std::vector<HotSpot> TopLines(const KernelSource& kernel, std::size_t column, std::size_t n) {
  std::vector<LineRow> lines = kernel.lines;
  SortLines(lines, column);
  std::vector<HotSpot> spots;
  for (const LineRow& line : lines) {
    if (spots.size() >= n || column >= line.values.size() || !line.values[column]) break;
    HotSpot spot;
    spot.file = line.file;
    spot.line = line.line;
    spot.source_text = line.text;
    spot.value = *line.values[column];
    // The line's opcodes, those of its hottest instructions first, each once.
    std::vector<const InstructionRow*> members;
    for (std::size_t index : line.instructions) members.push_back(&kernel.instructions[index]);
    std::stable_sort(members.begin(), members.end(),
                     [column](const InstructionRow* a, const InstructionRow* b) {
                       return a->values[column].value_or(0) > b->values[column].value_or(0);
                     });
    for (const InstructionRow* member : members) {
      if (!member->sass || member->values[column].value_or(0) == 0) continue;
      std::string opcode = OpcodeOf(*member->sass);
      if (std::find(spot.opcodes.begin(), spot.opcodes.end(), opcode) == spot.opcodes.end()) {
        spot.opcodes.push_back(std::move(opcode));
      }
    }
    spots.push_back(std::move(spot));
  }
  return spots;
}

}  // namespace gpuscope::analysis::source
