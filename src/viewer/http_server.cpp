#include "viewer/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "viewer/connection_cut.h"
#include "viewer/http_connection.h"
#include "viewer/worker_pool.h"

namespace gpuscope::viewer {
namespace {

using Clock = HttpConnection::Clock;

// How often the loop wakes without traffic to ask should_stop().
constexpr std::chrono::milliseconds kStopCheck{200};

// "127.0.0.1:8080" / "localhost" / "[::1]:80" -> the host part.
std::string_view HostPart(std::string_view host) {
  if (!host.empty() && host.front() == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

// The request in `head`, or the formatted answer that refuses it without the handler.
std::variant<HttpRequest, std::string> Admit(std::string_view head) {
  StatusOr<HttpRequest> request = ParseHttpRequest(head);
  if (!request.ok()) {
    return FormatHttpResponse(JsonError(400, request.status().message()), false);
  }
  bool head_only = request->method == "HEAD";
  auto host = request->headers.find("host");
  std::string_view host_name = host == request->headers.end() ? "" : HostPart(host->second);
  if (request->method != "GET" && !head_only) {
    return FormatHttpResponse(JsonError(405, "only GET and HEAD are supported"), head_only);
  }
  if (!host_name.empty() && host_name != "127.0.0.1" && host_name != "localhost") {
    // A page on another site cannot reach us through a name that resolves to 127.0.0.1.
    return FormatHttpResponse(JsonError(403, "requests must name 127.0.0.1 or localhost as Host"),
                              head_only);
  }
  return std::move(request.value());
}

// Answers the workers hand back to the loop, which alone touches connections; the eventfd
// wakes the loop's poll().
class Completions {
 public:
  Completions() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
  ~Completions() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }
  void Push(std::uint64_t connection, std::string bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.emplace_back(connection, std::move(bytes));
    }
    std::uint64_t one = 1;
    [[maybe_unused]] ssize_t written = ::write(fd_, &one, sizeof one);
  }
  std::vector<std::pair<std::uint64_t, std::string>> Take() {
    std::uint64_t count = 0;
    [[maybe_unused]] ssize_t read = ::read(fd_, &count, sizeof count);
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(done_, {});
  }

 private:
  int fd_;
  std::mutex mutex_;
  std::vector<std::pair<std::uint64_t, std::string>> done_;
};

// A best-effort answer on a socket the server will not keep (a connection over the limit).
void SendAndClose(int fd, const std::string& bytes) {
  [[maybe_unused]] ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  ::close(fd);
}

using Connections = std::map<std::uint64_t, std::unique_ptr<HttpConnection>>;

OpenConnection::Stage StageOf(HttpConnection::State state) {
  switch (state) {
    case HttpConnection::State::kReading:
      return OpenConnection::Stage::kReading;
    case HttpConnection::State::kHandling:
    case HttpConnection::State::kWriting:
      return OpenConnection::Stage::kBusy;
    case HttpConnection::State::kDraining:
    case HttpConnection::State::kDone:
      break;
  }
  return OpenConnection::Stage::kLingering;
}

// Cuts one open connection to admit a newcomer from `peer` (viewer/connection_cut.h); false
// when none may be cut.
bool MakeRoom(Connections& connections, std::uint32_t peer) {
  std::vector<OpenConnection> open;
  open.reserve(connections.size());
  for (const auto& [id, connection] : connections) {
    open.push_back(
        {id, connection->peer(), StageOf(connection->state()), connection->last_heard()});
  }
  std::optional<std::uint64_t> cut = ConnectionToCut(open, peer);
  if (!cut) return false;
  auto found = connections.find(*cut);
  if (found->second->state() == HttpConnection::State::kReading) {
    // Best effort: a client cut mid-request learns why.
    static const std::string kCutAnswer =
        FormatHttpResponse(JsonError(503, "too many open connections; try again"), false);
    [[maybe_unused]] ssize_t sent =
        ::send(found->second->fd(), kCutAnswer.data(), kCutAnswer.size(), MSG_NOSIGNAL);
  }
  connections.erase(found);
  return true;
}

}  // namespace

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Listen(std::string_view address,
                                                         std::uint16_t port,
                                                         HttpServerLimits limits) {
  if (address != "127.0.0.1") {
    return Status::Error("the viewer only listens on 127.0.0.1, not " + std::string(address));
  }
  // Non-blocking: a client that goes away between poll() and accept() must not stall the loop.
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return Status::Error(std::string("cannot create a socket: ") + std::strerror(errno));
  int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port = htons(port);
  socket_address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&socket_address), sizeof socket_address) != 0) {
    int error = errno;
    ::close(fd);
    return Status::Error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                         std::strerror(error));
  }
  if (::listen(fd, 128) != 0) {
    int error = errno;
    ::close(fd);
    return Status::Error(std::string("cannot listen: ") + std::strerror(error));
  }
  socklen_t length = sizeof socket_address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&socket_address), &length);
  return std::unique_ptr<HttpServer>(new HttpServer(fd, ntohs(socket_address.sin_port), limits));
}

