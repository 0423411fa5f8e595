#include "store/reader_threads.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace gpuscope::store {
namespace {

// Chosen by the program before it reads (SetReaderThreads); -1: not chosen.
std::atomic<long long> g_reader_threads{-1};

}  // namespace

void SetReaderThreads(std::optional<unsigned> threads) {
  g_reader_threads.store(threads ? static_cast<long long>(*threads) : -1);
}

unsigned WorkerThreads() {
  if (const long long chosen = g_reader_threads.load(); chosen >= 0) {
    return static_cast<unsigned>(chosen);
  }
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::min(cores - 1, kMaxWorkers);
}

}  // namespace gpuscope::store
