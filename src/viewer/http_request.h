// The part of HTTP/1.1 the viewer needs: parsing a request head (request line, headers,
// query string) into a plain struct, and formatting a complete response. Anything that is
// not well-formed is an error with a one-line reason; nothing here trusts its input.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace gpuscope::viewer {

struct HttpRequest {
  std::string method;                          // "GET"
  std::string path;                            // percent-decoded, starts with '/'
  std::map<std::string, std::string> query;    // decoded; a repeated name keeps the last value
  std::map<std::string, std::string> headers;  // names lower-cased
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // Headers of this answer's own, (name, value). FormatHttpResponse merges framing refusal
  // into a Content-Security-Policy here, always sends X-Frame-Options: DENY (one given here
  // is dropped), and drops a header whose name or value holds a line break (it would end the
  // head or add a header of its own).
  std::vector<std::pair<std::string, std::string>> headers = {};
};

// Limits: a request head larger than this is refused (431) before it is parsed.
inline constexpr std::size_t kMaxRequestHeadBytes = 16 * 1024;

// `head` is everything up to (not including) the blank line that ends the headers.
StatusOr<HttpRequest> ParseHttpRequest(std::string_view head);

// Percent-decoding; `plus_is_space` for query strings. An error for a broken % escape.
StatusOr<std::string> PercentDecode(std::string_view text, bool plus_is_space);

// The bytes sent for `response` (status line, headers, body; `head_only` for HEAD). Every
// answer, errors included, refuses to be framed by another page: X-Frame-Options: DENY and
// a Content-Security-Policy with frame-ancestors 'none' (viewer/content_security_policy.h).
std::string FormatHttpResponse(const HttpResponse& response, bool head_only);

// {"error":"<message>"} with `status`.
HttpResponse JsonError(int status, std::string_view message);

}  // namespace gpuscope::viewer
