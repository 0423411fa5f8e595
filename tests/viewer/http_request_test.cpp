// Parsing of request heads: well-formed ones, and everything a hostile client may send;
// formatting of answers, with the headers every answer carries.
#include "viewer/http_request.h"

#include <gtest/gtest.h>

#include "viewer/content_security_policy.h"

namespace gpuscope::viewer {
namespace {

TEST(HttpRequestTest, ParsesPathQueryAndHeaders) {
  auto request = ParseHttpRequest(
      "GET /api/kernel?report=0&name=add%28int%29+x&empty= HTTP/1.1\r\nHost: 127.0.0.1:80\r\n"
      "X-Thing:  spaced value \r\n");
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->method, "GET");
  EXPECT_EQ(request->path, "/api/kernel");
  EXPECT_EQ(request->query.at("report"), "0");
  EXPECT_EQ(request->query.at("name"), "add(int) x");
  EXPECT_EQ(request->query.at("empty"), "");
  EXPECT_EQ(request->headers.at("host"), "127.0.0.1:80");
  EXPECT_EQ(request->headers.at("x-thing"), "spaced value");
}

TEST(HttpRequestTest, RejectsMalformedHeads) {
  for (const char* head : {"", "GET", "GET /", "GET / HTTP/2.0", "GET  / HTTP/1.1",
                           "get / HTTP/1.1", "GET relative HTTP/1.1", "GET /a%zz HTTP/1.1",
                           "GET /a?b=%4 HTTP/1.1", "GET / HTTP/1.1\r\nno colon here",
                           "GET / HTTP/1.1\r\n: empty name", "GET /\x01 HTTP/1.1"}) {
    auto request = ParseHttpRequest(head);
    EXPECT_FALSE(request.ok()) << "accepted: " << head;
    if (!request.ok()) {
      EXPECT_EQ(request.status().message().find('\n'), std::string::npos);
    }
  }
  EXPECT_FALSE(ParseHttpRequest(std::string(kMaxRequestHeadBytes + 1, 'a')).ok());
}

TEST(HttpRequestTest, PercentDecoding) {
  EXPECT_EQ(PercentDecode("a%2Fb+c", true).value(), "a/b c");
  EXPECT_EQ(PercentDecode("a+b", false).value(), "a+b");
  EXPECT_FALSE(PercentDecode("%", true).ok());
  EXPECT_FALSE(PercentDecode("%1", true).ok());
  EXPECT_FALSE(PercentDecode("%g1", true).ok());
}

TEST(HttpRequestTest, FormatsResponsesWithLengthAndErrorsAsJson) {
  HttpResponse error = JsonError(400, "bad \"thing\"");
  EXPECT_EQ(error.body, "{\"error\":\"bad \\\"thing\\\"\"}");
  std::string bytes = FormatHttpResponse(error, false);
  EXPECT_EQ(bytes.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u);
  EXPECT_NE(bytes.find("Content-Length: " + std::to_string(error.body.size()) + "\r\n"),
            std::string::npos);
  EXPECT_NE(bytes.find("Content-Type: application/json\r\n"), std::string::npos);
  std::string head_only = FormatHttpResponse(error, true);
  EXPECT_EQ(head_only.substr(head_only.size() - 4), "\r\n\r\n");
}

// The value of the one header `name` in `bytes` (a formatted response); "" when absent,
// "<several>" when there are several.
std::string HeaderValue(const std::string& bytes, const std::string& name) {
  std::string value;
  int found = 0;
  std::size_t end = bytes.find("\r\n\r\n");
  for (std::size_t at = bytes.find("\r\n"); at < end; at = bytes.find("\r\n", at + 2)) {
    std::size_t next = bytes.find("\r\n", at + 2);
    std::string line = bytes.substr(at + 2, next - at - 2);
    if (line.rfind(name + ": ", 0) == 0) {
      value = line.substr(name.size() + 2);
      ++found;
    }
  }
  return found > 1 ? std::string("<several>") : value;
}

TEST(HttpRequestTest, EveryResponseRefusesToBeFramed) {
  for (const HttpResponse& response :
       {HttpResponse{}, JsonError(404, "no"), JsonError(503, "busy"),
        HttpResponse{200, "text/html; charset=utf-8", "<!doctype html>"}}) {
    for (bool head_only : {false, true}) {
      std::string bytes = FormatHttpResponse(response, head_only);
      EXPECT_EQ(HeaderValue(bytes, "X-Frame-Options"), "DENY") << bytes;
      EXPECT_EQ(HeaderValue(bytes, "Content-Security-Policy"), "frame-ancestors 'none'") << bytes;
    }
  }
}

TEST(HttpRequestTest, FramingIsMergedIntoTheAnswersOwnPolicy) {
  HttpResponse page{200, "text/html; charset=utf-8", "<p>"};
  page.headers = {
      {"content-security-policy", "default-src 'self'; frame-ancestors *;img-src data:"},
      {"X-Frame-Options", "ALLOWALL"},
      {"X-Extra", "kept"}};
  std::string bytes = FormatHttpResponse(page, false);
  EXPECT_EQ(HeaderValue(bytes, "Content-Security-Policy"),
            "default-src 'self'; img-src data:; frame-ancestors 'none'")
      << bytes;
  EXPECT_EQ(HeaderValue(bytes, "X-Frame-Options"), "DENY") << bytes;
  EXPECT_EQ(HeaderValue(bytes, "X-Extra"), "kept") << bytes;
  EXPECT_EQ(WithFramingRefused(""), "frame-ancestors 'none'");
  EXPECT_EQ(WithFramingRefused(" FRAME-ANCESTORS 'self' ; ;script-src 'self' "),
            "script-src 'self'; frame-ancestors 'none'");
}

TEST(HttpRequestTest, AHeaderWithALineBreakIsNotSent) {
  HttpResponse response;
  response.headers = {{"X-A", "one\r\nSet-Cookie: injected=1"},
                      {"X-B\r\nSet-Cookie: injected=2", "v"},
                      {"Content-Security-Policy", "default-src *\r\nX-Frame-Options: ALLOW"}};
  std::string bytes = FormatHttpResponse(response, false);
  EXPECT_EQ(bytes.find("injected"), std::string::npos) << bytes;
  EXPECT_EQ(bytes.find("ALLOW"), std::string::npos) << bytes;
  EXPECT_EQ(HeaderValue(bytes, "Content-Security-Policy"), "frame-ancestors 'none'") << bytes;
}

}  // namespace
}  // namespace gpuscope::viewer
