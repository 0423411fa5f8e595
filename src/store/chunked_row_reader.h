// Reads the rows of one event table in insertion (rowid) order, decoding them on worker
// threads.
//
// Decoding a row costs SQLite's virtual machine one step and one column fetch per column,
// which alone would take `gpuscope stats` well past its budget on a report of 10 million
// kernels. Rowids follow insertion order, so the table splits into chunks of consecutive
// ids that worker threads, each with its own read-only connection,
// decode into reusable row buffers while the calling thread hands finished ranges, in
// order, to the consumer.
// Memory stays bounded: workers run at most a ring of ranges ahead of the consumer.
//
// Chunks are found by keyset paging (see Bounds), not computed from the id range.
// Small tables (and machines with one core) are read on the calling thread's connection.
// Internal to the reader.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "store/hostile_file_guard.h"
#include "store/reader_threads.h"
#include "store/sqlite_util.h"
#include "util/status.h"

namespace gpuscope::store {

inline Status ReadFailure(sqlite3* db, const std::string& path) {
  return ReportReadError(db, "cannot read report", path);
}

template <typename Row>
class ChunkedRowReader {
 public:
  // decode(stmt, row) fills `row` from the current result row and returns false when the
  // row is damaged (then `damaged` is the error). `sql` selects rows with ?1 <= id <= ?2,
  // ordered by id; its first column is the relative start time (never NULL) and its last
  // column the id. `table` names the table (for the chunk boundaries). consume(start, id,
  // row) returns false to stop. last_id < first_id: no rows.
  template <typename Decode>
  static Status Read(sqlite3* db, const std::string& path, const std::string& table,
                     const std::string& sql, std::int64_t first_id, std::int64_t last_id,
                     Decode& decode, const Status& damaged, const auto& consume);

 private:
  static constexpr std::int64_t kRowsPerChunk = 16384;
  static constexpr std::uint64_t kSingleThreadedRows = 4 * kRowsPerChunk;

  struct Chunk {
    std::int64_t index = -1;  // which chunk the buffers hold; -1: none yet
    bool last = false;        // no rows after this chunk
    std::size_t count = 0;    // rows in use (the vectors keep their capacity)
    std::vector<Row> rows;
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> ids;
    Status status;
  };

