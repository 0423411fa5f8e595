// A fresh directory per test, removed with everything in it when the test ends.
#pragma once

#include <string>

namespace gpuscope::cli::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  // Creates path()/name with `content` and the given permission bits; returns its path.
  std::string Write(const std::string& name, const std::string& content, int mode = 0644) const;

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path);
bool FileExists(const std::string& path);

}  // namespace gpuscope::cli::testing
