#include "store/report_text.h"

#include <cstdio>

namespace gpuscope::store {

std::uint64_t ReportTextHash(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string ShortenedReportText(std::string_view text) {
  if (text.size() <= kMaxReportTextBytes) return std::string(text);
  char marker[64];
  const int written = std::snprintf(marker, sizeof marker, "...[%zu bytes, #%016llx]", text.size(),
                                    static_cast<unsigned long long>(ReportTextHash(text)));
  const auto marker_size = static_cast<std::size_t>(written);
  std::size_t keep = kMaxReportTextBytes - marker_size;
  // Back up to the start of a UTF-8 character (continuation bytes are 10xxxxxx), so that
  // the cut never leaves half a character for the JSON and terminal writers to replace (a
  // character has at most 3 of them; text that is not UTF-8 is cut where it is).
  for (int backed = 0; backed < 3 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80;
       ++backed) {
    --keep;
  }
  std::string shortened(text.substr(0, keep));
  shortened.append(marker, marker_size);
  return shortened;
}

}  // namespace gpuscope::store
