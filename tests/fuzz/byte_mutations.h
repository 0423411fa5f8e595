// Byte-level damage to a report file, the way disks, copies and careless tools damage files:
// flipped bits, bytes set to boundary values, big-endian integers of SQLite's page and cell
// headers set to extremes, truncation, pages zeroed or copied over others, garbage appended.
// Most offsets fall where SQLite keeps structure (the file header, the start of each b-tree
// page), because damage in a string's bytes is rarely interesting.
#pragma once

#include <string>

#include "random_source.h"

namespace gpuscope::fuzz {

// Applies one byte-level mutation to `bytes` (a whole SQLite file) and says what it did, in
// words that name the offsets (for the failure report).
std::string MutateBytes(std::string& bytes, RandomSource& random);

// The same kinds of damage to an opaque blob (a counter-data image), at any offset.
std::string MutateBlob(std::string& bytes, RandomSource& random);

}  // namespace gpuscope::fuzz
