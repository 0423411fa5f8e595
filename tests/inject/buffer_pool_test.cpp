#include "inject/buffer_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace gpuscope::inject {
namespace {

using Clock = std::chrono::steady_clock;

BufferPoolLimits SmallLimits() {
  BufferPoolLimits limits;
  limits.buffer_bytes = 64 * 1024;
  limits.soft_limit = 2;
  limits.hard_limit = 4;
  limits.max_wait = std::chrono::milliseconds(5000);
  return limits;
}

TEST(BufferPoolTest, BuffersAreZeroedAlignedAndOfTheAdvertisedSize) {
  BufferPool pool(SmallLimits());
  std::uint8_t* buffer = pool.Acquire();
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer) % 8, 0u);
  EXPECT_EQ(pool.buffer_bytes(), 64u * 1024);
  EXPECT_TRUE(
      std::all_of(buffer, buffer + pool.buffer_bytes(), [](std::uint8_t b) { return b == 0; }));
  EXPECT_TRUE(pool.Owns(buffer));
}

TEST(BufferPoolTest, ReleasedBuffersAreZeroedAndReused) {
  BufferPool pool(SmallLimits());
  std::uint8_t* buffer = pool.Acquire();
  std::memset(buffer, 0xAB, 1000);
  ASSERT_TRUE(pool.MarkCompleted(buffer));
  EXPECT_EQ(pool.stats().awaiting_release, 1u);
  pool.Release(buffer, 1000);
  EXPECT_EQ(pool.stats().awaiting_release, 0u);
  std::uint8_t* again = pool.Acquire();
  EXPECT_EQ(again, buffer) << "a released buffer is recycled, not a new one mapped";
  EXPECT_TRUE(std::all_of(again, again + 2000, [](std::uint8_t b) { return b == 0; }));
  EXPECT_EQ(pool.stats().allocated, 1u);
}

TEST(BufferPoolTest, ForeignBuffersAreNotOurs) {
  BufferPool pool(SmallLimits());
  std::uint8_t foreign[64];
  EXPECT_FALSE(pool.Owns(foreign));
  EXPECT_FALSE(pool.MarkCompleted(foreign));
}

TEST(BufferPoolTest, AtTheSoftLimitARequestWaitsForTheWriter) {
  BufferPool pool(SmallLimits());
  std::uint8_t* a = pool.Acquire();
  std::uint8_t* b = pool.Acquire();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(pool.MarkCompleted(a));  // the writer holds `a`
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    pool.Release(a, 10);
  });
  const auto started = Clock::now();
  std::uint8_t* c = pool.Acquire();
  const auto waited = Clock::now() - started;
  writer.join();
  EXPECT_EQ(c, a) << "the request got the buffer the writer released";
  EXPECT_GE(waited, std::chrono::milliseconds(100));
  BufferPoolStats stats = pool.stats();
  EXPECT_EQ(stats.allocated, 2u) << "no growth while waiting made sense";
  EXPECT_EQ(stats.waits, 1u);
  EXPECT_EQ(stats.grown_past_soft_limit, 0u);
}

TEST(BufferPoolTest, GrowsInsteadOfWaitingWhenNothingCanComeBack) {
  BufferPool pool(SmallLimits());
  pool.Acquire();
  pool.Acquire();  // both held by CUPTI (per-thread buffers), none with the writer
  const auto started = Clock::now();
  std::uint8_t* c = pool.Acquire();
  EXPECT_NE(c, nullptr);
  EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(1000)) << "no pointless wait";
  EXPECT_EQ(pool.stats().grown_past_soft_limit, 1u);
  EXPECT_EQ(pool.stats().allocated, 3u);
}

TEST(BufferPoolTest, RefusesAtTheHardLimit) {
  BufferPool pool(SmallLimits());
  for (int i = 0; i < 4; ++i) ASSERT_NE(pool.Acquire(), nullptr);
  EXPECT_EQ(pool.Acquire(), nullptr);
  EXPECT_EQ(pool.stats().refused, 1u);
  EXPECT_EQ(pool.stats().allocated, 4u);
}

TEST(BufferPoolTest, AWaitIsBoundedEvenIfTheWriterNeverReleases) {
  BufferPoolLimits limits = SmallLimits();
  limits.max_wait = std::chrono::milliseconds(200);
  BufferPool pool(limits);
  std::uint8_t* a = pool.Acquire();
  pool.Acquire();
  ASSERT_TRUE(pool.MarkCompleted(a));  // with a writer that is stuck
  const auto started = Clock::now();
  std::uint8_t* c = pool.Acquire();
  const auto waited = Clock::now() - started;
  EXPECT_NE(c, nullptr);
  EXPECT_GE(waited, std::chrono::milliseconds(150));
  EXPECT_LT(waited, std::chrono::milliseconds(3000));
  EXPECT_EQ(pool.stats().grown_past_soft_limit, 1u);
}

}  // namespace
}  // namespace gpuscope::inject
