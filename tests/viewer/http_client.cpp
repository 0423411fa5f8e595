#include "http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace gpuscope::viewer::testing {

int Connect(std::uint16_t port) { return ConnectFrom(port, nullptr); }

int ConnectFrom(std::uint16_t port, const char* source) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (source != nullptr) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    if (::inet_pton(AF_INET, source, &local.sin_addr) != 1 ||
        ::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
      ::close(fd);
      return -1;
    }
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

RawResponse ReadResponse(int fd) {
  RawResponse response;
  std::string all;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    all.append(buffer, static_cast<std::size_t>(n));
  }
  std::size_t end = all.find("\r\n\r\n");
  if (all.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return response;
  response.status = std::atoi(all.c_str() + 9);
  response.head = all.substr(0, end);
  response.body = all.substr(end + 4);
  return response;
}

RawResponse SendRaw(std::uint16_t port, const std::string& bytes) {
  int fd = Connect(port);
  if (fd < 0) return {};
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  RawResponse response = ReadResponse(fd);
  ::close(fd);
  return response;
}

std::string GetRequest(std::uint16_t port, const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: close\r\n\r\n";
}

RawResponse Get(std::uint16_t port, const std::string& target) {
  return SendRaw(port, GetRequest(port, target));
}

}  // namespace gpuscope::viewer::testing
