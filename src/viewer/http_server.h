// A small HTTP/1.1 server for the viewer: POSIX sockets, no dependency, loopback only.
//
// Listen() refuses every address but 127.0.0.1: the viewer shows traces (command lines,
// kernel names, host names) that must not be served to the network. Only GET and HEAD are
// accepted, one request per connection (Connection: close); a Host header naming another
// host is refused (DNS rebinding), and no CORS header is ever sent.
//
// Serve() runs one event loop thread and a pool of worker threads. The loop accepts, reads
// request heads and writes answers without blocking (viewer/http_connection.h), so an idle
// or slow client costs a socket, never a thread: it cannot delay other clients, and it is cut
// off at a deadline counted from accept. When `max_connections` are open, a newcomer is
// admitted by cutting an idle one of the address holding the most (viewer/connection_cut.h),
// so that sockets held open by one client cannot keep a fresh request out. Complete requests
// go to the workers, which run the handler; when all workers are busy and `max_queued`
// requests already wait for one, the next is answered 503 at once. The handler must be safe
// to call from several threads. Every answer refuses framing (FormatHttpResponse).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "util/status.h"
#include "viewer/http_request.h"

namespace gpuscope::viewer {

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpServerLimits {
  std::size_t workers = 8;      // handler threads
  std::size_t max_queued = 64;  // complete requests waiting for a worker; then 503
  // Open at once; beyond that a newcomer cuts an idle connection, or gets 503 when none is.
  std::size_t max_connections = 256;
  // The whole request head must arrive within this from accept (else 408, connection cut).
  std::chrono::milliseconds request_deadline{10000};
  // The client must take the whole answer within this.
  std::chrono::milliseconds write_deadline{10000};
  // How long what a client still sends after its answer is read and dropped.
  std::chrono::milliseconds linger{1000};
  // How long a stopping server waits for the requests being handled before it leaves them.
  std::chrono::milliseconds stop_grace{250};
};

class HttpServer {
 public:
  // Binds `address` (only "127.0.0.1" is accepted) on `port` (0: a free port the kernel
  // picks) and listens.
  static StatusOr<std::unique_ptr<HttpServer>> Listen(std::string_view address, std::uint16_t port,
                                                      HttpServerLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  // The address actually bound, as getsockname() reports it.
  std::string bound_address() const;

  // Serves until `should_stop` returns true (checked at least every 200 ms, on the calling
  // thread), e.g. after SIGINT; then drops the open connections and the queued requests,
  // waits up to `stop_grace` for the requests being handled, and returns how many it left
  // running: their workers go on, detached, with their copy of `handler`, so whatever the
  // handler refers to must outlive them (`gpuscope view` then ends with _Exit). A long
  // answer never keeps the server from stopping.
  std::size_t Serve(HttpHandler handler, const std::function<bool()>& should_stop);

 private:
  HttpServer(int fd, std::uint16_t port, HttpServerLimits limits)
      : fd_(fd), port_(port), limits_(limits) {}
  int fd_ = -1;
  std::uint16_t port_ = 0;
  HttpServerLimits limits_;
};

}  // namespace gpuscope::viewer
