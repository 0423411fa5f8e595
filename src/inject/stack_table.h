// Distinct host call stacks (`--backtrace`): each stack is stored once and named by a small id;
// API calls refer to it by that id. A stack is known by its frames (native return addresses,
// or Python code objects with their lines), hashed; equal hashes are compared frame by frame,
// so a collision never merges two stacks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "inject/python_frames.h"
#include "model/records.h"

namespace gpuscope::inject {

// One captured frame: a native return address, or a Python code object and line.
struct CapturedFrame {
  std::uint64_t address = 0;         // native
  const PythonCode* code = nullptr;  // Python (owned by the PythonFrameWalker's cache)
  std::uint32_t line = 0;            // Python

  bool operator==(const CapturedFrame&) const = default;
};

// A stack the writer has not stored yet, with its frames as the report stores them (the
// views point into the Python code cache, which lives as long as the process).
struct NewStack {
  std::uint32_t id = 0;
  std::vector<model::StackFrame> frames;
};

class StackTable {
 public:
  explicit StackTable(std::size_t max_stacks) : max_stacks_(max_stacks) {}

  // The id of the stack made of `frames` (innermost first), from 1; a stack seen for the
  // first time is also queued for TakeNew. 0 when the table is full (the caller counts it).
  // Any thread.
  std::uint32_t Intern(std::span<const CapturedFrame> frames);

  // The stacks seen first since the last call, in id order.
  std::vector<NewStack> TakeNew();

  std::size_t size() const;

 private:
  static std::uint64_t Hash(std::span<const CapturedFrame> frames);

  const std::size_t max_stacks_;
  mutable std::mutex mutex_;
  std::vector<std::vector<CapturedFrame>> stacks_;  // index id - 1
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
  std::vector<std::uint32_t> unwritten_;
};

}  // namespace gpuscope::inject
