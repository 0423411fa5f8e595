#include "byte_mutations.h"

#include <algorithm>
#include <cstdint>

namespace gpuscope::fuzz {
namespace {

// SQLite's page size, from the file header (bytes 16-17, big-endian; 1 means 65536).
std::size_t PageSize(const std::string& bytes) {
  if (bytes.size() < 100) return 4096;
  std::size_t size = (static_cast<std::uint8_t>(bytes[16]) << 8) | static_cast<std::uint8_t>(bytes[17]);
  if (size == 1) return 65536;
  if (size < 512 || (size & (size - 1)) != 0) return 4096;
  return size;
}

// An offset where SQLite keeps structure: the first 16 bytes of a page (b-tree page header:
// type, freeblock, cell count, cell content start, right child), the 100-byte file header (one
// time in ten: most damage there only makes the file "not a database"), or anywhere (one time
// in four).
std::size_t StructuralOffset(const std::string& bytes, RandomSource& random) {
  if (random.OneIn(4)) return random.Below(bytes.size());
  if (random.OneIn(10)) return random.Below(std::min<std::size_t>(100, bytes.size()));
  std::size_t page_size = PageSize(bytes);
  std::size_t pages = std::max<std::size_t>(1, bytes.size() / page_size);
  std::size_t page = random.Below(pages);
  // Page 1's b-tree header follows the file header.
  std::size_t header = page == 0 ? 100 : 0;
  return std::min(bytes.size() - 1, page * page_size + header + random.Below(16));
}

std::string Hex(std::uint64_t value) {
  static const char* digits = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 15]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

// 1 to 8 bit flips at offsets drawn by `offset`.
template <typename PickOffset>
std::string FlipBitsAt(std::string& bytes, RandomSource& random, PickOffset offset) {
  std::uint64_t flips = 1 + random.Below(8);
  std::string what = "flip bits at";
  for (std::uint64_t i = 0; i < flips; ++i) {
    std::size_t at = offset();
    unsigned bit = static_cast<unsigned>(random.Below(8));
    bytes[at] = static_cast<char>(bytes[at] ^ (1u << bit));
    // Appended piecewise: GCC 12 misreads `" " + std::to_string(...)` here (-Wrestrict).
    what += ' ';
    what += std::to_string(at);
    what += '.';
    what += std::to_string(bit);
  }
  return what;
}

std::string FlipBits(std::string& bytes, RandomSource& random) {
  return FlipBitsAt(bytes, random, [&] { return StructuralOffset(bytes, random); });
}

std::string SetBoundaryByte(std::string& bytes, RandomSource& random) {
  static const std::uint8_t kValues[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x0d};
  std::size_t offset = StructuralOffset(bytes, random);
  std::uint8_t value = random.Pick(kValues);
  bytes[offset] = static_cast<char>(value);
  return "byte " + std::to_string(offset) + " = " + Hex(value);
}

// SQLite's headers hold big-endian 16- and 32-bit integers (page size, page count, cell
// counts, cell offsets, child page numbers).
std::string SetBoundaryInteger(std::string& bytes, RandomSource& random) {
  static const std::uint32_t kValues[] = {0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0xffffu,
                                          0x10000u};
  if (bytes.size() < 4) return SetBoundaryByte(bytes, random);
  unsigned width = random.OneIn(2) ? 2 : 4;
  std::size_t offset = StructuralOffset(bytes, random);
  if (offset + width > bytes.size()) offset = bytes.size() - width;
  std::uint32_t value = random.Pick(kValues);
  for (unsigned i = 0; i < width; ++i) {
    bytes[offset + i] = static_cast<char>(value >> (8 * (width - 1 - i)));
  }
  return std::to_string(width * 8) + "-bit big-endian at " + std::to_string(offset) + " = " +
         Hex(width == 2 ? (value & 0xffff) : value);
}

std::string Truncate(std::string& bytes, RandomSource& random) {
  std::size_t page_size = PageSize(bytes);
  std::size_t length = 0;
  switch (random.Below(4)) {
    case 0: length = random.Below(bytes.size()); break;
    case 1: length = (random.Below(bytes.size() / page_size + 1)) * page_size; break;
    case 2: length = bytes.size() - 1; break;
    default: length = random.Below(std::min<std::size_t>(bytes.size(), 512)); break;
  }
  length = std::min(length, bytes.size());
  bytes.resize(length);
  return "truncate to " + std::to_string(length) + " bytes";
}

std::string ZeroPage(std::string& bytes, RandomSource& random) {
  std::size_t page_size = PageSize(bytes);
  std::size_t page = random.Below(std::max<std::size_t>(1, bytes.size() / page_size));
  std::size_t begin = page * page_size;
  std::size_t end = std::min(bytes.size(), begin + page_size);
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin),
            bytes.begin() + static_cast<std::ptrdiff_t>(end), '\0');
  return "zero page " + std::to_string(page + 1);
}

