#include "evaluate/isolated_source_lines.h"

#include <cstring>
#include <string>

#include "evaluate/cupti_child.h"

namespace gpuscope::evaluate {
namespace {

using Lines = std::vector<std::vector<std::optional<cupti::host::SourceLocation>>>;

// The child's answer: per pc in order, a presence byte, then for a line its number and the
// file name's length (both uint32) and the name's bytes.
std::string Encode(std::span<const std::uint8_t> cubin, const std::vector<FunctionPcs>& functions) {
  std::string bytes;
  for (const FunctionPcs& function : functions) {
    for (std::uint64_t pc : function.pcs) {
      std::optional<cupti::host::SourceLocation> line =
          cupti::host::SourceLineOf(cubin, function.function, pc);
      bytes.push_back(line ? '\1' : '\0');
      if (!line) continue;
      std::uint32_t numbers[2] = {line->line, static_cast<std::uint32_t>(line->file.size())};
      bytes.append(reinterpret_cast<const char*>(numbers), sizeof numbers);
      bytes += line->file;
    }
  }
  return bytes;
}

StatusOr<Lines> Decode(const std::string& bytes, const std::vector<FunctionPcs>& functions) {
  const Status garbled = Status::Error("the line-reading process gave no whole answer");
  Lines lines;
  std::size_t at = 0;
  for (const FunctionPcs& function : functions) {
    lines.emplace_back();
    for (std::size_t i = 0; i < function.pcs.size(); ++i) {
      if (at >= bytes.size()) return garbled;
      if (bytes[at++] == '\0') {
        lines.back().push_back(std::nullopt);
        continue;
      }
      std::uint32_t numbers[2];
      if (bytes.size() - at < sizeof numbers) return garbled;
      std::memcpy(numbers, bytes.data() + at, sizeof numbers);
      at += sizeof numbers;
      if (bytes.size() - at < numbers[1]) return garbled;
      lines.back().push_back(cupti::host::SourceLocation{bytes.substr(at, numbers[1]), numbers[0]});
      at += numbers[1];
    }
  }
  if (at != bytes.size()) return garbled;
  return lines;
}

}  // namespace

StatusOr<Lines> SourceLinesIsolated(std::span<const std::uint8_t> cubin,
                                    const std::vector<FunctionPcs>& functions,
                                    std::chrono::milliseconds limit) {
  StatusOr<ChildAnswer> answer = RunInCuptiChild([&] { return Encode(cubin, functions); },
                                                 limit, "cannot read source lines");
  if (!answer.ok()) return answer.status();
  if (answer->ending == ChildAnswer::Ending::kTimedOut) {
    return Status::Error("reading the cubin's line table did not finish in time");
  }
  if (answer->ending == ChildAnswer::Ending::kCrashed) {
    return Status::Error("CUPTI crashed reading the cubin's line table (signal " +
                         std::to_string(answer->signal) + "): the cubin is damaged");
  }
  return Decode(answer->bytes, functions);
}

}  // namespace gpuscope::evaluate
