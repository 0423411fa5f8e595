// Paragraphs of rule text wrapped on word boundaries, shared by the kernel findings, the trace
// findings and `gpuscope rules --list` so that all of them wrap alike.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::render {

// The text lines of `text` wrapped at `width` columns, on word boundaries; runs of spaces
// separate words like one space. A word longer than `width` gets a line of its own.
std::vector<std::string> WrapWords(std::string_view text, std::size_t width);

}  // namespace gpuscope::render
