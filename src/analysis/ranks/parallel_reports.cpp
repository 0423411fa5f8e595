#include "analysis/ranks/parallel_reports.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace gpuscope::analysis::ranks {

Status ForEachReportInParallel(std::size_t count, const std::function<Status(std::size_t)>& task,
                               std::size_t threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, count);
  std::vector<Status> results(count);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) results[i] = task(i);
  };
  std::vector<std::thread> workers;
  workers.reserve(threads > 0 ? threads - 1 : 0);
  for (std::size_t t = 1; t < threads; ++t) {
    // Out of threads: the workers started (and this one) do all the tasks.
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  if (threads > 0) work();  // the calling thread is one of the workers
  for (std::thread& worker : workers) worker.join();
  for (Status& result : results) {
    if (!result.ok()) return result;
  }
  return {};
}

}  // namespace gpuscope::analysis::ranks
