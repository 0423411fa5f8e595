#include "viewer/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuscope::viewer {
namespace {

constexpr int kReceiveTimeoutSeconds = 5;

void SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return;  // the client went away; nothing to tell it
    data.remove_prefix(static_cast<std::size_t>(sent));
  }
}

// "127.0.0.1:8080" / "localhost" / "[::1]:80" -> the host part.
std::string_view HostPart(std::string_view host) {
  if (!host.empty() && host.front() == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

}  // namespace

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Listen(std::string_view address,
                                                         std::uint16_t port) {
  if (address != "127.0.0.1") {
    return Status::Error("the viewer only listens on 127.0.0.1, not " + std::string(address));
  }
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
  if (::listen(fd, 64) != 0) {
    int error = errno;
    ::close(fd);
    return Status::Error(std::string("cannot listen: ") + std::strerror(error));
  }
  socklen_t length = sizeof socket_address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&socket_address), &length);
  return std::unique_ptr<HttpServer>(new HttpServer(fd, ntohs(socket_address.sin_port)));
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

void HttpServer::Serve(const HttpHandler& handler, const std::function<bool()>& should_stop) {
  while (!should_stop()) ServeOne(handler, 200);
}

bool HttpServer::ServeOne(const HttpHandler& handler, int timeout_ms) {
  pollfd waiting{fd_, POLLIN, 0};
  if (::poll(&waiting, 1, timeout_ms) <= 0) return false;  // timeout, or EINTR from a signal
  int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (client < 0) return false;
  HandleConnection(client, handler);
  ::close(client);
  return true;
}

void HttpServer::HandleConnection(int client, const HttpHandler& handler) {
  timeval timeout{kReceiveTimeoutSeconds, 0};
  ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  std::string head;
  std::size_t end_of_head = std::string::npos;
  char buffer[4096];
  while (end_of_head == std::string::npos) {
    if (head.size() > kMaxRequestHeadBytes) {
      SendAll(client, FormatHttpResponse(JsonError(431, "request head too large"), false));
      return;
    }
    ssize_t received = ::recv(client, buffer, sizeof buffer, 0);
    if (received < 0 && errno == EINTR) continue;
    if (received <= 0) {
      if (!head.empty()) {
        SendAll(client, FormatHttpResponse(
                            JsonError(received < 0 ? 408 : 400, "incomplete request"), false));
      }
      return;
    }
    head.append(buffer, static_cast<std::size_t>(received));
    end_of_head = head.find("\r\n\r\n");
  }
  head.resize(end_of_head);
  if (head.size() > kMaxRequestHeadBytes) {
    SendAll(client, FormatHttpResponse(JsonError(431, "request head too large"), false));
    return;
  }
  StatusOr<HttpRequest> request = ParseHttpRequest(head);
  if (!request.ok()) {
    SendAll(client, FormatHttpResponse(JsonError(400, request.status().message()), false));
    return;
  }
  bool head_only = request->method == "HEAD";
  HttpResponse response;
  auto host = request->headers.find("host");
  std::string_view host_name = host == request->headers.end() ? "" : HostPart(host->second);
  if (request->method != "GET" && !head_only) {
    response = JsonError(405, "only GET and HEAD are supported");
  } else if (!host_name.empty() && host_name != "127.0.0.1" && host_name != "localhost") {
    // A page on another site cannot reach us through a name that resolves to 127.0.0.1.
    response = JsonError(403, "requests must name 127.0.0.1 or localhost as Host");
  } else {
    response = handler(request.value());
  }
  SendAll(client, FormatHttpResponse(response, head_only));
}

}  // namespace gpuscope::viewer
