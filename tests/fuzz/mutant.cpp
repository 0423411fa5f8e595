#include "mutant.h"

#include <fstream>

#include "byte_mutations.h"
#include "child_process.h"
#include "counter_image_mutations.h"
#include "sql_mutations.h"

namespace gpuscope::fuzz {
namespace {

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

std::vector<std::string> WriteMutant(const std::string& seed_path, const std::string& path,
                                     RandomSource& random) {
  std::vector<std::string> steps;
  WriteFile(path, ReadWholeFile(seed_path));
  // One mutant in eight is byte damage alone, one in eight SQL and then bytes, the rest SQL
  // (most byte damage is refused on open, by SQLite or by the reader's integrity check).
  std::uint64_t plan = random.Below(8);
  if (plan != 0) {
    std::uint64_t count = 1 + random.Below(3);
    for (std::uint64_t i = 0; i < count; ++i) {
      std::optional<std::string> sql = MutateSql(path, random);
      if (sql) steps.push_back("sql: " + *sql);
    }
    // Profile reports: one in two also gets a damaged counter-data image.
    if (random.OneIn(2)) {
      std::optional<std::string> image = MutateCounterImage(path, random);
      if (image) steps.push_back("image: " + *image);
    }
  }
  if (plan <= 1) {
    std::string bytes = ReadWholeFile(path);
    std::uint64_t count = 1 + random.Below(2);
    for (std::uint64_t i = 0; i < count; ++i) steps.push_back("bytes: " + MutateBytes(bytes, random));
    WriteFile(path, bytes);
  }
  return steps;
}

}  // namespace gpuscope::fuzz
