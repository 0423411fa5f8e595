// The Python frame walk inside a real CPython: walk_own_frames.py calls the production walker
// (python_frames_probe.cpp) through ctypes: reading CPython's structures without the GIL, as
// PyTorch launches, and with it, and through the C API with it. Where this interpreter's
// layout is known (3.11 to 3.13), the reads must name the same frames as the API; elsewhere
// the walk without the GIL names none. Skipped, with the reason, where there is no python3
// with a shared libpython.
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

std::vector<std::vector<std::string>> Walks(const std::string& output) {
  std::vector<std::vector<std::string>> walks;
  std::size_t begin = 0;
  for (std::size_t end; (end = output.find("---\n", begin)) != std::string::npos; begin = end + 4) {
    walks.push_back(Lines(output.substr(begin, end - begin)));
  }
  return walks;
}

TEST(PythonInterpreterFrames, ReadingCPythonsStructuresFindsTheFramesTheApiFinds) {
  if (std::string(GPUSCOPE_PYTHON3).empty()) {
    GTEST_SKIP() << "no python3 with a shared libpython was found when this build was configured";
  }
  std::string command;
  const std::string output = RunScript(&command);
  const std::vector<std::vector<std::string>> walks = Walks(output);
  ASSERT_EQ(walks.size(), 3u) << command << "\n" << output;
  for (const std::vector<std::string>& walk : walks) ASSERT_FALSE(walk.empty()) << output;
  const std::vector<std::string>& without_gil = walks[0];
  const std::vector<std::string>& api = walks[1];
  const std::vector<std::string>& with_gil = walks[2];
  EXPECT_EQ(api[0], "gil=1 reader=0") << output;

  // Through the C API: the walker's call, then its callers, up to the module.
  ASSERT_GE(api.size(), 4u) << output;
  const std::string call = "walk_own_frames.py:" + std::to_string(WalkerCallLine()) + ":launch";
  EXPECT_NE(api[1].find(call), std::string::npos) << output;
  EXPECT_NE(api[2].find(":Modèle.step"), std::string::npos) << output;
  EXPECT_NE(api.back().find(":<module>"), std::string::npos) << output;

  const std::vector<std::string> api_frames(api.begin() + 1, api.end());
  if (without_gil[0] == "gil=0 reader=1") {
    // A known layout: every frame, file, line and function as the API says, GIL or not.
    EXPECT_EQ(std::vector<std::string>(without_gil.begin() + 1, without_gil.end()), api_frames)
        << output;
    EXPECT_EQ(with_gil[0], "gil=1 reader=1") << output;
    EXPECT_EQ(std::vector<std::string>(with_gil.begin() + 1, with_gil.end()), api_frames)
        << output;
  } else {
    // No layout for this version: nothing without the GIL, the API with it.
    EXPECT_EQ(without_gil, std::vector<std::string>{"gil=0 reader=0"}) << output;
    EXPECT_EQ(with_gil[0], "gil=1 reader=0") << output;
    EXPECT_EQ(std::vector<std::string>(with_gil.begin() + 1, with_gil.end()), api_frames)
        << output;
  }
}

}  // namespace
