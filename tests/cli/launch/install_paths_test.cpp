#include "cli/launch/install_paths.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

TEST(InstallPaths, FindsTheLibraryNextToTheBinary) {
  testing::TempDir prefix;
  ASSERT_EQ(mkdir(prefix.File("bin").c_str(), 0755), 0);
  ASSERT_EQ(mkdir(prefix.File("lib").c_str(), 0755), 0);
  prefix.Write("lib/libgpuscope_inject.so", "ELF");
  StatusOr<std::string> library = FindInjectionLibrary(nullptr, prefix.File("bin"));
  ASSERT_TRUE(library.ok()) << library.status().message();
  EXPECT_EQ(library.value(), prefix.File("lib/libgpuscope_inject.so"));  // no "bin/.."
}

TEST(InstallPaths, MissingLibraryIsAClearError) {
  testing::TempDir prefix;
  StatusOr<std::string> library = FindInjectionLibrary(nullptr, prefix.File("bin"));
  ASSERT_FALSE(library.ok());
  EXPECT_NE(library.status().message().find("libgpuscope_inject.so was not found"),
            std::string::npos);
  EXPECT_NE(library.status().message().find("GPUSCOPE_INJECTION_LIBRARY"), std::string::npos);
}

TEST(InstallPaths, EnvironmentOverrideWinsAndIsMadeAbsolute) {
  testing::TempDir dir;
  dir.Write("custom.so", "ELF");
  char previous[4096];
  ASSERT_NE(getcwd(previous, sizeof(previous)), nullptr);
  ASSERT_EQ(chdir(dir.path().c_str()), 0);
  StatusOr<std::string> library = FindInjectionLibrary("custom.so", "/nonexistent/bin");
  ASSERT_EQ(chdir(previous), 0);
  ASSERT_TRUE(library.ok()) << library.status().message();
  EXPECT_EQ(library.value(), dir.File("custom.so"));

  StatusOr<std::string> missing = FindInjectionLibrary("/nonexistent/x.so", "/nonexistent/bin");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "the injection library /nonexistent/x.so was not found (from "
            "GPUSCOPE_INJECTION_LIBRARY)");
}

TEST(InstallPaths, ADirectoryIsNotALibrary) {
  testing::TempDir dir;
  EXPECT_FALSE(FindInjectionLibrary(dir.path().c_str(), "/").ok());
}

TEST(InstallPaths, CuptiDirectoryOverride) {
  EXPECT_EQ(CuptiDirectory("/opt/cupti/lib"), "/opt/cupti/lib");
  EXPECT_EQ(CuptiDirectory(""), CuptiDirectory(nullptr));
  EXPECT_FALSE(CuptiDirectory(nullptr).empty());
}

TEST(InstallPaths, CuptiLibraryPresence) {
  testing::TempDir dir;
  EXPECT_FALSE(CuptiLibraryPresent(dir.path()));
  dir.Write("libcupti.so.13", "ELF");
  EXPECT_TRUE(CuptiLibraryPresent(dir.path()));
}

TEST(InstallPaths, PythonHookIsFoundNextToTheLibrary) {
  testing::TempDir dir;
  const std::string library = dir.path() + "/libgpuscope_inject.so";
  EXPECT_EQ(PythonHookDirectory(library), "");  // an install without it
  ASSERT_EQ(mkdir((dir.path() + "/gpuscope-python").c_str(), 0700), 0);
  EXPECT_EQ(PythonHookDirectory(library), "") << "a directory without the hook is no hook";
  dir.Write("gpuscope-python/sitecustomize.py", "# hook");
  EXPECT_EQ(PythonHookDirectory(library), dir.path() + "/gpuscope-python");
}

TEST(InstallPaths, ExecutableDirectoryIsThisTestsDirectory) {
  StatusOr<std::string> dir = ExecutableDirectory();
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE(testing::FileExists(dir.value() + "/cli_tests")) << dir.value();
}

}  // namespace
}  // namespace gpuscope::cli
