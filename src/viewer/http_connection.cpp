#include "viewer/http_connection.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "viewer/http_request.h"

namespace gpuscope::viewer {
namespace {

// What a lingering connection may still send before it is dropped: enough for any head a
// client could be sending when it was refused, little enough to cost nothing.
constexpr std::size_t kMaxDrainedBytes = 4 * 1024 * 1024;

bool WouldBlock(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == EINTR; }

}  // namespace

HttpConnection::HttpConnection(int fd, std::uint32_t peer, Clock::time_point accepted, Times times)
    : fd_(fd),
      peer_(peer),
      times_(times),
      deadline_(accepted + times.read),
      last_heard_(accepted) {}

HttpConnection::~HttpConnection() { ::close(fd_); }

short HttpConnection::events() const {
  switch (state_) {
    case State::kReading:
    case State::kDraining:
      return POLLIN;
    case State::kWriting:
      return POLLOUT;
    case State::kHandling:
    case State::kDone:
      break;
  }
  return 0;
}

std::optional<std::string> HttpConnection::ReadHead() {
  char buffer[4096];
  while (state_ == State::kReading) {
    ssize_t received = ::recv(fd_, buffer, sizeof buffer, 0);
    if (received < 0 && WouldBlock(errno)) return std::nullopt;
    if (received <= 0) {
      // A client that connects and closes without a byte gets no answer; one that stops
      // mid-head is told.
      if (received == 0 && !data_.empty()) {
        Respond(FormatHttpResponse(JsonError(400, "incomplete request"), false));
      } else {
        state_ = State::kDone;
      }
      return std::nullopt;
    }
    last_heard_ = Clock::now();
    // The blank line may straddle two reads: search from just before the new bytes.
    std::size_t from = data_.size() < 3 ? 0 : data_.size() - 3;
    data_.append(buffer, static_cast<std::size_t>(received));
    std::size_t end = data_.find("\r\n\r\n", from);
    if ((end == std::string::npos && data_.size() > kMaxRequestHeadBytes + 3) ||
        (end != std::string::npos && end > kMaxRequestHeadBytes)) {
      Respond(FormatHttpResponse(JsonError(431, "request head too large"), false));
      return std::nullopt;
    }
    if (end != std::string::npos) {
      data_.resize(end);
      state_ = State::kHandling;
      return std::move(data_);
    }
  }
  return std::nullopt;
}

void HttpConnection::Respond(std::string bytes) {
  if (state_ == State::kDone) return;
  data_ = std::move(bytes);
  sent_ = 0;
  state_ = State::kWriting;
  deadline_ = Clock::now() + times_.write;
}

void HttpConnection::Write() {
  while (state_ == State::kWriting && sent_ < data_.size()) {
    ssize_t sent = ::send(fd_, data_.data() + sent_, data_.size() - sent_, MSG_NOSIGNAL);
    if (sent < 0 && WouldBlock(errno)) return;
    if (sent <= 0) {
      state_ = State::kDone;  // the client went away; nothing to tell it
      return;
    }
    sent_ += static_cast<std::size_t>(sent);
  }
  if (state_ != State::kWriting) return;
  data_ = std::string();
  ::shutdown(fd_, SHUT_WR);
  state_ = State::kDraining;
  deadline_ = Clock::now() + times_.linger;
}

void HttpConnection::Drain() {
  char buffer[16384];
  while (state_ == State::kDraining) {
    ssize_t received = ::recv(fd_, buffer, sizeof buffer, 0);
    if (received < 0 && WouldBlock(errno)) return;
    drained_ += received > 0 ? static_cast<std::size_t>(received) : 0;
    if (received <= 0 || drained_ > kMaxDrainedBytes) state_ = State::kDone;
  }
}

void HttpConnection::ExpireAt(Clock::time_point now) {
  if (now < deadline_) return;
  switch (state_) {
    case State::kReading:
      Respond(FormatHttpResponse(JsonError(408, "the request did not arrive in time"), false));
      break;
    case State::kWriting:
    case State::kDraining:
      state_ = State::kDone;
      break;
    case State::kHandling:
    case State::kDone:
      break;
  }
}

}  // namespace gpuscope::viewer
