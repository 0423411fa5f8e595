// A temporary directory removed with everything in it at the end of the test.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <string>

namespace gpuscope::inject::testing {

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/gpuscope_inject_test_XXXXXX";
    const char* made = mkdtemp(pattern);
    path_ = made != nullptr ? made : "/tmp";
  }
  ~TempDir() {
    if (path_ != "/tmp") std::system(("rm -rf '" + path_ + "'").c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gpuscope::inject::testing
