// Reads a result row of a table's declared columns (SelectList, declared_sql.h) into the
// reader's row, member by member, from the table's declaration (record_column.h): the column
// at index I is result column first + I (first > 0 for a table's columns after another's in a
// join). Each member is a template argument: per row this is the straight-line run of column
// fetches a hand-written decode would be. Internal to the readers.
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "store/record_binder.h"
#include "store/record_column.h"
#include "store/report_reader.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

namespace internal {

// The row's member, or its model record's (a row of the reader that holds the writer's
// record beside the text it owns: DeviceInfo).
template <auto Member, typename Row>
auto& MemberOf(Row& row) {
  if constexpr (requires { row.*Member; }) {
    return row.*Member;
  } else {
    return row.record.*Member;
  }
}

// `report` is nullptr where the caller has none (integer columns only).
template <typename T, typename Report>
void ReadValue(sqlite3_stmt* stmt, int c, bool whole, const Report& report, T& member) {
  if constexpr (kIsOptional<T>) {
    if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
      member.reset();
    } else {
      ReadValue(stmt, c, whole, report, member.emplace());
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    static_assert(!std::is_null_pointer_v<Report>, "text is shortened by the report");
    const std::string_view text = ColumnText(stmt, c);
    member = whole ? std::string(text) : report.ReportText(text);
  } else if constexpr (std::is_floating_point_v<T>) {
    member = sqlite3_column_double(stmt, c);
  } else if constexpr (std::is_same_v<T, bool>) {
    member = sqlite3_column_int64(stmt, c) != 0;
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>,
                  "a text member read back needs storage of its own (std::string)");
    member = static_cast<T>(sqlite3_column_int64(stmt, c));  // the low bits, as ColumnU32
  }
}

template <typename Columns, std::size_t I, typename Row, typename Report>
void ReadColumn(sqlite3_stmt* stmt, int first, const Report& report, Row& row) {
  using Column = std::tuple_element_t<I, Columns>;
  if constexpr (kHasMember<Column::kRead>) {
    static_assert(Column::kKept != Kept::kBytes, "a blob is read apart, its size checked");
    const int c = first + static_cast<int>(I);
    auto& member = MemberOf<Column::kRead>(row);
    using T = std::remove_reference_t<decltype(member)>;
    constexpr Kept kKept = Column::kKept;
    if constexpr (kKept == Kept::kTime) {
      static_assert(!std::is_null_pointer_v<Report>, "a time needs the report's time base");
      member = sqlite3_column_type(stmt, c) == SQLITE_NULL
                   ? 0
                   : report.time_base() + static_cast<std::uint64_t>(sqlite3_column_int64(stmt, c));
    } else if constexpr (IsName(kKept) && std::is_same_v<T, std::string>) {
      static_assert(!std::is_null_pointer_v<Report>, "a name needs the report's strings");
      member = report.String(sqlite3_column_int64(stmt, c)).value_or("");
    } else {
      ReadValue(stmt, c, kKept != Kept::kValue, report, member);
    }
  }
}

template <typename Columns, typename Row, typename Report, std::size_t... I>
void ReadColumns(sqlite3_stmt* stmt, int first, const Report& report, Row& row,
                 std::index_sequence<I...>) {
  (ReadColumn<Columns, I>(stmt, first, report, row), ...);
}

}  // namespace internal

// Reads the current result row into the row's declared members: NULL as 0, '' or nullopt,
// integers as the member's type (the low bits, as ColumnU32 reads), times absolute, names
// from the report's strings, text shortened as the report shortens it (report_text.h) unless
// kept whole.
template <typename Row, typename... Columns>
void ReadRecord(sqlite3_stmt* stmt, Row& row, const std::tuple<Columns...>&,
                const ReportReader& report, int first = 0) {
  internal::ReadColumns<std::tuple<Columns...>>(stmt, first, report, row,
                                                std::index_sequence_for<Columns...>{});
}

// The same for a table of integer columns only, read with no report.
template <typename Row, typename... Columns>
void ReadRecord(sqlite3_stmt* stmt, Row& row, const std::tuple<Columns...>&) {
  const std::nullptr_t none = nullptr;
  internal::ReadColumns<std::tuple<Columns...>>(stmt, 0, none, row,
                                                std::index_sequence_for<Columns...>{});
}

}  // namespace gpuscope::store
