// nvdisasm's listing parsed (the recorded listings of tests/data/sass), the program run
// (through a stand-in script that prints those listings for their cubins) and found.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "../support/sass_text.h"
#include "disassembly/nvdisasm_listing.h"
#include "disassembly/nvdisasm_locator.h"
#include "disassembly/nvdisasm_run.h"
#include "store/testing/sass_fixtures.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::disassembly {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";

void WriteScript(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0700);
}

TEST(NvdisasmListing, ReadsEveryInstructionOfTheRecordedKernel) {
  SassListing listing = ParseNvdisasmListing(ReadWholeFile(kData + "k.nvdisasm.txt"));
  ASSERT_EQ(listing.size(), 1u);
  const std::vector<SassInstruction>& acc = listing.at("_Z3accPKfPdi");
  ASSERT_FALSE(acc.empty());
  EXPECT_EQ(acc.front().offset, 0x0u);
  EXPECT_EQ(acc.front().text, "LDC R1, c[0x0][0x28]");
  std::map<std::uint64_t, std::string> by_offset;
  for (const SassInstruction& i : acc) by_offset[i.offset] = i.text;
  EXPECT_EQ(by_offset.at(0x130), "DADD R2, R6, R2");
  EXPECT_EQ(by_offset.at(0x90), "@P0 BRA `(.L_x_1)");  // the predicate is kept
  EXPECT_EQ(by_offset.at(0x170), "EXIT");
  // Offsets step by 16 bytes with none missing (the -g line comments are skipped).
  for (std::size_t i = 0; i < acc.size(); ++i) EXPECT_EQ(acc[i].offset, 16 * i);
}

TEST(NvdisasmListing, SplitsTheProbesThreeFunctions) {
  SassListing listing = ParseNvdisasmListing(ReadWholeFile(kData + "probe.nvdisasm.txt"));
  ASSERT_EQ(listing.size(), 3u);
  std::size_t total = 0;
  for (const auto& [name, instructions] : listing) total += instructions.size();
  EXPECT_EQ(total, 344u);  // every "/*offset*/" line of the file
  // ncu's listing of k_fp64 has the same instruction count and texts.
  store::testing::NcuSourceKernel ncu =
      store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", "_Z6k_fp64PKfPfi", 57506000);
  const std::vector<SassInstruction>& fp64 = listing.at("_Z6k_fp64PKfPfi");
  ASSERT_EQ(fp64.size(), ncu.offsets.size());
  for (const SassInstruction& i : fp64)
    EXPECT_EQ(testing::ComparableSass(i.text), testing::ComparableSass(ncu.sass.at(i.offset))) << i.offset;
}

TEST(NvdisasmListing, IgnoresWhatIsNotAnInstruction) {
  SassListing listing = ParseNvdisasmListing(
      "/*0000*/ NOP ;\n"  // before any function: not taken
      ".text.f:\n"
      "        /*0000*/                   NOP ;\n"
      "        /*zz10*/                   NOP ;\n"
      "        /*0020*/ ;\n"
      "        /*0030*/                   MOV R1, R2 ;  /* 0x000fe20000000f00 */\n"
      "\t.section\t.nv.constant0.f,\"a\",@progbits\n"
      "        /*0040*/                   DATA ;\n");
  ASSERT_EQ(listing.size(), 1u);
  ASSERT_EQ(listing.at("f").size(), 2u);
  EXPECT_EQ(listing.at("f")[1].text, "MOV R1, R2");
}

TEST(NvdisasmRun, RunsTheProgramOnATemporaryCopyOfTheCubin) {
  std::vector<std::uint8_t> cubin = store::testing::ReadBinaryFile(kData + "k.cubin");
  StatusOr<std::string> listing = RunNvdisasm(kData + "fake_nvdisasm.sh", cubin);
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  EXPECT_EQ(*listing, ReadWholeFile(kData + "k.nvdisasm.txt"));
}

TEST(NvdisasmRun, ReportsFailuresInOneLine) {
  store::testing::ScratchDir dir;
  const std::vector<std::uint8_t> junk = {1, 2, 3};
  StatusOr<std::string> failed = RunNvdisasm(kData + "fake_nvdisasm.sh", junk);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("exit 1"), std::string::npos);
  EXPECT_NE(failed.status().message().find("not a known cubin"), std::string::npos);
  EXPECT_EQ(failed.status().message().find('\n'), std::string::npos);

  StatusOr<std::string> missing = RunNvdisasm(dir.File("no-such-nvdisasm"), junk);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot run"), std::string::npos);

  WriteScript(dir.File("slow"), "exec sleep 30");
  StatusOr<std::string> slow =
      RunNvdisasm(dir.File("slow"), junk, {std::chrono::milliseconds(200)});
  ASSERT_FALSE(slow.ok());
  EXPECT_NE(slow.status().message().find("did not finish"), std::string::npos);

  WriteScript(dir.File("chatty"), "exec yes SASS");
  StatusOr<std::string> chatty =
      RunNvdisasm(dir.File("chatty"), junk, {std::chrono::seconds(20), 1 << 20});
  ASSERT_FALSE(chatty.ok());
  EXPECT_NE(chatty.status().message().find("wrote more than"), std::string::npos);
}

TEST(NvdisasmRun, RemovesItsTemporaryFile) {
  store::testing::ScratchDir dir;
  // The script records the path it was given; the file must be gone afterwards.
  WriteScript(dir.File("record"), "echo \"$2\" > '" + dir.File("given") + "'");
  const std::vector<std::uint8_t> bytes = {7};
  ASSERT_TRUE(RunNvdisasm(dir.File("record"), bytes).ok());
  std::string given = ReadWholeFile(dir.File("given"));
  while (!given.empty() && given.back() == '\n') given.pop_back();
  ASSERT_FALSE(given.empty());
  EXPECT_NE(::access(given.c_str(), F_OK), 0) << given;
}

TEST(NvdisasmLocator, PrefersTheChosenOneThenPath) {
  store::testing::ScratchDir dir;
  WriteScript(dir.File("nvdisasm"), "exit 0");
  NvdisasmSearch search{.path = "/nonexistent:" + dir.path()};
  EXPECT_EQ(FindNvdisasm(search), dir.File("nvdisasm"));
  search.chosen = "/opt/other/nvdisasm";
  EXPECT_EQ(FindNvdisasm(search), "/opt/other/nvdisasm");
  search.chosen.clear();
  search.path = "/nonexistent";
  search.cuda_home = dir.path() + "/..";
  std::optional<std::string> none = FindNvdisasm(search);
  // Only a machine with the toolkit in the default place finds one now.
  if (::access("/usr/local/cuda/bin/nvdisasm", X_OK) != 0) {
    EXPECT_FALSE(none.has_value());
  }
}

}  // namespace
}  // namespace gpuscope::disassembly
