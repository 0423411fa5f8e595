// Reads the rows of one event table in insertion (rowid) order, decoding them on worker
// threads.
//
// Decoding a row costs SQLite's virtual machine one step and one column fetch per column,
// which alone would take `gpuscope stats` well past its budget on a report of 10 million
// kernels. Rowids follow insertion order (and are dense in our reports), so the table
// splits into ranges of ids that worker threads, each with its own read-only connection,
// decode into reusable row buffers while the calling thread hands finished ranges, in
// order, to the consumer.
// Memory stays bounded: workers run at most a ring of ranges ahead of the consumer.
//
// Small tables (and machines with one core) are read on the calling thread's connection.
// Internal to the reader.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "store/sqlite_util.h"
#include "util/status.h"

namespace gpuscope::store {

// Worker threads a scan may use: all cores but the caller's, at most kMaxWorkers; the
// environment variable GPUSCOPE_READER_THREADS overrides it (0: read on the calling thread).
unsigned WorkerThreads();

inline Status ReadFailure(sqlite3* db, const std::string& path) {
  return ReportReadError(db, "cannot read report", path);
}

// Beyond 8 workers the gain flattens: on the H200 host 20 million rows took 2.35 s with 4,
// 1.35 s with 8 and 1.31 s with 12.
inline constexpr unsigned kMaxWorkers = 8;

template <typename Row>
class ChunkedRowReader {
 public:
  // decode(stmt, row) fills `row` from the current result row and returns false when the
  // row is damaged (then `damaged` is the error). `sql` selects rows with ?1 <= id <= ?2,
  // ordered by id; its first column is the relative start time (never NULL) and its last
  // column the id. consume(start, id, row) returns false to stop. last_id < first_id: no rows.
  template <typename Decode>
  static Status Read(sqlite3* db, const std::string& path, const std::string& sql,
                     std::int64_t first_id, std::int64_t last_id, Decode& decode,
                     const Status& damaged, const auto& consume);

 private:
  static constexpr std::int64_t kRowsPerChunk = 16384;
  static constexpr std::int64_t kSingleThreadedRows = 4 * kRowsPerChunk;

  struct Chunk {
    std::int64_t index = -1;  // which chunk the buffers hold; -1: none yet
    std::size_t count = 0;    // rows in use (the vectors keep their capacity)
    std::vector<Row> rows;
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> ids;
    Status status;
  };

  // Decodes ids [first, last] with `stmt` (bound and stepped here) into `chunk`.
  template <typename Decode>
  static bool Fill(sqlite3* db, sqlite3_stmt* stmt, const std::string& path, std::int64_t first,
                   std::int64_t last, Decode& decode, const Status& damaged, Chunk& chunk) {
    chunk.count = 0;
    sqlite3_bind_int64(stmt, 1, first);
    sqlite3_bind_int64(stmt, 2, last);
    const int id_column = sqlite3_column_count(stmt) - 1;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (chunk.count == chunk.rows.size()) {
        chunk.rows.emplace_back();
        chunk.starts.emplace_back();
        chunk.ids.emplace_back();
      }
      chunk.starts[chunk.count] = sqlite3_column_int64(stmt, 0);
      chunk.ids[chunk.count] = sqlite3_column_int64(stmt, id_column);
      if (!decode(stmt, chunk.rows[chunk.count])) {
        chunk.status = damaged;
        sqlite3_reset(stmt);
        return false;
      }
      ++chunk.count;
    }
    if (rc != SQLITE_DONE) {
      chunk.status = ReadFailure(db, path);
      sqlite3_reset(stmt);
      return false;
    }
    sqlite3_reset(stmt);
    return true;
  }
};

