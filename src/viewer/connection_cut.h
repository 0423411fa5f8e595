// Which open connection the viewer's server cuts when it already holds as many as it may
// and another client connects.
//
// Refusing the newcomer (as the server once did) let a local process that keeps the
// server's 256 connections open and idle, re-opening each as it is cut, keep every other
// client out. So the newcomer is admitted and an open connection is cut instead:
//  - one already answered, lingering for the client's last bytes, first: that costs no one;
//  - else one of the client address holding the most connections (the newcomer counted), so
//    that no address takes the share of another (each 127.x.y.z is an address of its own);
//  - of those, the one idle the longest (silent since it was accepted, or since its last
//    bytes), so that a client that has just connected to send its request goes last.
// A connection whose request a worker handles, or whose answer is being written, is never
// cut: when only those are open, the newcomer is refused.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

namespace gpuscope::viewer {

struct OpenConnection {
  enum class Stage {
    kReading,    // the request head has not all arrived
    kBusy,       // handled by a worker, or its answer is being written
    kLingering,  // answered; what the client still sends is read and dropped
  };
  std::uint64_t id = 0;
  std::uint32_t peer = 0;  // the client's IPv4 address
  Stage stage = Stage::kReading;
  std::chrono::steady_clock::time_point last_heard;  // accepted, or its last bytes read
};

// The id of the connection to cut to admit a newcomer from `newcomer_peer`; nullopt when
// none may be cut.
std::optional<std::uint64_t> ConnectionToCut(std::span<const OpenConnection> open,
                                             std::uint32_t newcomer_peer);

}  // namespace gpuscope::viewer
