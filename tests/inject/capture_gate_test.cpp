// The stream-capture gate of gpuscope's own GPU work (inject/capture_gate.h): the calls as the
// CUPTI callbacks report them (a runtime call and the driver call inside it, failed begins,
// invalidated captures, ends on streams that never captured), and the ordering against a
// sample in progress on another thread.
#include "inject/capture_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace gpuscope::inject {
namespace {

constexpr std::uintptr_t kStreamA = 0x7f00'0000'1000;
constexpr std::uintptr_t kStreamB = 0x7f00'0000'2000;

bool Capturing(CaptureGate& gate) {
  CaptureGate::Hold hold(gate);
  return hold.capturing();
}

TEST(CaptureGate, NothingCapturedAtFirst) {
  CaptureGate gate;
  EXPECT_FALSE(Capturing(gate));
  EXPECT_EQ(gate.active(), 0u);
}

// cudaStreamBeginCapture enters, cuStreamBeginCapture_v2 enters and returns inside it, then
// the runtime call returns: one capture, from the runtime call's entry on.
TEST(CaptureGate, RuntimeCallAndItsDriverCallAreOneCapture) {
  CaptureGate gate;
  gate.BeginEntered();  // cudaStreamBeginCapture
  EXPECT_TRUE(Capturing(gate)) << "counted from the entry, before CUDA starts the capture";
  gate.BeginEntered();  // cuStreamBeginCapture_v2 inside it
  gate.BeginReturned(kStreamA, true);
  gate.BeginReturned(kStreamA, true);
  EXPECT_EQ(gate.active(), 1u);
  gate.EndReturned(kStreamA);  // cuStreamEndCapture inside cudaStreamEndCapture
  gate.EndReturned(kStreamA);  // cudaStreamEndCapture
  EXPECT_FALSE(Capturing(gate));
}

TEST(CaptureGate, FailedBeginCountsNoMore) {
  CaptureGate gate;
  gate.BeginEntered();
  gate.BeginReturned(kStreamA, false);  // e.g. cudaErrorStreamCaptureUnsupported
  EXPECT_FALSE(Capturing(gate));
}

TEST(CaptureGate, CapturesOnTwoStreamsEndIndependently) {
  CaptureGate gate;
  gate.BeginEntered();
  gate.BeginReturned(kStreamA, true);
  gate.BeginEntered();
  gate.BeginReturned(kStreamB, true);
  gate.EndReturned(kStreamA);
  EXPECT_TRUE(Capturing(gate)) << "B still captures";
  gate.EndReturned(kStreamB);
  EXPECT_FALSE(Capturing(gate));
}

// An end on a stream that was not capturing (cudaErrorIllegalState) must not end another
// stream's capture; an invalidated capture's end (an error too) ends it.
TEST(CaptureGate, EndOnAnotherStreamChangesNothing) {
  CaptureGate gate;
  gate.BeginEntered();
  gate.BeginReturned(kStreamA, true);
  gate.EndReturned(kStreamB);
  EXPECT_TRUE(Capturing(gate));
  gate.EndReturned(kStreamA);
  gate.EndReturned(kStreamA);
  EXPECT_FALSE(Capturing(gate));
  EXPECT_EQ(gate.active(), 0u);
}

// More captures at once than the gate tracks: GPU samples stay off for good (the safe side).
TEST(CaptureGate, TooManyStreamsKeepsTheGateShut) {
  CaptureGate gate;
  for (std::uintptr_t s = 1; s <= 65; ++s) {
    gate.BeginEntered();
    gate.BeginReturned(s * 0x100, true);
  }
  for (std::uintptr_t s = 1; s <= 65; ++s) gate.EndReturned(s * 0x100);
  EXPECT_TRUE(Capturing(gate));
}

// A begin call that enters while a sample holds the gate waits until the sample is over, so
// the sample's GPU calls never overlap a capture; a sample that starts after the entry sees
// it and skips.
TEST(CaptureGate, BeginWaitsForTheSampleInProgress) {
  CaptureGate gate;
  std::atomic<bool> sample_over{false};
  std::atomic<bool> begin_saw_sample_over{false};
  std::thread begin;
  {
    CaptureGate::Hold hold(gate);
    ASSERT_FALSE(hold.capturing());
    begin = std::thread([&] {
      gate.BeginEntered();
      begin_saw_sample_over = sample_over.load();
      gate.BeginReturned(kStreamA, true);
    });
    // Until the begin call is counted (it is, before it waits).
    while (gate.active() == 0) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    sample_over = true;
  }
  begin.join();
  EXPECT_TRUE(begin_saw_sample_over) << "the begin call went on while the sample held the gate";
  EXPECT_TRUE(Capturing(gate));
}

// The wait is bounded: a sample stuck past kBeginWait does not hold the program's call.
TEST(CaptureGate, BeginWaitIsBounded) {
  CaptureGate gate;
  CaptureGate::Hold hold(gate);
  const auto start = std::chrono::steady_clock::now();
  gate.BeginEntered();
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, CaptureGate::kBeginWait);
  EXPECT_LT(waited, CaptureGate::kBeginWait + std::chrono::seconds(2));
  gate.BeginReturned(kStreamA, true);
  EXPECT_TRUE(hold.capturing());
}

}  // namespace
}  // namespace gpuscope::inject
