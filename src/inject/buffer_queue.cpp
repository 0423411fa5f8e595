#include "inject/buffer_queue.h"

namespace gpuscope::inject {

BufferQueue::BufferQueue(std::size_t capacity) : ring_(capacity == 0 ? 1 : capacity) {}

bool BufferQueue::Push(CompletedBuffer buffer) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || count_ == ring_.size()) return false;
    ring_[(head_ + count_) % ring_.size()] = buffer;
    ++count_;
    ++pushed_;
  }
  work_available_.notify_one();
  return true;
}

std::uint64_t BufferQueue::RequestCommit() {
  std::uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ticket = ++requested_ticket_;
    requested_at_push_ = pushed_;
    if (closed_) committed_ticket_ = requested_ticket_;
  }
  work_available_.notify_one();
  committed_.notify_all();
  return ticket;
}

bool BufferQueue::WaitForCommit(std::uint64_t ticket, Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return committed_.wait_until(lock, deadline, [&] { return committed_ticket_ >= ticket; });
}

void BufferQueue::RequestStop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  work_available_.notify_one();
}

std::vector<CompletedBuffer> BufferQueue::CloseAfterWriterExit() {
  std::vector<CompletedBuffer> left;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    committed_ticket_ = requested_ticket_;
    while (count_ > 0) {
      left.push_back(ring_[head_]);
      head_ = (head_ + 1) % ring_.size();
      --count_;
    }
  }
  committed_.notify_all();
  return left;
}

bool BufferQueue::CommitDueLocked() const {
  return requested_ticket_ > committed_ticket_ && processed_ >= requested_at_push_;
}

BufferQueue::Work BufferQueue::WaitForWork(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  work_available_.wait_until(lock, deadline,
                             [&] { return count_ > 0 || CommitDueLocked() || stop_requested_; });
  Work work;
  if (count_ > 0) {
    work.buffer = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
    --count_;
  } else {
    work.stop = stop_requested_;
  }
  return work;
}

void BufferQueue::MarkProcessed() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++processed_;
}

std::uint64_t BufferQueue::DueCommitTicket() {
  std::lock_guard<std::mutex> lock(mutex_);
  return CommitDueLocked() ? requested_ticket_ : 0;
}

void BufferQueue::MarkCommitted(std::uint64_t ticket) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ticket > committed_ticket_) committed_ticket_ = ticket;
  }
  committed_.notify_all();
}

std::size_t BufferQueue::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return count_;
}

std::uint64_t BufferQueue::processed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return processed_;
}

}  // namespace gpuscope::inject
