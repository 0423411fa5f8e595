// libgpuscope_inject.so lives inside other people's processes: it must export its entry
// point and nothing else (no C++ runtime, no SQLite to clash with Python's sqlite3 or
// PyTorch's libstdc++), find CUPTI by itself, and never fail the program.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "temp_dir.h"

namespace gpuscope::inject::testing {
namespace {

std::string RunCommand(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 4096> chunk;
  while (std::size_t n = fread(chunk.data(), 1, chunk.size(), pipe)) output.append(chunk.data(), n);
  pclose(pipe);
  return output;
}

// `nm -D` lines: "<address> <type> <name>" or "<spaces> U <name>".
std::set<std::string> Symbols(const std::string& nm_output) {
  std::set<std::string> names;
  std::istringstream lines(nm_output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string a, b, c;
    fields >> a >> b >> c;
    names.insert(c.empty() ? b : c);
  }
  return names;
}

TEST(InjectionLibraryExportsTest, OnlyTheEntryPointsOfCudaAndNvtxAreExported) {
  const std::string output =
      RunCommand(std::string("nm -D --defined-only ") + GPUSCOPE_INJECT_LIBRARY);
  ASSERT_FALSE(output.empty()) << "nm could not read " << GPUSCOPE_INJECT_LIBRARY;
  EXPECT_EQ(Symbols(output),
            (std::set<std::string>{"InitializeInjection", "InitializeInjectionNvtx2"}))
      << output;
  EXPECT_NE(output.find(" T InitializeInjection\n"), std::string::npos) << "a defined function";
  EXPECT_NE(output.find(" T InitializeInjectionNvtx2\n"), std::string::npos) << output;
}

TEST(InjectionLibraryExportsTest, NoSqliteSymbolIsVisibleAtAll) {
  const std::string output = RunCommand(std::string("nm -D ") + GPUSCOPE_INJECT_LIBRARY);
  ASSERT_FALSE(output.empty());
  for (const std::string& name : Symbols(output)) {
    EXPECT_EQ(name.find("sqlite3"), std::string::npos) << name;
  }
}

TEST(InjectionLibraryExportsTest, CarriesItsOwnRuntimeAndFindsCupti) {
  const std::string output = RunCommand(std::string("readelf -d ") + GPUSCOPE_INJECT_LIBRARY);
  ASSERT_FALSE(output.empty());
  EXPECT_EQ(output.find("libstdc++"), std::string::npos) << "static libstdc++: " << output;
  EXPECT_EQ(output.find("libgcc_s"), std::string::npos) << output;
  EXPECT_EQ(output.find("libsqlite3"), std::string::npos) << output;
  EXPECT_NE(output.find("libcupti.so"), std::string::npos) << output;
  EXPECT_NE(output.find(std::string("[") + GPUSCOPE_CUPTI_LIBRARY_DIR), std::string::npos)
      << "RUNPATH names the CUPTI directory: " << output;
}

class InitializeInjectionDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

using InitializeFn = int (*)();

InitializeFn LoadEntryPoint() {
  void* library = dlopen(GPUSCOPE_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen failed: %s\n", dlerror());
    std::_Exit(80);
  }
  auto fn = reinterpret_cast<InitializeFn>(dlsym(library, "InitializeInjection"));
  if (fn == nullptr) std::_Exit(81);
  return fn;
}

TEST_F(InitializeInjectionDeathTest, AChildThatIsNotFollowedIsLeftAlone) {
  EXPECT_EXIT(
      {
        setenv("GPUSCOPE_ROOT_PID", std::to_string(getpid() + 1).c_str(), 1);
        setenv("GPUSCOPE_FOLLOW_CHILDREN", "0", 1);
        setenv("GPUSCOPE_DEBUG", "1", 1);
        InitializeFn initialize = LoadEntryPoint();
        const int first = initialize();
        const int second = initialize();  // the guard: only the first call does anything
        std::fprintf(stderr, "returned %d %d\n", first, second);
        std::fflush(stderr);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0),
      "gpuscope\\[debug\\]: InitializeInjection\n.*gpuscope\\[debug\\]: child process [0-9]+ is "
      "not traced \\(children not followed\\)\nreturned 1 1\n$");
}

// Without a GPU, CUPTI cannot start: the library says so in one line, returns 1 and the
// program runs on. (On a machine with a GPU it traces instead; both are fine outcomes.)
TEST_F(InitializeInjectionDeathTest, NeverFailsTheProgram) {
  TempDir dir;
  const std::string pattern = dir.path() + "/r_%p.sqlite";
  EXPECT_EXIT(
      {
        setenv("GPUSCOPE_REPORT", pattern.c_str(), 1);
        unsetenv("GPUSCOPE_ROOT_PID");
        InitializeFn initialize = LoadEntryPoint();
        std::fprintf(stderr, "returned %d\n", initialize());
        std::fflush(stderr);
        std::exit(0);  // runs the atexit path too
      },
      ::testing::ExitedWithCode(0),
      "(gpuscope: CUPTI could not start \\(cuptiSubscribe_v2: CUPTI_ERROR_[A-Z_]+\\); gpuscope "
      "records nothing in this process|gpuscope is profiling process).*\n(.|\n)*returned 1\n");
}

// NVTX as PyTorch compiles it in (the header-only NVTX3 loader), in a program that loaded its
// own CUPTI first (PyTorch's wheel does at `import torch`): NVTX_INJECTION64_PATH names
// gpuscope's library, which hands NVTX to that same CUPTI, the one gpuscope is bound to, instead
// of a second copy nobody traces (nvtx_probe.cpp).
TEST(NvtxInjectionTest, NvtxReachesTheCuptiTheProgramLoadedFirst) {
  TempDir dir;
  const std::string own_cupti = dir.path() + "/libcupti.so.13";
  std::filesystem::copy_file(std::string(GPUSCOPE_CUPTI_LIBRARY_DIR) + "/libcupti.so.13",
                             own_cupti);
  const std::string output = RunCommand(
      "NVTX_INJECTION64_PATH=" + std::string(GPUSCOPE_INJECT_LIBRARY) +
      " GPUSCOPE_DEBUG=1 " + GPUSCOPE_NVTX_PROBE + " " + own_cupti + " 2>&1");
  EXPECT_NE(output.find("gpuscope[debug]: NVTX goes to " + own_cupti + "\n"), std::string::npos)
      << output;
  EXPECT_NE(output.find("nvtx_probe: done\n"), std::string::npos) << output;
}

}  // namespace
}  // namespace gpuscope::inject::testing