std::string CopyPage(std::string& bytes, RandomSource& random) {
  std::size_t page_size = PageSize(bytes);
  std::size_t pages = bytes.size() / page_size;
  if (pages < 2) return FlipBits(bytes, random);
  std::size_t from = random.Below(pages), to = random.Below(pages);
  std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(from * page_size), page_size,
              bytes.begin() + static_cast<std::ptrdiff_t>(to * page_size));
  return "copy page " + std::to_string(from + 1) + " over page " + std::to_string(to + 1);
}

std::string AppendGarbage(std::string& bytes, RandomSource& random) {
  std::size_t count = 1 + random.Below(2 * PageSize(bytes));
  for (std::size_t i = 0; i < count; ++i) bytes.push_back(static_cast<char>(random.Next()));
  return "append " + std::to_string(count) + " random bytes";
}

}  // namespace

std::string MutateBlob(std::string& bytes, RandomSource& random) {
  if (bytes.size() < 8) return AppendGarbage(bytes, random);
  // Three times in four in the first 4 KiB, where images keep their headers and offsets.
  auto offset = [&](std::size_t width) {
    std::size_t span = bytes.size() - width + 1;
    return random.OneIn(4) ? random.Below(span) : random.Below(std::min<std::size_t>(span, 4096));
  };
  switch (random.Below(4)) {
    case 0:
      return FlipBitsAt(bytes, random, [&] { return offset(1); });
    case 1: {
      static const std::uint64_t kValues[] = {0, ~0ull, 0x7fffffffull, 0x80000000ull,
                                              0xffffffffull, 0x7fffffffffffffffull};
      std::size_t at = offset(8) & ~std::size_t{3};
      std::uint64_t value = random.Pick(kValues);
      unsigned width = random.OneIn(2) ? 4 : 8;
      for (unsigned i = 0; i < width; ++i) bytes[at + i] = static_cast<char>(value >> (8 * i));
      return std::to_string(width * 8) + "-bit little-endian at " + std::to_string(at) + " = " +
             Hex(width == 4 ? (value & 0xffffffffu) : value);
    }
    case 2: {
      static const std::size_t kLengths[] = {0, 8, 64, 1024, 4096, 8192, 65536};
      std::size_t length = random.OneIn(3) ? random.Below(bytes.size())
                           : random.OneIn(4) ? bytes.size() / 2
                                             : random.Pick(kLengths);
      bytes.resize(std::min(length, bytes.size()));
      return "cut to " + std::to_string(bytes.size()) + " bytes";
    }
    default:
      return AppendGarbage(bytes, random);
  }
}

std::string MutateBytes(std::string& bytes, RandomSource& random) {
  if (bytes.empty()) return AppendGarbage(bytes, random);
  switch (random.Below(8)) {
    case 0:
    case 1: return FlipBits(bytes, random);
    case 2: return SetBoundaryByte(bytes, random);
    case 3: return SetBoundaryInteger(bytes, random);
    case 4: return Truncate(bytes, random);
    case 5: return ZeroPage(bytes, random);
    case 6: return CopyPage(bytes, random);
    default: return AppendGarbage(bytes, random);
  }
}

}  // namespace gpuscope::fuzz
