// Binds a model record to a statement of its table's declared columns (declared_sql.h: the
// column at index I is parameter I + 1), member by member, from the table's declaration
// (record_column.h). Each member is a template argument: per row this is the straight-line
// run of binds a hand-written one would be, with no lookups. Internal to the writers.
#pragma once

#include <sqlite3.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "model/records.h"
#include "store/event_row_encoder.h"
#include "store/record_column.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

// The strings.id of each name column (Kept::kName, kKernelName, kOptionalName), by column
// index; 0 elsewhere.
template <std::size_t N>
using RecordNameIds = std::array<std::uint32_t, N>;

namespace internal {

template <auto Member>
inline constexpr bool kHasMember = !std::is_null_pointer_v<decltype(Member)>;

template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

constexpr bool IsName(Kept kept) {
  return kept == Kept::kName || kept == Kept::kKernelName || kept == Kept::kOptionalName;
}

template <typename T>
void BindValue(sqlite3_stmt* stmt, int index, const T& value) {
  if constexpr (kIsOptional<T>) {
    if (value.has_value()) {
      BindValue(stmt, index, *value);
    } else {
      sqlite3_bind_null(stmt, index);
    }
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    BindText(stmt, index, value);
  } else if constexpr (std::is_floating_point_v<T>) {
    sqlite3_bind_double(stmt, index, value);
  } else {
    sqlite3_bind_int64(stmt, index, StoredInteger(value));
  }
}

// `names` and `stored_time` are nullptr where the caller has none (no such columns).
template <typename Columns, std::size_t I, typename Record, typename Names, typename Time>
void BindColumn(sqlite3_stmt* stmt, const Record& record, const Names& names, Time& stored_time) {
  using Column = std::tuple_element_t<I, Columns>;
  constexpr int index = static_cast<int>(I) + 1;
  if constexpr (kHasMember<Column::kWritten>) {
    const auto& value = record.*Column::kWritten;
    constexpr Kept kKept = Column::kKept;
    if constexpr (kKept == Kept::kTime) {
      static_assert(!std::is_null_pointer_v<Time>, "a time column needs the writer's stored time");
      BindValue(stmt, index, std::optional<std::int64_t>(stored_time(value)));
    } else if constexpr (IsName(kKept)) {
      static_assert(!std::is_null_pointer_v<Names>, "a name column needs the interned ids");
      if (kKept == Kept::kOptionalName && names[I] == 0) {
        sqlite3_bind_null(stmt, index);
      } else {
        sqlite3_bind_int64(stmt, index, names[I]);
      }
    } else if constexpr (kKept == Kept::kSize) {
      sqlite3_bind_int64(stmt, index, static_cast<std::int64_t>(value.size_bytes()));
    } else if constexpr (kKept == Kept::kBytes) {
      // The record's bytes outlive the step (SQLITE_STATIC), as its text does.
      sqlite3_bind_blob64(stmt, index, value.data(), value.size_bytes(), SQLITE_STATIC);
    } else if constexpr (kKept == Kept::kNoneAsNull) {
      using T = std::remove_cvref_t<decltype(value)>;
      if (value == T{}) {
        sqlite3_bind_null(stmt, index);
      } else {
        BindValue(stmt, index, value);
      }
    } else {
      BindValue(stmt, index, value);
    }
  }
}

template <typename Columns, typename Record, typename Names, typename Time, std::size_t... I>
void BindColumns(sqlite3_stmt* stmt, const Record& record, const Names& names, Time& stored_time,
                 std::index_sequence<I...>) {
  (BindColumn<Columns, I>(stmt, record, names, stored_time), ...);
}

}  // namespace internal

// The ids of the record's names, interned in declaration order before its row is bound
// (interning may fail, and a failed record must bind nothing): intern(kept, text) returns the
// id, 0 on error or (for Kept::kOptionalName) for a name not to be stored.
template <typename Record, typename... Columns, typename Intern>
RecordNameIds<sizeof...(Columns)> InternRecordNames(const Record& record,
                                                    const std::tuple<Columns...>& columns,
                                                    Intern&& intern) {
  RecordNameIds<sizeof...(Columns)> ids{};
  std::size_t i = 0;
  std::apply(
      [&](const auto&... column) {
        (
            [&](const auto& c) {
              using Column = std::remove_cvref_t<decltype(c)>;
              if constexpr (internal::IsName(Column::kKept)) {
                ids[i] = intern(Column::kKept, std::string_view(record.*Column::kWritten));
              }
              ++i;
            }(column),
            ...);
      },
      columns);
  return ids;
}

// Binds the record's declared members to their parameters (a column without a written member
// is left to the caller): names as `names` gives their ids, times as stored_time(time), the
// writer's std::optional<std::int64_t> (nullopt: NULL), bound in declaration order (the first
// time stored may become the report's time base).
template <typename Record, typename... Columns, typename StoredTime>
void BindRecord(sqlite3_stmt* stmt, const Record& record, const std::tuple<Columns...>&,
                const RecordNameIds<sizeof...(Columns)>& names, StoredTime&& stored_time) {
  internal::BindColumns<std::tuple<Columns...>>(stmt, record, names, stored_time,
                                                std::index_sequence_for<Columns...>{});
}

// The same for a table without names or times.
template <typename Record, typename... Columns>
void BindRecord(sqlite3_stmt* stmt, const Record& record, const std::tuple<Columns...>&) {
  std::nullptr_t none = nullptr;
  internal::BindColumns<std::tuple<Columns...>>(stmt, record, none, none,
                                                std::index_sequence_for<Columns...>{});
}

// "UPDATE table SET "c" = ?<index + 1>, ... <where>" of the columns with a written member:
// BindRecord binds it as it binds an insert of the declared columns.
template <typename... Columns>
std::string UpdateSql(std::string_view table, const std::tuple<Columns...>& columns,
                      std::string_view where) {
  std::string sql = "UPDATE " + std::string(table) + " SET ";
  int index = 0;
  bool first = true;
  std::apply(
      [&](const auto&... column) {
        (
            [&](const auto& c) {
              ++index;
              if constexpr (internal::kHasMember<std::remove_cvref_t<decltype(c)>::kWritten>) {
                sql += first ? "\"" : ", \"";
                sql.append(c.info.name).append("\" = ?").append(std::to_string(index));
                first = false;
              }
            }(column),
            ...);
      },
      columns);
  return sql + " " + std::string(where);
}

}  // namespace gpuscope::store
