#include "cli/command_suggestion.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

#include "cli/commands/commands.h"

namespace gpuscope::cli {
namespace {

// Optimal string alignment distance: Levenshtein plus the swap of two neighbours ("stast").
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string_view> NearMissCommand(std::string_view word) {
  if (word.empty() || word.find('/') != std::string_view::npos) return std::nullopt;
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (const Command& command : Commands()) {
    std::size_t allowed = std::min(word.size(), command.name.size()) <= 4 ? 1 : 2;
    std::size_t distance = EditDistance(word, command.name);
    if (distance == 0 || distance > allowed) continue;
    if (!best || distance < best_distance) {
      best = command.name;
      best_distance = distance;
    }
  }
  return best;
}

bool IsSqliteFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char header[16] = {};
  if (!file.read(header, sizeof header)) return false;
  return std::memcmp(header, "SQLite format 3", sizeof header) == 0;  // with its NUL
}

std::string ReportIsNoProgramError(const std::string& word) {
  return "'" + word + "' is a report, not a program to trace: did you mean 'gpuscope stats " +
         word + "'?";
}

std::optional<std::string> NotAProgramError(const std::string& word) {
  if (IsSqliteFile(word)) return ReportIsNoProgramError(word);
  if (std::optional<std::string_view> command = NearMissCommand(word)) {
    return "unknown command '" + word + "': did you mean " + std::string(*command) +
           "? (to trace a program of that name: gpuscope run -- " + word + ")";
  }
  return std::nullopt;
}

}  // namespace gpuscope::cli
