#include "disassembly/nvdisasm_listing.h"
#include "util/trim.h"

#include <cctype>

namespace gpuscope::disassembly {
namespace {

bool IsHex(std::string_view text) {
  if (text.empty() || text.size() > 16) return false;
  for (char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "/*0130*/   DADD R2, R6, R2 ;" -> offset and text; false for any other line.
bool ParseInstruction(std::string_view line, SassInstruction& instruction) {
  if (!line.starts_with("/*")) return false;
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos) return false;
  std::string_view offset = line.substr(2, close - 2);
  if (!IsHex(offset)) return false;
  std::string_view text = TrimWhitespace(line.substr(close + 2));
  // Without -c nvdisasm appends the encoding as "/* 0x... */": kept out of the text.
  if (std::size_t comment = text.find("/*"); comment != std::string_view::npos) {
    text = TrimWhitespace(text.substr(0, comment));
  }
  if (text.ends_with(";")) text = TrimWhitespace(text.substr(0, text.size() - 1));
  if (text.empty()) return false;
  instruction.offset = std::stoull(std::string(offset), nullptr, 16);
  instruction.text = std::string(text);
  return true;
}

}  // namespace

SassListing ParseNvdisasmListing(std::string_view listing) {
  SassListing functions;
  std::vector<SassInstruction>* current = nullptr;
  while (!listing.empty()) {
    const std::size_t end = listing.find('\n');
    std::string_view line = TrimWhitespace(listing.substr(0, end));
    listing = end == std::string_view::npos ? std::string_view() : listing.substr(end + 1);
    // The section label ".text._Z3accPKfPdi:" opens a function (the "//---- .text.x ----"
    // banner and the ".section .text.x,..." directive before it are not labels).
    if (line.starts_with(".text.") && line.ends_with(":") && line.size() > 7) {
      current = &functions[std::string(line.substr(6, line.size() - 7))];
      continue;
    }
    // Any other section ends the function: its lines are data, not instructions.
    if (line.starts_with(".section")) {
      if (line.find(".text.") == std::string_view::npos) current = nullptr;
      continue;
    }
    SassInstruction instruction;
    if (current != nullptr && ParseInstruction(line, instruction)) {
      current->push_back(std::move(instruction));
    }
  }
  return functions;
}

}  // namespace gpuscope::disassembly
