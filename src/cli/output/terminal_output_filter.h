// What gpuscope prints to a terminal never drives the terminal. Reports carry strings their
// writer chose (a kernel name, an NVTX message, the program's command line): printed raw, an
// ESC sequence in one retitles the window, moves the cursor, rewrites earlier lines or, on
// some terminals, answers back into the input. Each command escapes the strings it knows
// of (render::TerminalText); this filter is the one place that catches every other path, CSV
// and tables included: while installed, control characters written to std::cout or std::cerr
// that is a terminal are shown as \xHH, as TerminalText shows them. Newlines, tabs and the CR
// of a CRLF line end pass; so does everything sent to a file or a pipe, which is data.
#pragma once

#include <iosfwd>
#include <memory>
#include <mutex>
#include <streambuf>

namespace gpuscope::cli {

// Escapes control characters on their way to `target`: C0 but \n, \t and the \r of \r\n; DEL;
// and the C1 controls in UTF-8 (U+0080-U+009F, which some terminals obey as ESC sequences).
class TerminalEscapingStreambuf : public std::streambuf {
 public:
  explicit TerminalEscapingStreambuf(std::streambuf* target) : target_(target) {}
  ~TerminalEscapingStreambuf() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  void Put(unsigned char byte);
  void PutEscaped(unsigned char byte);
  void FlushPending();

  std::streambuf* target_;
  std::mutex mutex_;  // the viewer's threads write warnings too
  int pending_ = -1;  // a \r or the lead byte 0xC2, decided by the byte after it
};

// Installs the filter on std::cout and std::cerr, each only when its descriptor is a
// terminal, for the object's lifetime; then restores them (what is pending is written).
class TerminalOutputGuard {
 public:
  TerminalOutputGuard();
  ~TerminalOutputGuard();
  TerminalOutputGuard(const TerminalOutputGuard&) = delete;
  TerminalOutputGuard& operator=(const TerminalOutputGuard&) = delete;

 private:
  std::unique_ptr<TerminalEscapingStreambuf> out_, err_;
  std::streambuf* out_original_ = nullptr;
  std::streambuf* err_original_ = nullptr;
};

}  // namespace gpuscope::cli
