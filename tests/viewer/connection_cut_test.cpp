// Which connection a full viewer server cuts to admit a newcomer: answered ones first, then
// the idlest of the address holding the most; never one a worker handles.
#include "viewer/connection_cut.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpuscope::viewer {
namespace {

using Stage = OpenConnection::Stage;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kLocal = 0x7F000001;  // 127.0.0.1
constexpr std::uint32_t kOther = 0x7F000002;  // 127.0.0.2
constexpr std::uint32_t kThird = 0x7F000003;

// Heard from `ms` milliseconds after an arbitrary origin.
Clock::time_point At(int ms) { return Clock::time_point() + std::chrono::milliseconds(ms); }

TEST(ConnectionCutTest, TheIdlestReadingConnectionGoesNotTheFreshOne) {
  // Connection 1 was accepted first but sent part of its head since; 2 and 3 are silent.
  std::vector<OpenConnection> open = {{1, kLocal, Stage::kReading, At(500)},
                                      {2, kLocal, Stage::kReading, At(200)},
                                      {3, kLocal, Stage::kReading, At(900)}};
  EXPECT_EQ(ConnectionToCut(open, kLocal), 2u);
}

TEST(ConnectionCutTest, AnAnsweredConnectionGoesFirst) {
  std::vector<OpenConnection> open = {{1, kOther, Stage::kReading, At(0)},
                                      {2, kLocal, Stage::kLingering, At(800)},
                                      {3, kLocal, Stage::kLingering, At(700)},
                                      {4, kOther, Stage::kReading, At(1)}};
  EXPECT_EQ(ConnectionToCut(open, kOther), 3u);
}

TEST(ConnectionCutTest, TheAddressHoldingTheMostLosesOneBeforeAnotherDoes) {
  // 127.0.0.1 holds one idle connection, the oldest; 127.0.0.2 holds three.
  std::vector<OpenConnection> open = {{1, kLocal, Stage::kReading, At(0)},
                                      {2, kOther, Stage::kReading, At(300)},
                                      {3, kOther, Stage::kReading, At(100)},
                                      {4, kOther, Stage::kReading, At(200)}};
  EXPECT_EQ(ConnectionToCut(open, kThird), 3u);
  EXPECT_EQ(ConnectionToCut(open, kOther), 3u);
  // The newcomer counts for its address: from 127.0.0.1 it makes two against two, and the
  // idlest of all goes.
  std::vector<OpenConnection> even = {{1, kLocal, Stage::kReading, At(0)},
                                      {2, kOther, Stage::kReading, At(300)},
                                      {3, kOther, Stage::kReading, At(100)}};
  EXPECT_EQ(ConnectionToCut(even, kThird), 3u);
  EXPECT_EQ(ConnectionToCut(even, kLocal), 1u);
}

TEST(ConnectionCutTest, AConnectionAWorkerHandlesIsNeverCut) {
  std::vector<OpenConnection> open = {{1, kOther, Stage::kBusy, At(0)},
                                      {2, kOther, Stage::kBusy, At(1)},
                                      {3, kLocal, Stage::kReading, At(900)}};
  // 127.0.0.2 holds the most, but nothing of it may be cut.
  EXPECT_EQ(ConnectionToCut(open, kThird), 3u);
  std::vector<OpenConnection> busy = {{1, kOther, Stage::kBusy, At(0)},
                                      {2, kLocal, Stage::kBusy, At(1)}};
  EXPECT_EQ(ConnectionToCut(busy, kLocal), std::nullopt);
  EXPECT_EQ(ConnectionToCut({}, kLocal), std::nullopt);
}

}  // namespace
}  // namespace gpuscope::viewer
