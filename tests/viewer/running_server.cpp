#include "running_server.h"

#include <gtest/gtest.h>

namespace gpuscope::viewer::testing {

RunningServer::RunningServer(HttpHandler handler, HttpServerLimits limits)
    : handler_(std::move(handler)) {
  auto server = HttpServer::Listen("127.0.0.1", 0, limits);
  if (!server.ok()) {
    ADD_FAILURE() << server.status().message();
    std::abort();
  }
  server_ = std::move(server.value());
  thread_ = std::thread([this] { server_->Serve(handler_, [this] { return stop_.load(); }); });
}

std::chrono::milliseconds RunningServer::Stop() {
  if (!thread_.joinable()) return std::chrono::milliseconds(0);
  auto start = std::chrono::steady_clock::now();
  stop_ = true;
  thread_.join();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

}  // namespace gpuscope::viewer::testing
