#include "render/word_wrap.h"

#include <utility>

namespace gpuscope::render {

std::vector<std::string> WrapWords(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t start = text.find_first_not_of(' ', pos);
    if (start == std::string_view::npos) break;
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    pos = end;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

void AppendRight(std::string& line, std::string_view cell, std::size_t width) {
  if (cell.size() < width) line.append(width - cell.size(), ' ');
  line.append(cell);
}

}  // namespace gpuscope::render
