#include "cli/output/terminal_output_filter.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace gpuscope::cli {

TerminalEscapingStreambuf::~TerminalEscapingStreambuf() {
  std::lock_guard lock(mutex_);
  FlushPending();
}

void TerminalEscapingStreambuf::PutEscaped(unsigned char byte) {
  char escape[8];
  int length = std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(byte));
  target_->sputn(escape, length);
}

// A \r or 0xC2 waiting for its next byte is settled as if no byte came.
void TerminalEscapingStreambuf::FlushPending() {
  if (pending_ < 0) return;
  const auto byte = static_cast<unsigned char>(pending_);
  pending_ = -1;
  if (byte == '\r') {
    PutEscaped(byte);
  } else {
    target_->sputc(static_cast<char>(byte));  // a lone lead byte is not a control
  }
}

void TerminalEscapingStreambuf::Put(unsigned char byte) {
  if (pending_ == '\r') {
    pending_ = -1;
    if (byte == '\n') {
      target_->sputc('\r');
      target_->sputc('\n');
      return;
    }
    PutEscaped('\r');
  } else if (pending_ == 0xC2) {
    pending_ = -1;
    if (byte >= 0x80 && byte <= 0x9F) {  // U+0080-U+009F: C1 controls
      PutEscaped(0xC2);
      PutEscaped(byte);
      return;
    }
    target_->sputc(static_cast<char>(0xC2));
  }
  if (byte == '\r' || byte == 0xC2) {
    pending_ = byte;
  } else if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) {
    PutEscaped(byte);
  } else {
    target_->sputc(static_cast<char>(byte));
  }
}

TerminalEscapingStreambuf::int_type TerminalEscapingStreambuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  std::lock_guard lock(mutex_);
  Put(static_cast<unsigned char>(traits_type::to_char_type(c)));
  return c;
}

std::streamsize TerminalEscapingStreambuf::xsputn(const char* text, std::streamsize count) {
  std::lock_guard lock(mutex_);
  for (std::streamsize i = 0; i < count; ++i) Put(static_cast<unsigned char>(text[i]));
  return count;
}

// A flush writes what is settled; a pending byte waits for the next one, which a CRLF's
// \n or a UTF-8 continuation byte will be.
int TerminalEscapingStreambuf::sync() {
  std::lock_guard lock(mutex_);
  return target_->pubsync();
}

TerminalOutputGuard::TerminalOutputGuard() {
  if (isatty(STDOUT_FILENO)) {
    out_original_ = std::cout.rdbuf();
    out_ = std::make_unique<TerminalEscapingStreambuf>(out_original_);
    std::cout.rdbuf(out_.get());
  }
  if (isatty(STDERR_FILENO)) {
    err_original_ = std::cerr.rdbuf();
    err_ = std::make_unique<TerminalEscapingStreambuf>(err_original_);
    std::cerr.rdbuf(err_.get());
  }
}

TerminalOutputGuard::~TerminalOutputGuard() {
  if (out_) {
    std::cout.rdbuf(out_original_);
    out_.reset();  // writes what is pending into the original buffer
    std::cout.flush();
  }
  if (err_) {
    std::cerr.rdbuf(err_original_);
    err_.reset();
  }
}

}  // namespace gpuscope::cli
