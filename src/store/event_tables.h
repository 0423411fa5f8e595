// The report's event tables: the ones with one row per recorded activity, insertion-ordered
// rowids and a start time, declared in event_table_defs.h. EventTableList is the one
// list of them: the writer, the reader, the `row_order` bookkeeping and the schema text
// check all iterate it, so a table's position here is its index everywhere. What the rest
// of the store needs from the declarations is derived here, at compile time.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "store/event_table_defs.h"
#include "store/table_info.h"

namespace gpuscope::store {

template <typename... Tables>
struct TableList {};

using EventTableList = TableList<Kernels, Memcpys, Memsets, Memory,
                                 Syncs, ApiCalls, Nvtx, Overheads>;

struct EventTableInfo {
  std::string_view name;
  std::string_view start_column;        // the column rows are ordered by
  std::span<const ColumnInfo> columns;  // in schema order, after the `id` rowid
  std::string_view doc = {};            // what a row is
};

// The event table as every report table is declared (its CREATE statement, the readers'
// schema checks, the Python package's columns).
constexpr TableInfo AsTableInfo(const EventTableInfo& table) {
  return {.name = table.name, .doc = table.doc, .columns = table.columns,
          .insertion_order_id = true};
}

namespace internal {

using AllColumns = std::remove_const_t<decltype(kEventColumns)>;

template <typename Table, typename Column>
inline constexpr bool kBelongsTo = std::is_same_v<typename Column::Owner, typename Table::Record> ||
                                   std::is_same_v<typename Column::Owner, typename Table::Row>;

// Positions in kEventColumns of the table's columns, in order.
template <typename Table, std::size_t... I>
constexpr auto ColumnPositions(std::index_sequence<I...>) {
  constexpr std::array<bool, sizeof...(I)> kMine = {
      kBelongsTo<Table, std::tuple_element_t<I, AllColumns>>...};
  std::array<std::size_t, (static_cast<std::size_t>(kMine[I]) + ... + 0)> positions{};
  std::size_t next = 0;
  for (std::size_t i = 0; i < kMine.size(); ++i) {
    if (kMine[i]) positions[next++] = i;
  }
  return positions;
}

template <std::array kPositions, std::size_t... J>
constexpr auto PickColumns(std::index_sequence<J...>) {
  return std::tuple{std::get<kPositions[J]>(kEventColumns)...};
}

template <typename Table>
inline constexpr auto kPositions =
    ColumnPositions<Table>(std::make_index_sequence<std::tuple_size_v<AllColumns>>{});

}  // namespace internal

// The table's columns (a tuple of Column), in schema order.
template <typename Table>
inline constexpr auto kColumnsOf = internal::PickColumns<internal::kPositions<Table>>(
    std::make_index_sequence<internal::kPositions<Table>.size()>{});

template <typename Table>
inline constexpr std::size_t kColumnCount = std::tuple_size_v<decltype(kColumnsOf<Table>)>;

namespace internal {
template <typename... Tables>
constexpr std::size_t CountColumns(TableList<Tables...>) {
  return (kColumnCount<Tables> + ...);
}
}  // namespace internal
// A column whose member belongs to no listed table would silently vanish from the schema.
static_assert(internal::CountColumns(EventTableList{}) == std::tuple_size_v<internal::AllColumns>,
              "a column of kEventColumns belongs to no table of EventTableList");

// The type of the table's column I (its Column<Member, Stored>).
template <typename Table, std::size_t I>
using ColumnAt = std::tuple_element_t<I, std::remove_const_t<decltype(kColumnsOf<Table>)>>;

template <typename Table>
inline constexpr auto kColumnInfos = std::apply(
    [](const auto&... column) {
      return std::array<ColumnInfo, sizeof...(column)>{
          ColumnInfo{column.name, kSqlType, column.doc}...};
    },
    kColumnsOf<Table>);

// Index of the table's start column among its columns (a compile error if it has none).
template <typename Table>
inline constexpr std::size_t kStartColumnIndex = [] {
  std::size_t index = 0;
  while (kColumnInfos<Table>[index].name != Table::kStartColumn) ++index;
  return index;
}();

namespace internal {

template <typename... Tables>
constexpr auto MakeEventTableInfos(TableList<Tables...>) {
  return std::array<EventTableInfo, sizeof...(Tables)>{
      {{Tables::kName, Tables::kStartColumn, kColumnInfos<Tables>, Tables::kDoc}...}};
}

template <typename Table, typename... Tables>
constexpr std::size_t IndexIn(TableList<Tables...>) {
  constexpr bool same[] = {std::is_same_v<Table, Tables>...};
  std::size_t index = 0;
  while (!same[index]) ++index;
  return index;
}

}  // namespace internal

inline constexpr auto kEventTables = internal::MakeEventTableInfos(EventTableList{});
inline constexpr std::size_t kNumEventTables = kEventTables.size();

// The table's position in EventTableList (and kEventTables).
template <typename Table>
inline constexpr std::size_t kEventTableIndex = internal::IndexIn<Table>(EventTableList{});

// A table chosen at run time (the viewer and the exporters read the table a user asked
// for); each value is the table's position in EventTableList.
enum class EventTable : std::size_t {
  kKernels = kEventTableIndex<Kernels>,
  kMemcpys = kEventTableIndex<Memcpys>,
  kMemsets = kEventTableIndex<Memsets>,
  kMemory = kEventTableIndex<Memory>,
  kSyncs = kEventTableIndex<Syncs>,
  kApiCalls = kEventTableIndex<ApiCalls>,
  kNvtx = kEventTableIndex<Nvtx>,
  kOverheads = kEventTableIndex<Overheads>,
};

inline constexpr const EventTableInfo& Info(EventTable table) {
  return kEventTables[static_cast<std::size_t>(table)];
}

}  // namespace gpuscope::store
