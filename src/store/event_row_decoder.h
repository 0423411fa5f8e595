// Turns a result row of an event table (its declared columns, start column first) into the
// row type ReportReader streams. Internal to the reader.
//
// Like the encoder, everything is resolved at compile time: per row this is the same
// straight-line run of column fetches a hand-written decode would be.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "store/event_rows.h"
#include "store/event_tables.h"

namespace gpuscope::store {

// What decoding needs besides the row: the report's time base and its string table.
struct DecodeContext {
  model::Timestamp time_base = 0;
  const std::vector<std::string>* strings = nullptr;    // id -> text
  const std::vector<std::string>* demangled = nullptr;  // id -> demangled kernel name
};

// Where the reader's SELECT puts declared column `index`: the start column first, then the
// others in declaration order.
template <typename Table>
constexpr int SelectedColumn(std::size_t index) {
  constexpr std::size_t start = kStartColumnIndex<Table>;
  return static_cast<int>(index == start ? 0 : index < start ? index + 1 : index);
}

namespace internal {

template <typename T>
constexpr T FromStoredInteger(std::int64_t value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value != 0;
  } else {
    return static_cast<T>(value);
  }
}

inline bool IsKnownName(const DecodeContext& context, std::int64_t id) {
  return id > 0 && id < static_cast<std::int64_t>(context.strings->size());
}

// Column I of the result row into `row`; false for a name id that does not exist.
template <typename Table, std::size_t I>
bool DecodeColumn(sqlite3_stmt* stmt, const DecodeContext& context, typename Table::Row& row) {
  using Column = ColumnAt<Table, I>;
  constexpr int c = SelectedColumn<Table>(I);
  constexpr Stored kStored = Column::kStored;
  auto& record = RecordOf(row);
  // NULL is told apart before the value is fetched (fetching converts it).
  if constexpr (kStored == Stored::kTime) {
    record.*Column::kMember =
        sqlite3_column_type(stmt, c) == SQLITE_NULL
            ? 0
            : context.time_base + static_cast<std::uint64_t>(sqlite3_column_int64(stmt, c));
  } else if constexpr (kStored == Stored::kInteger || kStored == Stored::kOptionalInteger) {
    using T = std::remove_reference_t<decltype(record.*Column::kMember)>;
    record.*Column::kMember = FromStoredInteger<T>(sqlite3_column_int64(stmt, c));
  } else if constexpr (kStored == Stored::kWriterFlag) {
    row.*Column::kMember = sqlite3_column_int64(stmt, c) != 0;
  } else {
    if (kStored == Stored::kOptionalName && sqlite3_column_type(stmt, c) == SQLITE_NULL) {
      record.*Column::kMember = {};  // NVTX's default domain
      return true;
    }
    const std::int64_t id = sqlite3_column_int64(stmt, c);
    if (!IsKnownName(context, id)) return false;
    record.*Column::kMember = (*context.strings)[id];
    if constexpr (kStored != Stored::kOptionalName && requires { row.name_id; }) {
      row.name_id = static_cast<std::uint32_t>(id);
    }
    if constexpr (kStored == Stored::kKernelName) {
      const std::string& demangled = (*context.demangled)[id];
      row.demangled_name =
          demangled.empty() ? record.*Column::kMember : std::string_view(demangled);
    }
  }
  return true;
}

// Inlined into the chunk loop like a hand-written decode (GCC otherwise keeps the column
// run a call of its own, measured ~1% more instructions per row).
template <typename Table, std::size_t... I>
[[gnu::always_inline]] inline bool DecodeColumns(sqlite3_stmt* stmt, const DecodeContext& context,
                                                 typename Table::Row& row,
                                                 std::index_sequence<I...>) {
  return (DecodeColumn<Table, I>(stmt, context, row) && ...);
}

}  // namespace internal

// Fills `row` from the current result row; false when the row refers to a name that does
// not exist (a damaged report).
template <typename Table>
[[gnu::always_inline]] inline bool DecodeRow(sqlite3_stmt* stmt, const DecodeContext& context,
                                             typename Table::Row& row) {
  return internal::DecodeColumns<Table>(stmt, context, row,
                                        std::make_index_sequence<kColumnCount<Table>>{});
}

}  // namespace gpuscope::store