  // Keyset paging: a chunk is the kRowsPerChunk ids from `first` on, whatever their values,
  // so ids need not be dense (they may be anything SQLite allows, up to INT64_MAX) and
  // there are never more chunks than rows. Computing ids from a range (first + c * n)
  // instead overflowed, and sparse ids made millions of empty chunks. Stepping over the
  // ids of a chunk (OFFSET, no column is decoded) costs little next to decoding its rows.
  struct Bounds {
    std::int64_t last = 0;  // the chunk is [first, last]
    bool final = false;     // the table has no id after `last`
    bool ok = true;
  };
  static std::string BoundarySql(const std::string& table) {
    return "SELECT id FROM \"" + table + "\" WHERE id >= ?1 ORDER BY id LIMIT 1 OFFSET " +
           std::to_string(kRowsPerChunk - 1);
  }
  static Bounds Boundary(sqlite3_stmt* stmt, std::int64_t first) {
    Bounds bounds;
    sqlite3_bind_int64(stmt, 1, first);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      bounds.last = sqlite3_column_int64(stmt, 0);
      bounds.final = bounds.last == std::numeric_limits<std::int64_t>::max();
    } else {
      bounds.last = std::numeric_limits<std::int64_t>::max();
      bounds.final = true;
      bounds.ok = rc == SQLITE_DONE;
    }
    sqlite3_reset(stmt);
    return bounds;
  }

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
Status ChunkedRowReader<Row>::Read(sqlite3* db, const std::string& path, const std::string& table,
                                   const std::string& sql, std::int64_t first_id,
                                   std::int64_t last_id, Decode& decode, const Status& damaged,
                                   const auto& consume) {
  if (last_id < first_id) return Status();
  // At most this many rows (in unsigned arithmetic, which cannot overflow here).
  const std::uint64_t span =
      static_cast<std::uint64_t>(last_id) - static_cast<std::uint64_t>(first_id);
  unsigned workers = std::min(WorkerThreads(), kMaxWorkers);
  const std::string boundary_sql = BoundarySql(table);

  auto read_on_this_thread = [&]() -> Status {
    StatusOr<Statement> stmt = Statement::Prepare(db, sql);
    if (!stmt.ok()) return ReadFailure(db, path);
    StatusOr<Statement> boundary = Statement::Prepare(db, boundary_sql);
    if (!boundary.ok()) return ReadFailure(db, path);
    Chunk chunk;
    for (std::int64_t first = first_id;;) {
      Bounds bounds = Boundary(boundary->get(), first);
      if (!bounds.ok) return ReadFailure(db, path);
      if (!Fill(db, stmt->get(), path, first, bounds.last, decode, damaged, chunk)) {
        return chunk.status;
      }
      for (std::size_t i = 0; i < chunk.count; ++i) {
        if (!consume(chunk.starts[i], chunk.ids[i], chunk.rows[i])) return Status();
      }
      if (bounds.final) return Status();
      first = bounds.last + 1;
    }
  };
  if (span < kSingleThreadedRows || workers == 0) return read_on_this_thread();

  // Workers claim chunks in order (finding where each ends, under `claim_mutex`) and fill
  // ring slots; slot c % ring holds chunk c, and a worker waits before reusing a slot whose
  // previous chunk the consumer has not finished.
  const std::int64_t ring = 2 * static_cast<std::int64_t>(workers) + 2;
  std::vector<Chunk> slots(static_cast<std::size_t>(ring));
  std::mutex mutex;
  std::condition_variable changed;
  std::int64_t consumed = 0;  // chunks the consumer is done with
  bool stop = false;
  std::mutex claim_mutex;      // guards the three below
  std::int64_t next_chunk = 0;  // the next chunk a worker claims
  std::int64_t next_first = first_id;
  bool claimed_all = false;

  auto work = [&]() {
    sqlite3* own = nullptr;
    QueryLimit limit;
    Status opened;
    Statement stmt, boundary;
    if (sqlite3_open_v2(path.c_str(), &own, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      opened = ReadFailure(own, path);
    } else if (Status hardened = HardenReadConnection(own, path, limit); !hardened.ok()) {
      opened = hardened;
    } else if (StatusOr<Statement> prepared = Statement::Prepare(own, sql); prepared.ok()) {
      stmt = std::move(prepared.value());
      if (StatusOr<Statement> ends = Statement::Prepare(own, boundary_sql); ends.ok()) {
        boundary = std::move(ends.value());
      } else {
        opened = ReadFailure(own, path);
      }
    } else {
      opened = ReadFailure(own, path);
    }
    for (;;) {
      std::unique_lock claim(claim_mutex);
      if (claimed_all) break;
      std::int64_t c = next_chunk++;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || c < consumed + ring; });
        if (stop) break;
      }
      std::int64_t first = next_first;
      Bounds bounds{std::numeric_limits<std::int64_t>::max(), true, false};
      if (opened.ok()) bounds = Boundary(boundary.get(), first);
      // Whether this chunk is the last one, taken while the claim is held: once it is released,
      // another worker may claim the final chunk and set claimed_all for its own.
      const bool last_chunk = bounds.final || !bounds.ok;
      claimed_all = last_chunk;
      if (!bounds.final) next_first = bounds.last + 1;
      claim.unlock();

      Chunk& chunk = slots[static_cast<std::size_t>(c % ring)];
      chunk.last = last_chunk;
      chunk.status = Status();
      if (!opened.ok()) {
        chunk.count = 0;
        chunk.status = opened;
      } else if (!bounds.ok) {
        chunk.count = 0;
        chunk.status = ReadFailure(own, path);
      } else {
        Fill(own, stmt.get(), path, first, bounds.last, decode, damaged, chunk);
      }
      std::lock_guard lock(mutex);
      chunk.index = c;
      changed.notify_all();
    }
    stmt.Reset();
    boundary.Reset();
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
  for (std::int64_t c = 0;; ++c) {
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
    if (!go_on || chunk.last) break;
    std::lock_guard lock(mutex);
    consumed = c + 1;
    changed.notify_all();
  }
  return result;
}

}  // namespace gpuscope::store
