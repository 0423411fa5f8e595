#include "viewer/http_request.h"

#include <cctype>

#include "render/escaping.h"
#include "viewer/content_security_policy.h"

namespace gpuscope::viewer {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool HasLineBreak(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

StatusOr<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      bool complete = i + 2 < text.size();
      int high = complete ? HexDigit(text[i + 1]) : -1;
      int low = complete ? HexDigit(text[i + 2]) : -1;
      if (high < 0 || low < 0) return Status::Error("bad percent escape in the URL");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

StatusOr<HttpRequest> ParseHttpRequest(std::string_view head) {
  if (head.size() > kMaxRequestHeadBytes) return Status::Error("request head too large");
  std::size_t line_end = head.find("\r\n");
  std::string_view request_line = head.substr(0, line_end);
  std::string_view rest = line_end == std::string_view::npos ? "" : head.substr(line_end + 2);

  // METHOD SP TARGET SP HTTP/1.x
  std::size_t first_space = request_line.find(' ');
  std::size_t second_space = request_line.find(' ', first_space + 1);
  if (first_space == std::string_view::npos || second_space == std::string_view::npos ||
      request_line.find(' ', second_space + 1) != std::string_view::npos) {
    return Status::Error("malformed request line");
  }
  HttpRequest request;
  request.method = std::string(request_line.substr(0, first_space));
  std::string_view target = request_line.substr(first_space + 1, second_space - first_space - 1);
  std::string_view version = request_line.substr(second_space + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0")
    return Status::Error("unsupported HTTP version");
  if (request.method.empty()) return Status::Error("malformed request line");
  for (char c : request.method) {
    if (!std::isupper(static_cast<unsigned char>(c))) return Status::Error("malformed method");
  }
  if (target.empty() || target.front() != '/')
    return Status::Error("request target must be a path");
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) {
      return Status::Error("control character in the request target");
    }
  }
  std::size_t question = target.find('?');
  std::string_view raw_path = target.substr(0, question);
  std::size_t hash = raw_path.find('#');
  raw_path = raw_path.substr(0, hash);
  StatusOr<std::string> path = PercentDecode(raw_path, false);
  if (!path.ok()) return path.status();
  request.path = std::move(path.value());
  if (question != std::string_view::npos) {
    std::string_view query = target.substr(question + 1);
    query = query.substr(0, query.find('#'));
    while (!query.empty()) {
      std::size_t amp = query.find('&');
      std::string_view pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
      if (pair.empty()) continue;
      std::size_t equals = pair.find('=');
      StatusOr<std::string> name = PercentDecode(pair.substr(0, equals), true);
      StatusOr<std::string> value =
          PercentDecode(equals == std::string_view::npos ? "" : pair.substr(equals + 1), true);
      if (!name.ok()) return name.status();
      if (!value.ok()) return value.status();
      request.query[name.value()] = value.value();
    }
  }
  while (!rest.empty()) {
    std::size_t end = rest.find("\r\n");
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? "" : rest.substr(end + 2);
    if (line.empty()) continue;
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return Status::Error("malformed header line");
    std::string name(line.substr(0, colon));
    for (char& c : name) {
      if (c == ' ' || c == '\t') return Status::Error("malformed header name");
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    request.headers[name] = std::string(Trim(line.substr(colon + 1)));
  }
  return request;
}

std::string FormatHttpResponse(const HttpResponse& response, bool head_only) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " +
                    std::string(ReasonPhrase(response.status)) + "\r\n";
  out += "Content-Type: " + response.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  // One request per connection: the server's connection states end with the answer.
  out += "Connection: close\r\n";
  out += "Cache-Control: no-store\r\n";
  out += "X-Content-Type-Options: nosniff\r\n";
  out += "Referrer-Policy: no-referrer\r\n";
  bool has_policy = false;
  for (const auto& [name, value] : response.headers) {
    if (HasLineBreak(name) || HasLineBreak(value) || EqualsIgnoringCase(name, "X-Frame-Options")) {
      continue;
    }
    if (EqualsIgnoringCase(name, "Content-Security-Policy")) {
      out += "Content-Security-Policy: " + WithFramingRefused(value) + "\r\n";
      has_policy = true;
      continue;
    }
    out += name + ": " + value + "\r\n";
  }
  if (!has_policy) out += "Content-Security-Policy: " + std::string(kNoFramingPolicy) + "\r\n";
  // For browsers that predate frame-ancestors.
  out += "X-Frame-Options: DENY\r\n\r\n";
  if (!head_only) out += response.body;
  return out;
}

HttpResponse JsonError(int status, std::string_view message) {
  HttpResponse response;
  response.status = status;
  response.body = "{\"error\":" + render::JsonString(message) + "}";
  return response;
}

}  // namespace gpuscope::viewer
