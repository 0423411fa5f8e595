// A column of a report table that stores one member of the model record the writer receives,
// declared with that member (a template argument, as the event tables' columns are), so that
// the writer's bind (record_binder.h) comes from the same declaration as the table's CREATE
// statement: a table declares a tuple of them and takes its ColumnInfo array from it.
#pragma once

#include <array>
#include <string_view>
#include <tuple>

#include "store/table_info.h"

namespace gpuscope::store {

template <auto Member>
struct RecordColumn {
  static constexpr auto kMember = Member;
  ColumnInfo info;
};

// The column `name` storing record.*Member: an integer, enum or bool as an integer (64-bit
// unsigned values as the signed integer of the same bits), a string_view as text.
template <auto Member>
constexpr RecordColumn<Member> Stores(std::string_view name, std::string_view sql_type,
                                      std::string_view doc) {
  return {{name, sql_type, doc}};
}

// The columns as plain data, for the table's TableInfo.
template <typename... Columns>
constexpr auto ColumnInfosOf(const std::tuple<Columns...>& columns) {
  return std::apply(
      [](const auto&... column) {
        return std::array<ColumnInfo, sizeof...(Columns)>{column.info...};
      },
      columns);
}

}  // namespace gpuscope::store
