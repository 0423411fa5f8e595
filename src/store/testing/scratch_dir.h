// A fresh directory for the reports and files a test writes, removed with its contents when
// the object dies.
#pragma once

#include <string>

namespace gpuscope::store::testing {

class ScratchDir {
 public:
  // Under $TMPDIR (or /tmp); aborts the test program if it cannot be made.
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The whole of a file (binary-safe); empty when it cannot be read, so that the comparison
// which follows fails and shows what was expected.
std::string ReadWholeFile(const std::string& path);

}  // namespace gpuscope::store::testing
