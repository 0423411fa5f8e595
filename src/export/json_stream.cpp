#include "export/json_stream.h"

#include <cstdio>

#include "render/escaping.h"

namespace gpuscope::exporter {

std::string FormatMicros(std::int64_t ns) {
  // Split before dividing so that INT64_MIN-adjacent values and negative times (events
  // before the trace origin) keep their exact digits.
  bool negative = ns < 0;
  std::uint64_t magnitude =
      negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  char text[40];
  std::snprintf(text, sizeof text, "%s%llu.%03llu", negative ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1000),
                static_cast<unsigned long long>(magnitude % 1000));
  return text;
}

JsonStream& JsonStream::Raw(std::string_view text) {
  buffer_ += text;
  MaybeFlush();
  return *this;
}

JsonStream& JsonStream::String(std::string_view text) {
  buffer_ += render::JsonString(text);
  MaybeFlush();
  return *this;
}

JsonStream& JsonStream::Int(std::int64_t value) {
  buffer_ += std::to_string(value);
  return *this;
}

JsonStream& JsonStream::UInt(std::uint64_t value) {
  buffer_ += std::to_string(value);
  return *this;
}

JsonStream& JsonStream::Number(double value) {
  buffer_ += render::JsonNumber(value);
  return *this;
}

JsonStream& JsonStream::Micros(std::int64_t ns) {
  buffer_ += FormatMicros(ns);
  return *this;
}

Status JsonStream::Flush() {
  if (!buffer_.empty()) {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
  if (!out_) return Status::Error("cannot write the output (disk full?)");
  return {};
}

}  // namespace gpuscope::exporter
