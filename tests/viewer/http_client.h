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

// A socket connected to 127.0.0.1:port (-1 on failure); the caller closes it.
int Connect(std::uint16_t port);
// The same from the loopback address `source` ("127.0.0.2": a client with an address of
// its own, as the server counts them).
int ConnectFrom(std::uint16_t port, const char* source);

// Reads until the server closes `fd` (which stays open) and parses what came.
RawResponse ReadResponse(int fd);

// Connects to 127.0.0.1:port, sends `bytes`, half-closes, reads until the server closes.
RawResponse SendRaw(std::uint16_t port, const std::string& bytes);

// The bytes of a well-formed GET of `target`.
std::string GetRequest(std::uint16_t port, const std::string& target);

// GET `target` with a well-formed request.
RawResponse Get(std::uint16_t port, const std::string& target);

}  // namespace gpuscope::viewer::testing
