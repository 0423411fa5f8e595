// Evaluations this process made of a report it could not write (a read-only file or
// directory, a full disk): the readers show them all the same. The report is a cache of its
// own evaluation, not the only place the results may live: kept here, in memory, for the rest
// of the process, each ReportReader opened on that file afterwards reads them as if they were
// stored (profile_store.h, analysis/source's pages). Keyed by the file itself (device, inode,
// size, modification and change times), so that a report changed since, or another file at the
// same path, gets none. Thread-safe (the viewer opens readers on its workers).
#pragma once

#include <memory>
#include <string>

#include "store/evaluation_writer.h"

namespace gpuscope::store {

// Keeps `rows`, the evaluation of the report at `path` that could not be stored, in place of
// any kept before. Nothing is kept when `path` cannot be examined.
void KeepUnsavedEvaluation(const std::string& path, EvaluationRows rows);

// What was kept for the file now at `path`, or null.
std::shared_ptr<const EvaluationRows> UnsavedEvaluation(const std::string& path);

}  // namespace gpuscope::store
