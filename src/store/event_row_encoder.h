// Turns a model record into the values of one event-table row, in the order of the table's
// declaration (event_table_defs.h). Internal to the writer.
//
// Everything is resolved at compile time (the column list is a constexpr tuple and each
// member a template argument): per record this is the same straight-line run of stores
// into the BatchedInsert row that a hand-written bind would be.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "store/batched_insert.h"
#include "store/event_tables.h"

namespace gpuscope::store {

// The strings.id of each interned-name column, by column index (0: NULL, for an empty
// optional name; unused for other columns).
template <typename Table>
using NameIds = std::array<std::uint32_t, kColumnCount<Table>>;

// What an integer, enum or bool member is stored as; 64-bit unsigned values become the
// signed integer of the same bits (SQLite integers are signed 64-bit).
template <typename T>
constexpr std::int64_t StoredInteger(T value) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<std::int64_t>(static_cast<std::underlying_type_t<T>>(value));
  } else {
    return static_cast<std::int64_t>(value);
  }
}

namespace internal {

template <typename Table, std::size_t I, typename Intern>
void InternColumn(const typename Table::Record& record, Intern& intern, NameIds<Table>& ids) {
  using Column = ColumnAt<Table, I>;
  if constexpr (Column::kStored == Stored::kName ||
                Column::kStored == Stored::kKernelName) {
    ids[I] = intern(Column::kStored, record.*Column::kMember);
  } else if constexpr (Column::kStored == Stored::kOptionalName) {
    const std::string_view text = record.*Column::kMember;
    ids[I] = text.empty() ? 0 : intern(Column::kStored, text);
  }
}

template <typename Table, std::size_t I, typename Relative>
void EncodeColumn(const typename Table::Record& record, const NameIds<Table>& ids, bool flag,
                  Relative& relative, BatchedInsert& row) {
  using Column = ColumnAt<Table, I>;
  constexpr int c = static_cast<int>(I);
  if constexpr (Column::kStored == Stored::kInteger) {
    row.Set(c, StoredInteger(record.*Column::kMember));
  } else if constexpr (Column::kStored == Stored::kTime) {
    const model::Timestamp time = record.*Column::kMember;
    if (time == 0) {
      row.SetNull(c);  // "no timestamp"
    } else {
      row.Set(c, relative(time));
    }
  } else if constexpr (Column::kStored == Stored::kWriterFlag) {
    row.Set(c, flag ? 1 : 0);
  } else if constexpr (Column::kStored == Stored::kOptionalInteger) {
    const auto value = record.*Column::kMember;
    if (value == 0) {
      row.SetNull(c);
    } else {
      row.Set(c, StoredInteger(value));
    }
  } else if (Column::kStored == Stored::kOptionalName && ids[I] == 0) {
    row.SetNull(c);
  } else {
    row.Set(c, ids[I]);
  }
}

template <typename Table, typename Intern, std::size_t... I>
void InternColumns(const typename Table::Record& record, Intern& intern, NameIds<Table>& ids,
                   std::index_sequence<I...>) {
  (InternColumn<Table, I>(record, intern, ids), ...);
}

template <typename Table, typename Relative, std::size_t... I>
void EncodeColumns(const typename Table::Record& record, const NameIds<Table>& ids, bool flag,
                   Relative& relative, BatchedInsert& row, std::index_sequence<I...>) {
  (EncodeColumn<Table, I>(record, ids, flag, relative, row), ...);
}

}  // namespace internal

// Interns the record's names before its row is started (interning may fail, and a failed
// record must leave no half-filled row). intern(stored, text) returns the id, 0 on error.
template <typename Table, typename Intern>
void InternNames(const typename Table::Record& record, Intern&& intern, NameIds<Table>& ids) {
  internal::InternColumns<Table>(record, intern, ids,
                                 std::make_index_sequence<kColumnCount<Table>>{});
}

// Fills the row BatchedInsert::AddRow started. relative(time) is the stored form of a
// (non-zero) timestamp; `flag` is the value of a kWriterFlag column.
template <typename Table, typename Relative>
void EncodeRow(const typename Table::Record& record, const NameIds<Table>& ids, bool flag,
               Relative&& relative, BatchedInsert& row) {
  internal::EncodeColumns<Table>(record, ids, flag, relative, row,
                                 std::make_index_sequence<kColumnCount<Table>>{});
}

// The record's value of the table's start column (what row_order tracks).
template <typename Table>
model::Timestamp StartOf(const typename Table::Record& record) {
  return record.*ColumnAt<Table, kStartColumnIndex<Table>>::kMember;
}

}  // namespace gpuscope::store
