// How many worker threads decode a report's rows while a scan streams them
// (chunked_row_reader.h). The store reads no environment: the `gpuscope` command passes the
// user's GPUSCOPE_READER_THREADS through SetReaderThreads.
#pragma once

#include <optional>

namespace gpuscope::store {

// Beyond 8 workers the gain flattens: on the H200 host 20 million rows took 2.35 s with 4,
// 1.35 s with 8 and 1.31 s with 12.
inline constexpr unsigned kMaxWorkers = 8;

// Worker threads a scan may use: all cores but the caller's, at most kMaxWorkers, unless the
// program chose a number with SetReaderThreads (0: read on the calling thread).
unsigned WorkerThreads();

// For every reader of this process from now on; nullopt: the default above.
void SetReaderThreads(std::optional<unsigned> threads);

}  // namespace gpuscope::store
