// Text layout shared by the printouts: paragraphs of rule text wrapped on word boundaries (the
// kernel findings, the trace findings and `gpuscope rules --list` wrap alike), and cells of
// nvprof's trace columns aligned right.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::render {

// The text lines of `text` wrapped at `width` columns, on word boundaries; runs of spaces
// separate words like one space. A word longer than `width` gets a line of its own.
std::vector<std::string> WrapWords(std::string_view text, std::size_t width);

// Appends `cell` to `line`, right-aligned in `width` columns (a wider cell is appended whole).
void AppendRight(std::string& line, std::string_view cell, std::size_t width);

}  // namespace gpuscope::render
