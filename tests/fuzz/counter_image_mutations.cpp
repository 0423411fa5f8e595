#include "counter_image_mutations.h"

#include <sqlite3.h>
#include <zlib.h>

#include <cstdint>

#include "byte_mutations.h"
#include "mutant_database.h"

namespace gpuscope::fuzz {
namespace {

struct Image {
  std::int64_t id = 0;
  std::string bytes;  // decompressed
};

// The image of the `pick`-th profiled kernel with counter data, decompressed.
std::optional<Image> ReadImage(sqlite3* db, RandomSource& random) {
  sqlite3_stmt* count = nullptr;
  std::int64_t images = 0;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM profiled_kernels WHERE counter_data IS NOT NULL",
                         -1, &count, nullptr) == SQLITE_OK &&
      sqlite3_step(count) == SQLITE_ROW) {
    images = sqlite3_column_int64(count, 0);
  }
  sqlite3_finalize(count);
  if (images <= 0) return std::nullopt;
  sqlite3_stmt* read = nullptr;
  std::optional<Image> image;
  if (sqlite3_prepare_v2(db,
                         "SELECT id, counter_data, counter_data_size FROM profiled_kernels WHERE "
                         "counter_data IS NOT NULL ORDER BY id LIMIT 1 OFFSET ?",
                         -1, &read, nullptr) == SQLITE_OK) {
    sqlite3_bind_int64(read, 1, static_cast<std::int64_t>(random.Below(static_cast<std::uint64_t>(images))));
    if (sqlite3_step(read) == SQLITE_ROW) {
      std::int64_t size = sqlite3_column_int64(read, 2);
      const void* blob = sqlite3_column_blob(read, 1);
      int blob_size = sqlite3_column_bytes(read, 1);
      std::string bytes(size > 0 && size < (1 << 30) ? static_cast<std::size_t>(size) : 0, '\0');
      uLongf length = bytes.size();
      if (blob != nullptr &&
          uncompress(reinterpret_cast<Bytef*>(bytes.data()), &length,
                     static_cast<const Bytef*>(blob), static_cast<uLong>(blob_size)) == Z_OK) {
        bytes.resize(length);
        image = Image{sqlite3_column_int64(read, 0), std::move(bytes)};
      }
    }
  }
  sqlite3_finalize(read);
  return image;
}

bool WriteImage(sqlite3* db, const Image& image) {
  std::string compressed(compressBound(image.bytes.size()), '\0');
  uLongf length = compressed.size();
  if (compress2(reinterpret_cast<Bytef*>(compressed.data()), &length,
                reinterpret_cast<const Bytef*>(image.bytes.data()), image.bytes.size(),
                Z_BEST_SPEED) != Z_OK) {
    return false;
  }
  sqlite3_stmt* update = nullptr;
  bool written =
      sqlite3_exec(db, "BEGIN; DELETE FROM kernel_metrics", nullptr, nullptr, nullptr) == SQLITE_OK &&
      sqlite3_prepare_v2(db,
                         "UPDATE profiled_kernels SET counter_data = ?, counter_data_size = ? "
                         "WHERE id = ?",
                         -1, &update, nullptr) == SQLITE_OK;
  if (written) {
    sqlite3_bind_blob(update, 1, compressed.data(), static_cast<int>(length), SQLITE_STATIC);
    sqlite3_bind_int64(update, 2, static_cast<std::int64_t>(image.bytes.size()));
    sqlite3_bind_int64(update, 3, image.id);
    written = sqlite3_step(update) == SQLITE_DONE;
  }
  sqlite3_finalize(update);
  written = written && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
  if (!written) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  return written;
}

}  // namespace

std::optional<std::string> MutateCounterImage(const std::string& path, RandomSource& random) {
  MutantDatabase db(path);
  if (db.get() == nullptr) return std::nullopt;
  std::optional<Image> image = ReadImage(db.get(), random);
  if (!image) return std::nullopt;
  std::string what = MutateBlob(image->bytes, random);
  if (!WriteImage(db.get(), *image)) return std::nullopt;
  return "counter image of profiled kernel " + std::to_string(image->id) + ": " + what +
         " (kernel_metrics emptied)";
}

}  // namespace gpuscope::fuzz
