#include "inject/stack_table.h"

#include <algorithm>

namespace gpuscope::inject {
namespace {

std::uint64_t Mix(std::uint64_t hash, std::uint64_t value) {
  // splitmix64's finaliser over hash ^ value: cheap, and every input bit reaches every output bit.
  std::uint64_t z = hash ^ (value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

model::StackFrame Stored(const CapturedFrame& frame) {
  model::StackFrame stored;
  if (frame.code != nullptr) {
    stored.kind = model::FrameKind::kPython;
    stored.file = frame.code->file;
    stored.function = frame.code->function;
    stored.line = frame.line;
  } else {
    stored.kind = model::FrameKind::kNative;
    stored.address = frame.address;
  }
  return stored;
}

}  // namespace

std::uint64_t StackTable::Hash(std::span<const CapturedFrame> frames) {
  std::uint64_t hash = frames.size();
  for (const CapturedFrame& frame : frames) {
    hash = Mix(hash, frame.address);
    hash = Mix(hash, reinterpret_cast<std::uintptr_t>(frame.code) ^ frame.line);
  }
  return hash;
}

std::uint32_t StackTable::Intern(std::span<const CapturedFrame> frames) {
  const std::uint64_t hash = Hash(frames);
  std::lock_guard<std::mutex> lock(mutex_);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const std::vector<CapturedFrame>& known = stacks_[it->second - 1];
    if (std::equal(known.begin(), known.end(), frames.begin(), frames.end())) return it->second;
  }
  if (stacks_.size() >= max_stacks_) return 0;
  stacks_.emplace_back(frames.begin(), frames.end());
  const auto id = static_cast<std::uint32_t>(stacks_.size());
  by_hash_.emplace(hash, id);
  unwritten_.push_back(id);
  return id;
}

std::vector<NewStack> StackTable::TakeNew() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<NewStack> taken;
  taken.reserve(unwritten_.size());
  for (std::uint32_t id : unwritten_) {
    NewStack stack{id, {}};
    for (const CapturedFrame& frame : stacks_[id - 1]) stack.frames.push_back(Stored(frame));
    taken.push_back(std::move(stack));
  }
  unwritten_.clear();
  return taken;
}

std::size_t StackTable::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stacks_.size();
}

}  // namespace gpuscope::inject