HttpServer::~HttpServer() {
  if (fd_ >= 0) ::close(fd_);
}

std::string HttpServer::bound_address() const {
  sockaddr_in socket_address{};
  socklen_t length = sizeof socket_address;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&socket_address), &length) != 0) return "";
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &socket_address.sin_addr, text, sizeof text);
  return text;
}

std::size_t HttpServer::Serve(HttpHandler handler, const std::function<bool()>& should_stop) {
  const HttpConnection::Times times{limits_.request_deadline, limits_.write_deadline,
                                    limits_.linger};
  // Shared with the jobs: a job still running when the server stops is left to finish
  // (WorkerPool::Stop), with its handler and somewhere to put its answer.
  auto shared_handler = std::make_shared<const HttpHandler>(std::move(handler));
  auto completions = std::make_shared<Completions>();
  Connections connections;
  WorkerPool pool(limits_.workers, limits_.max_queued);
  std::uint64_t next_id = 0;
  std::vector<pollfd> polled;
  std::vector<std::pair<std::uint64_t, HttpConnection*>> polled_connections;

  // A complete head: refused here, or handed to a worker (503 when none can take it).
  auto dispatch = [&](std::uint64_t id, HttpConnection& connection, std::string_view head) {
    std::variant<HttpRequest, std::string> admitted = Admit(head);
    if (std::string* refusal = std::get_if<std::string>(&admitted)) {
      connection.Respond(std::move(*refusal));
      return;
    }
    auto job = [shared_handler, completions, id,
                request = std::get<HttpRequest>(std::move(admitted))] {
      HttpResponse response;
      try {
        response = (*shared_handler)(request);
      } catch (const std::exception& error) {
        response = JsonError(500, error.what());
      }
      completions->Push(id, FormatHttpResponse(response, request.method == "HEAD"));
    };
    if (!pool.TryPost(std::move(job))) {
      connection.Respond(FormatHttpResponse(JsonError(503, "the viewer is busy; try again"), false));
    }
  };

  while (!should_stop()) {
    Clock::time_point now = Clock::now();
    Clock::time_point wake = now + kStopCheck;
    polled = {{fd_, POLLIN, 0}, {completions->fd(), POLLIN, 0}};
    polled_connections.clear();
    for (auto& [id, connection] : connections) {
      if (connection->state() == HttpConnection::State::kHandling) continue;
      wake = std::min(wake, connection->deadline());
      polled.push_back({connection->fd(), connection->events(), 0});
      polled_connections.emplace_back(id, connection.get());
    }
    auto timeout = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
    if (::poll(polled.data(), polled.size(), static_cast<int>(std::max<long>(timeout, 0))) < 0) {
      continue;  // EINTR: a signal, perhaps the one should_stop() reports
    }
    if (polled[1].revents != 0) {
      for (auto& [id, bytes] : completions->Take()) {
        auto found = connections.find(id);
        if (found != connections.end()) found->second->Respond(std::move(bytes));
      }
    }
    for (std::size_t i = 2; i < polled.size(); ++i) {
      if (polled[i].revents == 0) continue;
      auto [id, connection_pointer] = polled_connections[i - 2];
      HttpConnection& connection = *connection_pointer;
      if (connection.state() == HttpConnection::State::kReading) {
        std::optional<std::string> head = connection.ReadHead();
        if (head) dispatch(id, connection, *head);
      } else if (connection.state() == HttpConnection::State::kWriting) {
        connection.Write();
      } else if (connection.state() == HttpConnection::State::kDraining) {
        connection.Drain();
      }
    }
    if (polled[0].revents != 0) {
      for (;;) {
        sockaddr_in peer_address{};
        socklen_t length = sizeof peer_address;
        int client = ::accept4(fd_, reinterpret_cast<sockaddr*>(&peer_address), &length,
                               SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (client < 0) break;  // EAGAIN: none left (or an error that the next poll repeats)
        const std::uint32_t peer = ntohl(peer_address.sin_addr.s_addr);
        if (connections.size() >= limits_.max_connections && !MakeRoom(connections, peer)) {
          SendAndClose(client, FormatHttpResponse(
                                   JsonError(503, "too many open connections; try again"), false));
          continue;
        }
        connections.emplace(next_id++,
                            std::make_unique<HttpConnection>(client, peer, Clock::now(), times));
      }
    }
    now = Clock::now();
    for (auto entry = connections.begin(); entry != connections.end();) {
      entry->second->ExpireAt(now);
      if (entry->second->state() == HttpConnection::State::kDone) {
        entry = connections.erase(entry);
      } else {
        ++entry;
      }
    }
  }
  connections.clear();  // the clients learn at once that no answer comes
  return pool.Stop(limits_.stop_grace);
}

}  // namespace gpuscope::viewer
