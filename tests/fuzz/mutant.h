// One mutant of a recorded report: the seed's bytes copied, then SQL mutations (most mutants,
// sometimes with a damaged counter-data image), byte-level damage (some), or both in that order. Shared by the bounded mutation test and the
// libFuzzer target, so both explore the same kinds of damage.
#pragma once

#include <string>
#include <vector>

#include "random_source.h"

namespace gpuscope::fuzz {

// Writes the mutant of the report at `seed_path` to `path` and returns what was done, one
// entry per mutation ("sql: UPDATE ...", "image: ...", "bytes: flip bits at ...").
std::vector<std::string> WriteMutant(const std::string& seed_path, const std::string& path,
                                     RandomSource& random);

}  // namespace gpuscope::fuzz
