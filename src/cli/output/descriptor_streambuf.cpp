#include "cli/output/descriptor_streambuf.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuscope::cli {

void DescriptorStreambuf::Reset(int fd, bool owned, Flush flush) {
  std::lock_guard lock(mutex_);
  if (fd_ >= 0 && owned_) close(fd_);
  fd_ = fd;
  owned_ = owned;
  flush_ = flush;
  error_ = 0;
  used_ = 0;
}

int DescriptorStreambuf::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

bool DescriptorStreambuf::WriteAll(const char* text, std::size_t count) {
  while (error_ == 0 && count > 0) {
    ssize_t written = write(fd_, text, count);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : EIO;
      break;
    }
    text += written;
    count -= static_cast<std::size_t>(written);
  }
  return error_ == 0;
}

// After a failure the rest is dropped: the command fails on error(), and nothing may land
// after a hole in the output.
bool DescriptorStreambuf::Drain() {
  bool ok = WriteAll(buffer_.data(), used_);
  used_ = 0;
  return ok;
}

bool DescriptorStreambuf::Append(const char* text, std::size_t count) {
  if (fd_ < 0 || error_ != 0) return false;
  if (count > buffer_.size() - used_) {
    if (!Drain()) return false;
    if (count >= buffer_.size()) return WriteAll(text, count);  // too big to be worth a copy
  }
  std::memcpy(buffer_.data() + used_, text, count);
  used_ += count;
  if (flush_ == Flush::kEachLine && std::memchr(text, '\n', count) != nullptr) return Drain();
  return true;
}

DescriptorStreambuf::int_type DescriptorStreambuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  std::lock_guard lock(mutex_);
  char byte = traits_type::to_char_type(c);
  return Append(&byte, 1) ? c : traits_type::eof();
}

std::streamsize DescriptorStreambuf::xsputn(const char* text, std::streamsize count) {
  std::lock_guard lock(mutex_);
  return Append(text, static_cast<std::size_t>(count)) ? count : 0;
}

int DescriptorStreambuf::sync() {
  std::lock_guard lock(mutex_);
  return fd_ >= 0 && Drain() ? 0 : -1;
}

bool DescriptorStreambuf::Close() {
  std::lock_guard lock(mutex_);
  if (fd_ < 0) return error_ == 0;
  Drain();
  if (owned_ && close(fd_) != 0 && error_ == 0 && errno != EINTR) error_ = errno;
  fd_ = -1;
  return error_ == 0;
}

}  // namespace gpuscope::cli
