#include "viewer/reader_pool.h"

namespace gpuscope::viewer {

ReaderPool::ReaderPool(std::unique_ptr<store::ReportReader> first) : described_(first.get()) {
  idle_.push_back(std::move(first));
}

ReaderPool::Lease::~Lease() {
  if (!reader_) return;  // moved from
  std::lock_guard<std::mutex> lock(pool_->mutex_);
  pool_->idle_.push_back(std::move(reader_));
}

StatusOr<ReaderPool::Lease> ReaderPool::Borrow() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<store::ReportReader> reader = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(reader));
    }
  }
  // Opened outside the lock: opening checks the file, which takes a while on a large one.
  StatusOr<std::unique_ptr<store::ReportReader>> opened =
      store::ReportReader::Open(described_->path());
  if (!opened.ok()) return opened.status();
  return Lease(this, std::move(opened.value()));
}

}  // namespace gpuscope::viewer
