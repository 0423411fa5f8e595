#include "viewer/connection_cut.h"

#include <unordered_map>

namespace gpuscope::viewer {

std::optional<std::uint64_t> ConnectionToCut(std::span<const OpenConnection> open,
                                             std::uint32_t newcomer_peer) {
  using Stage = OpenConnection::Stage;
  const OpenConnection* lingering = nullptr;
  for (const OpenConnection& connection : open) {
    if (connection.stage == Stage::kLingering &&
        (!lingering || connection.last_heard < lingering->last_heard)) {
      lingering = &connection;
    }
  }
  if (lingering) return lingering->id;

  std::unordered_map<std::uint32_t, std::size_t> held;  // connections per address
  for (const OpenConnection& connection : open) ++held[connection.peer];
  ++held[newcomer_peer];
  // The reading connection of the address holding the most, idle the longest.
  const OpenConnection* cut = nullptr;
  for (const OpenConnection& connection : open) {
    if (connection.stage != Stage::kReading) continue;
    if (cut == nullptr) {
      cut = &connection;
      continue;
    }
    const std::size_t mine = held[connection.peer], theirs = held[cut->peer];
    if (mine > theirs || (mine == theirs && connection.last_heard < cut->last_heard)) {
      cut = &connection;
    }
  }
  if (cut) return cut->id;
  return std::nullopt;
}

}  // namespace gpuscope::viewer
