// A buffered JSON text writer for documents too large to build in memory (a Chrome trace of
// ten million events): callers append tokens, the buffer goes to the stream every 64 KiB.
// Strings always go through render::JsonString, so quotes, backslashes, control
// characters and invalid UTF-8 (-> U+FFFD) can never make the document invalid.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope::exporter {

class JsonStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out) {}
  ~JsonStream() { (void)Flush(); }
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  JsonStream& Raw(std::string_view text);
  JsonStream& String(std::string_view text);
  JsonStream& Int(std::int64_t value);
  JsonStream& UInt(std::uint64_t value);
  // render::JsonNumber: NaN and infinities are written as null.
  JsonStream& Number(double value);
  // Nanoseconds written as microseconds with three decimals ("-1.050"), exact: the Trace
  // Event Format counts in microseconds but our clock has nanoseconds.
  JsonStream& Micros(std::int64_t ns);

  // Writes the buffer out; an error once the stream failed.
  Status Flush();

 private:
  void MaybeFlush() {
    if (buffer_.size() >= kFlushBytes) (void)Flush();
  }
  static constexpr std::size_t kFlushBytes = 1 << 16;
  std::ostream& out_;
  std::string buffer_;
};

// "123.456" for 123456 ns (see JsonStream::Micros).
std::string FormatMicros(std::int64_t ns);

}  // namespace gpuscope::exporter
