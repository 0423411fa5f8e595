#include "cupti/host/unit_names.h"

#include <gtest/gtest.h>

namespace gpuscope::cupti::host {
namespace {

TEST(NcuStyleUnit, RenamesSingleUnitsTheWayNsightComputePrintsThem) {
  EXPECT_EQ(NcuStyleUnit("percent"), "%");
  EXPECT_EQ(NcuStyleUnit("gpc_cycle"), "cycle");
  EXPECT_EQ(NcuStyleUnit("dram_cycle"), "cycle");
  EXPECT_EQ(NcuStyleUnit("nanosecond"), "nsecond");
  EXPECT_EQ(NcuStyleUnit("instruction"), "inst");
  EXPECT_EQ(NcuStyleUnit("l2_sector"), "sector");
  EXPECT_EQ(NcuStyleUnit("byte"), "byte");
  EXPECT_EQ(NcuStyleUnit(""), "");
}

TEST(NcuStyleUnit, RenamesBothSidesOfAQuotient) {
  EXPECT_EQ(NcuStyleUnit("byte/second"), "byte/second");
  EXPECT_EQ(NcuStyleUnit("gpc_cycle/second"), "cycle/second");
  EXPECT_EQ(NcuStyleUnit("instruction/gpc_cycle"), "inst/cycle");
  EXPECT_EQ(NcuStyleUnit("l2_sector/l1tex_request"), "sector/request");
  EXPECT_EQ(NcuStyleUnit("byte/l1tex_wavefront"), "byte/wavefront");
}

TEST(NcuStyleUnit, SplitsConcatenatedProducts) {
  EXPECT_EQ(NcuStyleUnit("gpc_cyclewarp"), "cycle*warp");
  EXPECT_EQ(NcuStyleUnit("gpc_cycleinstruction/warp"), "cycle*inst/warp");
  EXPECT_EQ(NcuStyleUnit("bytegpc_cycle"), "byte*cycle");
}

TEST(NcuStyleUnit, LeavesUnknownUnitsAsCuptiWroteThem) {
  EXPECT_EQ(NcuStyleUnit("furlong/fortnight"), "furlong/fortnight");
  EXPECT_EQ(NcuStyleUnit("bytefurlong"), "bytefurlong");
}

}  // namespace
}  // namespace gpuscope::cupti::host
