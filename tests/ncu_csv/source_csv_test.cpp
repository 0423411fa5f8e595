// The source-page readers and the per-instruction comparison of issue 11 on recorded and
// hand-written pages, without a GPU: tests/gpu/source_vs_ncu_test.cpp trusts them to say
// whether gpuscope agrees with Nsight Compute.
#include "source_csv.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "source_comparison.h"

namespace gpuscope::ncu_csv {
namespace {

// ncu's source page of one k_fp64 launch (ncu prints it twice) recorded on the H100
// (tests/data/sass/README.md documents the sums checked below).
std::string RecordedNcuPage() {
  std::ifstream file(std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/probe_ncu_sass.csv");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

const std::vector<std::string> kCompared = {"Instructions Executed",
                                            "Thread Instructions Executed",
                                            "Predicated-On Thread Instructions Executed",
                                            "L2 Theoretical Sectors Global",
                                            "L2 Theoretical Sectors Global Ideal",
                                            "L1 Wavefronts Shared",
                                            "L1 Wavefronts Shared Ideal"};

// The contract of `gpuscope source --csv`: identity columns, then counts.
constexpr const char* kGpuscopeHeader =
    R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed",)csv"
    R"csv("Thread Instructions Executed","Predicated-On Thread Instructions Executed",)csv"
    R"csv("Divergent Branches","L2 Theoretical Sectors Global","L2 Theoretical Sectors Global Ideal",)csv"
    R"csv("L2 Theoretical Sectors Global Excessive","L1 Wavefronts Shared",)csv"
    R"csv("L1 Wavefronts Shared Ideal","L1 Wavefronts Shared Excessive",)csv"
    R"csv("Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)",)csv"
    R"csv("stall_long_sb")csv";

// ncu's rows written the way gpuscope writes them (offsets, empty for no value), so that the
// comparison can be run on real numbers; `scale` multiplies one value to make a difference.
std::string AsGpuscopeCsv(const SourceFunction& ncu, size_t scaled_row = SIZE_MAX,
                          double scale = 1.0) {
  std::string text = std::string(kGpuscopeHeader) + "\n";
  for (size_t i = 0; i < ncu.rows.size(); ++i) {
    const SourceRow& row = ncu.rows[i];
    char address[32];
    std::snprintf(address, sizeof address, "0x%04llx",
                  static_cast<unsigned long long>(*row.offset));
    text += "\"0\",\"" + ncu.kernel_name + "\",\"_Z6k_fp64PKfPfi\",\"" + address + "\",\"" +
            row.source + "\",\"/tmp/sx/k.cu\",\"4\"";
    for (const char* column :
         {"Instructions Executed", "Thread Instructions Executed",
          "Predicated-On Thread Instructions Executed", "Divergent Branches",
          "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal",
          "L2 Theoretical Sectors Global Excessive", "L1 Wavefronts Shared",
          "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive",
          "Warp Stall Sampling (All Samples)", "Warp Stall Sampling (Not-issued Samples)",
          "stall_long_sb"}) {
      std::optional<double> value = row.Value(column);
      // gpuscope leaves counts an instruction cannot have empty; ncu prints 0.
      if (value && *value != 0) {
        double scaled = (i == scaled_row && std::string(column) == "Instructions Executed")
                            ? *value * scale
                            : *value;
        text += ",\"" + std::to_string(static_cast<long long>(scaled)) + "\"";
      } else {
        text += ",\"\"";
      }
    }
    text += "\n";
  }
  return text;
}

// The recorded page holds one launch printed twice (README): collapsed to one; two blocks
// that differ are kept.
TEST(CollapseRepeatedPages, OneOfEachIdenticalPairIsKept) {
  auto functions = ParseNcuSourcePage(RecordedNcuPage());
  ASSERT_TRUE(functions.ok()) << functions.status().message();
  std::vector<SourceFunction> collapsed = CollapseRepeatedPages(*functions);
  ASSERT_EQ(collapsed.size(), 1u);
  EXPECT_EQ(collapsed[0].rows.size(), 256u);
  std::vector<SourceFunction> different = *functions;
  different[1].rows[3].values["Instructions Executed"] = 1.0;
  EXPECT_EQ(CollapseRepeatedPages(different).size(), 2u);
  different.pop_back();
  EXPECT_EQ(CollapseRepeatedPages(different).size(), 1u) << "an odd count is left alone";
}

TEST(ParseNcuSourcePage, RecordedPageHasBothLaunchesWithOffsetsAndSums) {
  auto functions = ParseNcuSourcePage(RecordedNcuPage());
  ASSERT_TRUE(functions.ok()) << functions.status().message();
  ASSERT_EQ(functions->size(), 2u);
  for (const SourceFunction& function : *functions) {
    EXPECT_EQ(function.kernel_name, "k_fp64(const float *, float *, int)");
    EXPECT_EQ(function.function_name, "k_fp64");
    ASSERT_EQ(function.rows.size(), 256u);
    EXPECT_EQ(function.rows.front().offset, 0u) << "offsets count from the first instruction";
    EXPECT_EQ(function.rows.back().offset, 0xff0u);
    EXPECT_EQ(function.rows.front().source, "LDC R1, c[0x0][0x28]") << "blanks trimmed";
    // The sums tests/data/sass/README.md gives for this launch.
    EXPECT_EQ(SassColumnSum(function, "Instructions Executed"), 28606464);
    EXPECT_EQ(SassColumnSum(function, "Thread Instructions Executed"), 915406848);
    EXPECT_EQ(SassColumnSum(function, "Predicated-On Thread Instructions Executed"), 780140544);
    EXPECT_EQ(SassColumnSum(function, "L2 Theoretical Sectors Global"), 10485760);
    EXPECT_EQ(SassColumnSum(function, "L2 Theoretical Sectors Global Ideal"), 8650752);
    // "-" (no value) and words in text columns are not numbers.
    EXPECT_FALSE(function.rows.front().Value("Address Space"));
    EXPECT_FALSE(function.rows.front().Value("No Such Column"));
  }
}

TEST(ParseNcuSourcePage, SkipsProgressLinesAndRejectsRowsBeforeTheirHeader) {
  auto parsed = ParseNcuSourcePage(
      "==PROF== Connected to process 1\n"
      "\"Kernel Name\",\"k(int)\",\n"
      "\"Address\",\"Source\",\"Instructions Executed\"\n"
      "\"0x7f0000000100\",\"  @P0 BRA 0x7f0000000120\",\"1,024\"\n"
      "\"0x7f0000000110\",\"  EXIT\",\"-\"\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->size(), 1u);
  const SourceFunction& function = parsed->front();
  ASSERT_EQ(function.rows.size(), 2u);
  EXPECT_EQ(function.rows[1].offset, 0x10u);
  EXPECT_EQ(function.rows[0].Value("Instructions Executed"), 1024.0) << "thousands separators";
  EXPECT_FALSE(function.rows[1].Value("Instructions Executed"));

  EXPECT_FALSE(ParseNcuSourcePage("\"Kernel Name\",\"k(int)\",\n\"0x10\",\"EXIT\"\n").ok());
  EXPECT_FALSE(ParseNcuSourcePage("\"Address\",\"Source\"\n").ok()) << "no kernel name";
  EXPECT_FALSE(ParseNcuSourcePage("\"Kernel Name\",\"k\",\n\"Address\",\"Source\"\n"
                                  "\"0x20\",\"NOP\"\n\"0x10\",\"NOP\"\n")
                   .ok())
      << "addresses must grow";
}

// Hand-written `gpuscope source --csv` output: two launches, SASS rows and a source row.
constexpr const char* kGpuscopeSample =
    R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed","Divergent Branches"
"0","k_a(int *)","_Z3k_aPi","0x0000","LDC R1, c[0x0][0x28]","/src/a.cu","7","32",""
"0","k_a(int *)","_Z3k_aPi","0x0010","@P0 BRA `(.L_x_1)","/src/a.cu","9","32","4"
"1","k_b(float)","_Z3k_bf","","  s += x;","/src/b.cu","12","64",""
"1","k_b(float)","_Z3k_bf","0x0000","EXIT","","","64",""
)csv";

TEST(ParseGpuscopeSourceCsv, GroupsRowsByLaunchAndReadsLinesAndEmptyValues) {
  auto functions = ParseGpuscopeSourceCsv(kGpuscopeSample);
  ASSERT_TRUE(functions.ok()) << functions.status().message();
  ASSERT_EQ(functions->size(), 2u);
  const SourceFunction& a = (*functions)[0];
  EXPECT_EQ(a.id, 0);
  EXPECT_EQ(a.function_name, "k_a");
  EXPECT_EQ(a.mangled_name, "_Z3k_aPi");
  ASSERT_EQ(a.rows.size(), 2u);
  EXPECT_EQ(a.rows[1].offset, 0x10u);
  EXPECT_EQ(a.rows[1].file, "/src/a.cu");
  EXPECT_EQ(a.rows[1].line, 9);
  EXPECT_EQ(a.rows[1].Value("Divergent Branches"), 4.0);
  EXPECT_FALSE(a.rows[0].Value("Divergent Branches")) << "empty: no value";
  const SourceFunction& b = (*functions)[1];
  ASSERT_EQ(b.rows.size(), 2u);
  EXPECT_FALSE(b.rows[0].offset) << "a source line has no address";
  EXPECT_EQ(b.rows[0].source, "s += x;");
  EXPECT_FALSE(b.rows[1].line) << "unknown line";
  EXPECT_EQ(SassColumnSum(b, "Instructions Executed"), 64) << "source rows are not summed";
}

TEST(ParseGpuscopeSourceCsv, RejectsAnotherHeaderRaggedRowsAndWords) {
  EXPECT_FALSE(ParseGpuscopeSourceCsv("\"ID\",\"Kernel Name\",\"Address\"\n").ok());
  EXPECT_FALSE(ParseGpuscopeSourceCsv("").ok());
  const std::string header =
      R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed")csv";
  EXPECT_FALSE(ParseGpuscopeSourceCsv(header + "\n\"0\",\"k\",\"_Z1kv\",\"0x0\"\n").ok());
  EXPECT_FALSE(
      ParseGpuscopeSourceCsv(header + "\n\"0\",\"k\",\"_Z1kv\",\"0x0\",\"NOP\",\"\",\"\",\"n/a\"\n")
          .ok())
      << "gpuscope's columns are counts";
  EXPECT_FALSE(
      ParseGpuscopeSourceCsv(header + "\n\"0\",\"k\",\"_Z1kv\",\"12\",\"NOP\",\"\",\"\",\"1\"\n")
          .ok())
      << "addresses are hex";
}

TEST(SassMnemonic, DropsPredicateOperandsAndSemicolon) {
  EXPECT_EQ(SassMnemonic("      IMAD.MOV.U32 R2, RZ, RZ, RZ"), "IMAD.MOV.U32");
  EXPECT_EQ(SassMnemonic("@!P1   IADD3 R9, R9, -UR6, RZ ;"), "IADD3");
  EXPECT_EQ(SassMnemonic("EXIT ;"), "EXIT");
  EXPECT_EQ(SassMnemonic("NOP"), "NOP");
  // As gpuscope's CSV writes a predicated instruction (formula guard).
  EXPECT_EQ(SassMnemonic("'@!P1 DADD R18, R18, R24"), "DADD");
}

TEST(CountsAgree, RelativeToleranceAndExactZero) {
  EXPECT_TRUE(CountsAgree(1000, 1009, 0.01));
  EXPECT_FALSE(CountsAgree(1000, 1011, 0.01));
  EXPECT_TRUE(CountsAgree(0, 0, 0.01));
  EXPECT_FALSE(CountsAgree(0, 1, 0.01)) << "zero is exact";
  EXPECT_FALSE(CountsAgree(1, 0, 0.01));
}

TEST(CompareSourceFunctions, RecordedPageAgreesWithItselfInGpuscopesLayout) {
  auto ncu = ParseNcuSourcePage(RecordedNcuPage());
  ASSERT_TRUE(ncu.ok()) << ncu.status().message();
  auto gpuscope = ParseGpuscopeSourceCsv(AsGpuscopeCsv(ncu->front()));
  ASSERT_TRUE(gpuscope.ok()) << gpuscope.status().message();
  ASSERT_EQ(gpuscope->size(), 1u);
  SourceComparison same = CompareSourceFunctions(ncu->front(), gpuscope->front(), kCompared, 0.01);
  EXPECT_TRUE(same.ok()) << same.problems.front();
  EXPECT_EQ(same.matched_instructions, 256u);
  EXPECT_EQ(same.values_compared, 256u * 5) << "five columns that ncu printed";
  EXPECT_GT(same.nonzero_compared["L2 Theoretical Sectors Global"], 0u);
  // k_fp64 has no shared memory: ncu prints no shared-wavefront columns, and gpuscope's are
  // all empty.
  EXPECT_EQ(same.absent_in_reference,
            (std::vector<std::string>{"L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"}));
}

TEST(CompareSourceFunctions, OneInstructionOffByMoreThanTheToleranceFails) {
  auto ncu = ParseNcuSourcePage(RecordedNcuPage());
  ASSERT_TRUE(ncu.ok()) << ncu.status().message();
  // Row 0x330/16 runs 131072 times: 0.5% more is within 1%, 2% more is not.
  const size_t row = 0x33;
  ASSERT_EQ(ncu->front().rows[row].Value("Instructions Executed"), 131072.0);
  auto close = ParseGpuscopeSourceCsv(AsGpuscopeCsv(ncu->front(), row, 1.005));
  auto far = ParseGpuscopeSourceCsv(AsGpuscopeCsv(ncu->front(), row, 1.02));
  ASSERT_TRUE(close.ok() && far.ok());
  EXPECT_TRUE(CompareSourceFunctions(ncu->front(), close->front(), kCompared, 0.01).ok());
  SourceComparison off = CompareSourceFunctions(ncu->front(), far->front(), kCompared, 0.01);
  ASSERT_EQ(off.problems.size(), 1u);
  EXPECT_NE(off.problems[0].find("Instructions Executed at +0x330"), std::string::npos)
      << off.problems[0];
}

TEST(CompareSourceFunctions, MissingOrDifferentInstructionsAndExtraValuesFail) {
  auto ncu = ParseNcuSourcePage(
      "\"Kernel Name\",\"k(int)\",\n"
      "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Global\"\n"
      "\"0x1000\",\"LDG.E R0, desc[UR4][R2.64]\",\"32\",\"128\"\n"
      "\"0x1010\",\"EXIT\",\"32\",\"0\"\n"
      "\"0x1020\",\"NOP\",\"0\",\"0\"\n");
  ASSERT_TRUE(ncu.ok()) << ncu.status().message();
  const std::vector<std::string> columns = {
      "Instructions Executed", "L2 Theoretical Sectors Global", "L1 Wavefronts Shared"};
  auto compare = [&](const std::string& rows) {
    auto gpuscope = ParseGpuscopeSourceCsv(
        R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed",)csv"
        R"csv("L2 Theoretical Sectors Global","L1 Wavefronts Shared")csv"
        "\n" +
        rows);
    EXPECT_TRUE(gpuscope.ok()) << gpuscope.status().message();
    return CompareSourceFunctions(ncu->front(), gpuscope->front(), columns, 0.01);
  };
  const std::string ldg =
      R"csv("0","k(int)","_Z1ki","0x0000","LDG.E R0, desc[UR4][R2.64] ;","","","32","128","")csv";
  const std::string exit = R"csv("0","k(int)","_Z1ki","0x0010","EXIT ;","","","32","","")csv";
  // The trailing NOP never ran: leaving it out is fine.
  SourceComparison same = compare(ldg + "\n" + exit + "\n");
  EXPECT_TRUE(same.ok()) << same.problems.front();
  EXPECT_EQ(same.matched_instructions, 2u);
  // An executed instruction missing.
  EXPECT_FALSE(compare(ldg + "\n").ok());
  // Another instruction at the same offset.
  EXPECT_FALSE(compare(ldg + "\n" +
                       R"csv("0","k(int)","_Z1ki","0x0010","RET.ABS R20 ;","","","32","","")csv" +
                       "\n")
                   .ok());
  // Zero in ncu, non-zero in gpuscope.
  EXPECT_FALSE(compare(ldg + "\n" +
                       R"csv("0","k(int)","_Z1ki","0x0010","EXIT ;","","","32","4","")csv" + "\n")
                   .ok());
  // Shared wavefronts where ncu has no such column for the kernel.
  SourceComparison extra = compare(
      R"csv("0","k(int)","_Z1ki","0x0000","LDG.E R0, desc[UR4][R2.64] ;","","","32","128","8")csv" +
      std::string("\n") + exit + "\n");
  EXPECT_FALSE(extra.ok());
  EXPECT_EQ(extra.absent_in_reference, std::vector<std::string>{"L1 Wavefronts Shared"});
}

TEST(ByLaunch, NumbersTheLaunchesOfEachFunctionInPageOrder) {
  auto functions = ParseGpuscopeSourceCsv(
      R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed")csv"
      "\n"
      R"csv("0","k_a(int)","_Z3k_ai","0x0000","EXIT","","","1")csv"
      "\n"
      R"csv("1","k_b(int)","_Z3k_bi","0x0000","EXIT","","","2")csv"
      "\n"
      R"csv("2","k_a(int)","_Z3k_ai","0x0000","EXIT","","","3")csv"
      "\n");
  ASSERT_TRUE(functions.ok()) << functions.status().message();
  auto keyed = ByLaunch(*functions);
  ASSERT_EQ(keyed.size(), 3u);
  EXPECT_EQ(keyed.at({"k_a", 0})->id, 0);
  EXPECT_EQ(keyed.at({"k_a", 1})->id, 2);
  EXPECT_EQ(keyed.at({"k_b", 0})->id, 1);
}

TEST(CompareSourceFunctions, AColumnGpuscopeLacksIsAProblem) {
  auto ncu = ParseNcuSourcePage(
      "\"Kernel Name\",\"k(int)\",\n\"Address\",\"Source\",\"Divergent Branches\"\n"
      "\"0x10\",\"EXIT\",\"0\"\n");
  auto gpuscope = ParseGpuscopeSourceCsv(
      R"csv("ID","Kernel Name","Function","Address","Source","File","Line","Instructions Executed")csv"
      "\n"
      R"csv("0","k(int)","_Z1ki","0x0000","EXIT","","","1")csv"
      "\n");
  ASSERT_TRUE(ncu.ok() && gpuscope.ok());
  SourceComparison result =
      CompareSourceFunctions(ncu->front(), gpuscope->front(), {"Divergent Branches"}, 0.01);
  EXPECT_FALSE(result.ok());
}

}  // namespace
}  // namespace gpuscope::ncu_csv
