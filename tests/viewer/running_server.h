// An HttpServer serving on its own thread for the duration of a test, on a free port.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>

#include "viewer/http_server.h"

namespace gpuscope::viewer::testing {

class RunningServer {
 public:
  explicit RunningServer(HttpHandler handler, HttpServerLimits limits = {});
  ~RunningServer() { Stop(); }
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;

  std::uint16_t port() const { return server_->port(); }
  const HttpServer& server() const { return *server_; }
  // Asks the server to stop and returns how long Serve() took to return (0 if it had).
  std::chrono::milliseconds Stop();

 private:
  HttpHandler handler_;
  std::unique_ptr<HttpServer> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gpuscope::viewer::testing
