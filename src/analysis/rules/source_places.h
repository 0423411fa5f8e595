// Where in the code a finding happens, for its message: the kernel's source lines (issue 11,
// analysis/source) hottest first by one source-page column, counting only the instructions a
// rule is about (FP64 arithmetic, global loads, ...). Each rule appends one sentence built
// from these; a kernel without source data gets no sentence, so its message stays as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rules/rule_inputs.h"

namespace gpuscope::analysis::rules {

// Which instructions count, by opcode without modifiers ("LDG" of "LDG.E.64"); nullptr: all.
using OpcodeFilter = bool (*)(std::string_view opcode);
bool IsFp64Arithmetic(std::string_view opcode);  // DADD, DMUL, DFMA, ...
bool IsGlobalLoad(std::string_view opcode);      // LDG, LD (generic), LDGSTS
bool IsGlobalStore(std::string_view opcode);     // STG, ST (generic), RED, ATOM(G)

// One source line (or, without line information, one instruction) and its share of a column.
struct Place {
  std::optional<std::string> file;  // as the line table names it
  std::optional<std::uint32_t> line;
  std::optional<std::string> text;   // the line's code, when the file was stored
  std::vector<std::string> opcodes;  // of its counted instructions, hottest first, each once
  std::uint64_t pc_offset = 0;       // of its hottest counted instruction
  std::uint64_t value = 0;           // the column summed over its counted instructions
};

struct Places {
  std::vector<Place> top;   // largest value first; places with 0 left out
  std::uint64_t total = 0;  // the column over every counted instruction of the kernel
};

// The `n` places of the kernel behind `in` with the most of source column `column` (a header of
// analysis/source's SourceColumns); empty when the kernel has no source data or no value there.
Places TopPlaces(const RuleInputs& in, std::string_view column, OpcodeFilter filter, std::size_t n);

// "k.cu:4 `s += a[i];`" (the file's last path component, the code trimmed and at most 80
// characters), "k.cu:4" without stored code, "+0x0130 DADD" without a line.
std::string PlaceText(const Place& place);

// "; " between the places, each described by `describe`.
template <typename Describe>
std::string JoinPlaces(const std::vector<Place>& places, Describe describe) {
  std::string text;
  for (const Place& place : places) {
    if (!text.empty()) text += "; ";
    text += describe(place);
  }
  return text;
}

// "lines", or "instructions" when the places have no line information (each is then one
// instruction).
std::string PlacesNoun(const Places& places);

// "(12.5% of the kernel's)": `part` of `total`, "" when total is 0.
std::string ShareOf(std::uint64_t part, std::uint64_t total);

}  // namespace gpuscope::analysis::rules
