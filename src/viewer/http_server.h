// A small HTTP/1.1 server for the viewer: POSIX sockets, no dependency, loopback only.
//
// Listen() refuses every address but 127.0.0.1: the viewer shows traces (command lines,
// kernel names, host names) that must not be served to the network. Requests are served
// one at a time, one per connection (Connection: close); a client that sends nothing for a
// few seconds, or a head over kMaxRequestHeadBytes, is answered with an error and dropped,
// so one bad client cannot stall the server for long. Only GET and HEAD are accepted.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "util/status.h"
#include "viewer/http_request.h"

namespace gpuscope::viewer {

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  // Binds `address` (only "127.0.0.1" is accepted) on `port` (0: a free port the kernel
  // picks) and listens.
  static StatusOr<std::unique_ptr<HttpServer>> Listen(std::string_view address, std::uint16_t port);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  // The address actually bound, as getsockname() reports it.
  std::string bound_address() const;

  // Serves until `should_stop` returns true (checked at least every 200 ms), e.g. after
  // SIGINT. Requests whose Host header names another host are refused (DNS rebinding).
  void Serve(const HttpHandler& handler, const std::function<bool()>& should_stop);

  // Serves one connection (for tests); false when none arrived within `timeout_ms`.
  bool ServeOne(const HttpHandler& handler, int timeout_ms);

 private:
  explicit HttpServer(int fd, std::uint16_t port) : fd_(fd), port_(port) {}
  void HandleConnection(int client, const HttpHandler& handler);
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace gpuscope::viewer