template <typename Row>
template <typename Decode>
Status ChunkedRowReader<Row>::Read(sqlite3* db, const std::string& path, const std::string& sql,
                                   std::int64_t first_id, std::int64_t last_id, Decode& decode,
                                   const Status& damaged, const auto& consume) {
  if (last_id < first_id) return Status();
  const std::int64_t rows = last_id - first_id + 1;
  const std::int64_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  unsigned workers = std::min<unsigned>(
      WorkerThreads(), static_cast<unsigned>(std::min<std::int64_t>(chunks, kMaxWorkers)));

  auto read_on_this_thread = [&]() -> Status {
    StatusOr<Statement> stmt = Statement::Prepare(db, sql);
    if (!stmt.ok()) return ReadFailure(db, path);
    Chunk chunk;
    for (std::int64_t c = 0; c < chunks; ++c) {
      std::int64_t first = first_id + c * kRowsPerChunk;
      std::int64_t last = std::min(last_id, first + kRowsPerChunk - 1);
      if (!Fill(db, stmt->get(), path, first, last, decode, damaged, chunk)) return chunk.status;
      for (std::size_t i = 0; i < chunk.count; ++i) {
        if (!consume(chunk.starts[i], chunk.ids[i], chunk.rows[i])) return Status();
      }
    }
    return Status();
  };
  if (rows <= kSingleThreadedRows || workers == 0) return read_on_this_thread();

  // Workers claim chunks in order and fill ring slots; slot c % ring holds chunk c, and a
  // worker waits before reusing a slot whose previous chunk the consumer has not finished.
  const std::int64_t ring = 2 * static_cast<std::int64_t>(workers) + 2;
  std::vector<Chunk> slots(static_cast<std::size_t>(ring));
  std::mutex mutex;
  std::condition_variable changed;
  std::int64_t next_chunk = 0;  // the next chunk a worker claims
  std::int64_t consumed = 0;    // chunks the consumer is done with
  bool stop = false;

  auto work = [&]() {
    sqlite3* own = nullptr;
    Status opened;
    Statement stmt;
    if (sqlite3_open_v2(path.c_str(), &own, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      opened = ReadFailure(own, path);
    } else if (StatusOr<Statement> prepared = Statement::Prepare(own, sql); prepared.ok()) {
      stmt = std::move(prepared.value());
    } else {
      opened = ReadFailure(own, path);
    }
    for (;;) {
      std::unique_lock lock(mutex);
      if (stop || next_chunk >= chunks) break;
      std::int64_t c = next_chunk++;
      changed.wait(lock, [&] { return stop || c < consumed + ring; });
      if (stop) break;
      lock.unlock();
      Chunk& chunk = slots[static_cast<std::size_t>(c % ring)];
      if (opened.ok()) {
        std::int64_t first = first_id + c * kRowsPerChunk;
        std::int64_t last = std::min(last_id, first + kRowsPerChunk - 1);
        Fill(own, stmt.get(), path, first, last, decode, damaged, chunk);
      } else {
        chunk.count = 0;
        chunk.status = opened;
      }
      lock.lock();
      chunk.index = c;
      changed.notify_all();
    }
    stmt.Reset();
    sqlite3_close(own);
  };

  // Stops and joins the workers however the consumer loop ends (the consumer's callback
  // may even throw).
  struct Workers {
    std::mutex& mutex;
    std::condition_variable& changed;
    bool& stop;
    std::vector<std::thread> threads;
    ~Workers() {
      {
        std::lock_guard lock(mutex);
        stop = true;
        changed.notify_all();
      }
      for (std::thread& thread : threads) thread.join();
    }
  } running{mutex, changed, stop, {}};
  running.threads.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) {
    try {
      running.threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: make do with those running
    }
  }
  if (running.threads.empty()) return read_on_this_thread();

  Status result;
  for (std::int64_t c = 0; c < chunks; ++c) {
    Chunk& chunk = slots[static_cast<std::size_t>(c % ring)];
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return chunk.index == c; });
    }
    if (!chunk.status.ok()) {
      result = chunk.status;
      break;
    }
    bool go_on = true;
    for (std::size_t i = 0; i < chunk.count && go_on; ++i) {
      go_on = consume(chunk.starts[i], chunk.ids[i], chunk.rows[i]);
    }
    if (!go_on) break;
    std::lock_guard lock(mutex);
    consumed = c + 1;
    changed.notify_all();
  }
  return result;
}

}  // namespace gpuscope::store
