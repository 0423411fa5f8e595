// The readers of one report, each lent to one thread at a time.
//
// A report reader is used by one thread at a time (store/report_reader.h). One reader behind
// a mutex held for a whole answer let one slow answer (a summary of a report with a 10 MB
// kernel name) stall every other request on that report, /api/reports included. Instead,
// each answer borrows a reader of its own: an idle one, or one opened for it when all are
// lent. The pool's lock guards only its list of idle readers, never a read.
//
// Readers are opened as they are needed and kept, so there are at most as many as answers
// were ever computed at once on the report (the server's workers bound that).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::viewer {

class ReaderPool {
 public:
  // `first`: the reader the report was opened and indexed with; the pool opens the others
  // from its path.
  explicit ReaderPool(std::unique_ptr<store::ReportReader> first);
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;

  // What Open() loaded and never changes afterwards (path, process, devices, counters):
  // any thread may read it while the reader is lent. Nothing that queries the file.
  const store::ReportReader& described() const { return *described_; }

  // A reader lent until the lease ends.
  class Lease {
   public:
    Lease(ReaderPool* pool, std::unique_ptr<store::ReportReader> reader)
        : pool_(pool), reader_(std::move(reader)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    const store::ReportReader& operator*() const { return *reader_; }
    const store::ReportReader* get() const { return reader_.get(); }

   private:
    ReaderPool* pool_;
    std::unique_ptr<store::ReportReader> reader_;
  };

  // An idle reader, or a newly opened one; an error when the report can no longer be opened.
  StatusOr<Lease> Borrow();

 private:
  const store::ReportReader* described_;
  std::mutex mutex_;  // guards idle_ only
  std::vector<std::unique_ptr<store::ReportReader>> idle_;
};

}  // namespace gpuscope::viewer
