// An output stream buffer over a file descriptor: OutputFile writes through it both to its
// temporary file (opened O_EXCL, so never through whatever else appears at the name) and to
// a destination that is a stream (a terminal, a pipe, a device), where there is no file to
// rename; std::cout writes through one over descriptor 1 (standard_output.h). Unlike stdio,
// it keeps the first write error with its errno, so that the command can say why its output
// is incomplete (ENOSPC, EPIPE, EFBIG); nothing after a failed write is written.
// Safe to share between threads, as the synchronised standard streams are.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <streambuf>

namespace gpuscope::cli {

class DescriptorStreambuf : public std::streambuf {
 public:
  enum class Flush {
    kWhenFull,  // a file or a pipe
    kEachLine,  // a terminal, as stdio does: a line shows when it is complete
  };

  DescriptorStreambuf() = default;
  ~DescriptorStreambuf() override { Close(); }
  DescriptorStreambuf(const DescriptorStreambuf&) = delete;
  DescriptorStreambuf& operator=(const DescriptorStreambuf&) = delete;

  // Writes to `fd` from now on (closing an earlier owned one unflushed); with `owned`, Close
  // closes it.
  void Reset(int fd, bool owned = true, Flush flush = Flush::kWhenFull);
  // Writes what is buffered and closes an owned descriptor; false with error() set when a
  // write or the close failed, now or earlier.
  bool Close();
  int error() const;  // errno of the first failure, 0 when none

 protected:
  // No put area: every write comes through these, under the lock.
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  bool Append(const char* text, std::size_t count);
  bool Drain();
  bool WriteAll(const char* text, std::size_t count);

  mutable std::mutex mutex_;
  int fd_ = -1;
  bool owned_ = true;
  Flush flush_ = Flush::kWhenFull;
  int error_ = 0;
  std::size_t used_ = 0;
  std::array<char, 64 * 1024> buffer_{};
};

}  // namespace gpuscope::cli
