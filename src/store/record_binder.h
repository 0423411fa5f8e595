// Binds a model record to an INSERT of its table's declared columns (declared_sql.h) and reads
// such a row back, member by member, from the table's declaration (record_column.h). Each
// member is a template argument: per row this is the straight-line run of binds (column
// fetches) a hand-written one would be, with no lookups. Internal to src/store.
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "store/event_row_encoder.h"
#include "store/record_column.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

namespace internal {

template <typename T>
void BindMember(sqlite3_stmt* stmt, int index, const T& value) {
  if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    BindText(stmt, index, value);
  } else {
    sqlite3_bind_int64(stmt, index, StoredInteger(value));
  }
}

template <typename Record, typename Columns, std::size_t... I>
void BindMembers(sqlite3_stmt* stmt, const Record& record, std::index_sequence<I...>) {
  (BindMember(stmt, static_cast<int>(I) + 1,
              record.*std::tuple_element_t<I, Columns>::kMember),
   ...);
}

template <typename Record, typename Columns, std::size_t... I>
void ReadMembers(sqlite3_stmt* stmt, Record& record, std::index_sequence<I...>) {
  (
      [&] {
        auto& member = record.*std::tuple_element_t<I, Columns>::kMember;
        using T = std::remove_reference_t<decltype(member)>;
        static_assert(std::is_integral_v<T> || std::is_enum_v<T>,
                      "only integer columns read back without storage for their text");
        const std::int64_t value = sqlite3_column_int64(stmt, static_cast<int>(I));
        if constexpr (std::is_same_v<T, bool>) {
          member = value != 0;
        } else {
          member = static_cast<T>(value);
        }
      }(),
      ...);
}

}  // namespace internal

// Binds the record's declared members to ?1, ?2, ... in declaration order.
template <typename Record, typename... Columns>
void BindRecord(sqlite3_stmt* stmt, const Record& record, const std::tuple<Columns...>&) {
  internal::BindMembers<Record, std::tuple<Columns...>>(stmt, record,
                                                         std::index_sequence_for<Columns...>{});
}

// Reads the current result row (the declared columns in order, SelectSql) into the record's
// members: NULL as 0, an integer as the member's type (the low bits, as ColumnU32 reads).
template <typename Record, typename... Columns>
void ReadRecord(sqlite3_stmt* stmt, Record& record, const std::tuple<Columns...>&) {
  internal::ReadMembers<Record, std::tuple<Columns...>>(stmt, record,
                                                         std::index_sequence_for<Columns...>{});
}

}  // namespace gpuscope::store
