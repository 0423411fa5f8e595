// The Python frame walk inside a real CPython: walk_own_frames.py calls the production walker
// (python_frames_probe.cpp) through ctypes, once with the GIL released, as PyTorch launches,
// and once with it held. Where this interpreter's layout is known (3.11 to 3.13), the walk
// without the GIL must name the same frames as the walk through the C API; elsewhere it must
// name none. Skipped, with the reason, where there is no python3 with a shared libpython.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string RunScript(std::string* command_out) {
  const std::string command = std::string("'") + GPUSCOPE_PYTHON3 + "' '" +
                              GPUSCOPE_TEST_SOURCE_DIR + "/walk_own_frames.py' '" +
                              GPUSCOPE_PROBE_LIBRARY + "' 2>&1";
  *command_out = command;
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    std::size_t got = 0;
    while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
    pclose(pipe);
  }
  return output;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The script's line that calls the walker, found by its comment.
int WalkerCallLine() {
  std::ifstream script(std::string(GPUSCOPE_TEST_SOURCE_DIR) + "/walk_own_frames.py");
  int number = 0;
  for (std::string line; std::getline(script, line);) {
    ++number;
    if (line.find("# the line each walk must name") != std::string::npos) return number;
  }
  return -1;
}

TEST(PythonInterpreterFrames, WithoutTheGilTheSameFramesAsWithIt) {
  if (std::string(GPUSCOPE_PYTHON3).empty()) {
    GTEST_SKIP() << "no python3 with a shared libpython was found when this build was configured";
  }
  std::string command;
  const std::string output = RunScript(&command);
  const std::size_t split = output.find("---\n");
  ASSERT_NE(split, std::string::npos) << command << "\n" << output;
  const std::vector<std::string> without_gil = Lines(output.substr(0, split));
  const std::vector<std::string> with_gil = Lines(output.substr(split + 4, output.find("---\n", split + 4) - split - 4));
  ASSERT_FALSE(without_gil.empty()) << output;
  ASSERT_FALSE(with_gil.empty()) << output;
  EXPECT_EQ(without_gil[0].substr(0, 6), "gil=0 ") << output;
  EXPECT_EQ(with_gil[0].substr(0, 6), "gil=1 ") << output;

  // Through the C API: the walker's call, then its callers, up to the module.
  ASSERT_GE(with_gil.size(), 4u) << output;
  const std::string call = "walk_own_frames.py:" + std::to_string(WalkerCallLine()) + ":launch";
  EXPECT_NE(with_gil[1].find(call), std::string::npos) << output;
  EXPECT_NE(with_gil[2].find("walk_own_frames.py:"), std::string::npos) << output;
  EXPECT_NE(with_gil[2].find(":Modèle.step"), std::string::npos) << output;
  EXPECT_NE(with_gil.back().find(":<module>"), std::string::npos) << output;

  if (without_gil[0].find("detached=1") != std::string::npos) {
    // Read from CPython's structures: every frame, file, line and function as the API says.
    EXPECT_EQ(std::vector<std::string>(without_gil.begin() + 1, without_gil.end()),
              std::vector<std::string>(with_gil.begin() + 1, with_gil.end()))
        << output;
  } else {
    EXPECT_EQ(without_gil.size(), 1u) << "no layout for this version: no frames\n" << output;
  }
}

}  // namespace
