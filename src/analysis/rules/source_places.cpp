#include "analysis/rules/source_places.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "analysis/source/source_view.h"

namespace gpuscope::analysis::rules {
namespace {

// Code longer than this is cut: the message stays one readable paragraph.
constexpr std::size_t kMaxCodeChars = 80;

// "LDG" of "LDG.E.64.CONSTANT".
std::string_view BaseOpcode(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

bool OneOf(std::string_view opcode, std::initializer_list<std::string_view> names) {
  const std::string_view base = BaseOpcode(opcode);
  return std::find(names.begin(), names.end(), base) != names.end();
}

// The last path component; the whole path when that is empty ("dir/"), "?" for no path.
std::string BaseName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty()) name = path;
  return name.empty() ? std::string("?") : name;
}

// Whitespace runs (tabs, indentation) become one space; the ends are trimmed; long code is
// cut at kMaxCodeChars with "...". A backtick inside would end the quote early: it becomes '.
std::string TrimCode(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += c == '`' ? '\'' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > kMaxCodeChars) {
    // Cut before a UTF-8 continuation byte's lead, never inside a character.
    std::size_t cut = kMaxCodeChars - 3;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return out;
}

struct Accumulated {
  Place place;
  std::vector<std::pair<std::uint64_t, std::string>> members;  // value, opcode
};

}  // namespace

bool IsFp64Arithmetic(std::string_view opcode) {
  return OneOf(opcode, {"DADD", "DMUL", "DFMA", "DMNMX", "DSETP", "DMMA"});
}

bool IsGlobalLoad(std::string_view opcode) { return OneOf(opcode, {"LDG", "LD", "LDGSTS"}); }

bool IsGlobalStore(std::string_view opcode) {
  return OneOf(opcode, {"STG", "ST", "RED", "REDG", "ATOM", "ATOMG"});
}

Places TopPlaces(const RuleInputs& in, std::string_view column_name, OpcodeFilter filter,
                 std::size_t n) {
  Places places;
  const source::KernelSource* kernel = in.source();
  const std::optional<std::size_t> column = source::FindSourceColumn(column_name);
  if (kernel == nullptr || !column || n == 0) return places;
  // Keyed by (has no line, file, line or pc): lines in file order, then lone instructions.
  using Key = std::tuple<bool, std::string, std::uint64_t>;
  std::map<Key, Accumulated> by_place;
  for (const source::InstructionRow& row : kernel->instructions) {
    if (*column >= row.values.size() || !row.values[*column] || *row.values[*column] == 0) {
      continue;
    }
    const std::string opcode = row.sass ? source::OpcodeOf(*row.sass) : std::string();
    // Without SASS nothing says what an instruction is: a filtered column cannot count it.
    if (filter != nullptr && (opcode.empty() || !filter(opcode))) continue;
    const std::uint64_t value = *row.values[*column];
    const bool has_line = row.file && row.line;
    const Key key = has_line ? Key{false, *row.file, *row.line} : Key{true, "", row.pc_offset};
    Accumulated& entry = by_place[key];
    if (entry.members.empty()) {
      entry.place.file = has_line ? row.file : std::nullopt;
      entry.place.line = has_line ? row.line : std::nullopt;
    }
    entry.place.value += value;
    entry.members.emplace_back(value, opcode);
    // The hottest instruction names the place when there is no line.
    if (entry.members.size() == 1 || value > entry.members.front().first) {
      entry.place.pc_offset = row.pc_offset;
    }
    places.total += value;
  }
  for (auto& [key, entry] : by_place) {
    std::stable_sort(entry.members.begin(), entry.members.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [value, opcode] : entry.members) {
      if (opcode.empty()) continue;
      if (std::find(entry.place.opcodes.begin(), entry.place.opcodes.end(), opcode) ==
          entry.place.opcodes.end()) {
        entry.place.opcodes.push_back(opcode);
      }
    }
    if (entry.place.file && entry.place.line) {
      for (const source::LineRow& line : kernel->lines) {
        if (line.file == entry.place.file && line.line == entry.place.line) {
          entry.place.text = line.text;
          break;
        }
      }
    }
    places.top.push_back(std::move(entry.place));
  }
  std::stable_sort(places.top.begin(), places.top.end(),
                   [](const Place& a, const Place& b) { return a.value > b.value; });
  if (places.top.size() > n) places.top.resize(n);
  return places;
}

std::string PlaceText(const Place& place) {
  if (place.file && place.line) {
    std::string text = BaseName(*place.file) + ":" + std::to_string(*place.line);
    if (place.text) {
      const std::string code = TrimCode(*place.text);
      if (!code.empty()) text += " `" + code + "`";
    }
    return text;
  }
  std::string text = "+" + source::HexOffset(place.pc_offset);
  if (!place.opcodes.empty()) text += " " + place.opcodes.front();
  return text;
}

std::string PlacesNoun(const Places& places) {
  return !places.top.empty() && !places.top.front().line ? "instructions" : "lines";
}

std::string ShareOf(std::uint64_t part, std::uint64_t total) {
  if (total == 0) return "";
  return "(" + Fixed(100.0 * static_cast<double>(part) / static_cast<double>(total), 1) +
         "% of the kernel's)";
}

}  // namespace gpuscope::analysis::rules
