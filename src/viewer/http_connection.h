// One client connection of the viewer server, driven by the server's event loop and never
// blocking it: the socket is non-blocking and each call does what the socket allows now.
//
// Reading: the request head accumulates under kMaxRequestHeadBytes and one deadline that
// counts from accept, so a client that sends a byte every few seconds cannot renew it (a
// per-read timeout could be renewed forever). Handling: a worker thread owns the request;
// the connection waits without a deadline of its own (the handler's work is bounded by the
// routes). Writing: the answer goes out as the client takes it, under its own deadline.
// Draining: after the answer the write side is shut and what the client still sends is read
// and dropped for a short while, so that an early answer (431 while the client is still
// sending a 1 MB head) reaches it instead of being lost to a TCP reset.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace gpuscope::viewer {

class HttpConnection {
 public:
  using Clock = std::chrono::steady_clock;
  enum class State { kReading, kHandling, kWriting, kDraining, kDone };
  struct Times {
    std::chrono::milliseconds read;   // from accept to the end of the head
    std::chrono::milliseconds write;  // from the answer being ready to its last byte sent
    std::chrono::milliseconds linger;
  };

  // Takes ownership of `fd`, a non-blocking socket from `peer` (IPv4) accepted at `accepted`.
  HttpConnection(int fd, std::uint32_t peer, Clock::time_point accepted, Times times);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  int fd() const { return fd_; }
  std::uint32_t peer() const { return peer_; }
  State state() const { return state_; }
  // When the client was last heard from: accepted, or the last bytes of its head read. Which
  // connection the server cuts first when it is full (viewer/connection_cut.h).
  Clock::time_point last_heard() const { return last_heard_; }
  // The poll() events the current state waits for (0 while a worker handles the request).
  short events() const;
  // When the current state ends by itself; meaningless while handling.
  Clock::time_point deadline() const { return deadline_; }

  // Reading: reads what has arrived. Returns the complete head (without its blank line) once,
  // and the connection is then handling. A head that is too large, or a client that closes
  // mid-head, is answered here with an error.
  std::optional<std::string> ReadHead();
  // Any state but done: `bytes` (a formatted response) is what the client gets next.
  void Respond(std::string bytes);
  // Writing: sends what the socket takes; draining once all is sent.
  void Write();
  // Draining: reads and drops; done at the client's end of stream.
  void Drain();
  // Ends a state whose deadline has passed at `now`: a head not complete in time is answered
  // 408; a write or a drain that outlives its deadline is dropped.
  void ExpireAt(Clock::time_point now);

 private:
  int fd_;
  std::uint32_t peer_;
  Times times_;
  State state_ = State::kReading;
  Clock::time_point deadline_;
  Clock::time_point last_heard_;
  std::string data_;  // reading: the bytes so far; writing: the answer
  std::size_t sent_ = 0;
  std::size_t drained_ = 0;
};

}  // namespace gpuscope::viewer
