// Turns a report whose process has ended into one self-contained, finalized file.
//
// The launcher runs it for every report after the traced program exits, however it ended:
// after kill -9 or a crash the report is a database plus a -wal file holding every commit
// up to the last flush. Finalizing recovers and checkpoints that WAL into the database,
// leaves journal_mode=DELETE (no -wal/-shm companions) and sets meta.finalized = '1'.
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::store {

// Idempotent: finalizing a finalized report succeeds and changes nothing that matters.
// Refuses files that are not gpuscope reports (it never modifies a foreign database) and
// reports that another process still has open.
Status FinalizeReport(const std::string& path);

}  // namespace gpuscope::store
