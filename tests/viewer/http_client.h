// A raw-socket HTTP client for the viewer tests: sends exactly the bytes given and returns
// what the server answered, so malformed requests can be sent too.
#pragma once

#include <cstdint>
#include <string>

namespace gpuscope::viewer::testing {

struct RawResponse {
  int status = 0;  // 0: no parsable answer
  std::string head;
  std::string body;
};

// Connects to 127.0.0.1:port, sends `bytes`, half-closes, reads until the server closes.
RawResponse SendRaw(std::uint16_t port, const std::string& bytes);

// GET `target` with a well-formed request.
RawResponse Get(std::uint16_t port, const std::string& target);

}  // namespace gpuscope::viewer::testing
