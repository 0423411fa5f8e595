// A column of a report table that stores one member of the model record the writer receives
// and fills one member of the row a reader returns, declared with both members (template
// arguments, as the event tables' columns are), so that the writer's bind (record_binder.h)
// and the reader's decode (record_decoder.h) come from the same declaration as the table's
// CREATE statement: a table declares a tuple of them and takes its ColumnInfo array from it.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <tuple>

#include "store/table_info.h"

namespace gpuscope::store {

// How a member is stored (the event tables' equivalent: event_column.h's Stored).
enum class Kept {
  // An integer, enum or bool as an integer (64-bit unsigned values as the signed integer of
  // the same bits), a double as a real, text as text (read back shortened: report_text.h);
  // an empty std::optional as NULL.
  kValue,
  // Text read back whole: what a reader looks up or parses, not only shows (a path to open,
  // a file's content, an instruction). An empty std::optional as NULL.
  kWholeText,
  // An integer 0 or empty text stored as NULL ("none"); read back as 0 or '' (text whole).
  kNoneAsNull,
  // A model::Timestamp, relative to meta.time_base_ns; 0 ("no timestamp") as NULL. Read back
  // absolute.
  kTime,
  // A name interned in `strings`: the column holds strings.id. Read back as the id (an
  // integer member) or the name ('' for an id that names none).
  kName,
  // kName for kernel names: their strings row also carries the demangled name.
  kKernelName,
  // kName, NULL where the writer interned nothing (its intern gave id 0).
  kOptionalName,
  // The size in bytes of a span member, whose bytes the writer stores in another column
  // (compressed: bound apart).
  kSize,
  // A span member's elements as their bytes, a blob (read apart: the reader checks its size).
  kBytes,
};

// `Written` is a pointer to a member of the writer's record, `Read` to a member of the
// reader's row (or of its `record`, the model record inside it); nullptr: none. A column
// without a written member is bound apart by the writer (a key, a compressed blob, the
// process's end at each flush) or left NULL (an id SQLite numbers); one without a read member
// is read apart by the reader, by its index, if at all.
template <auto Written, auto Read, Kept kHow>
struct RecordColumn {
  static constexpr auto kWritten = Written;
  static constexpr auto kRead = Read;
  static constexpr Kept kKept = kHow;
  ColumnInfo info;
};

// The column `name` storing record.*Written as a value (Kept::kValue), read back into
// row.*Read (by default the same member: the reader returns the writer's record).
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kValue> Stores(std::string_view name,
                                                           std::string_view sql_type,
                                                           std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kWholeText> StoresWholeText(std::string_view name,
                                                                        std::string_view sql_type,
                                                                        std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kNoneAsNull> StoresNoneAsNull(
    std::string_view name, std::string_view sql_type, std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kTime> StoresTime(std::string_view name,
                                                              std::string_view sql_type,
                                                              std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kName> StoresName(std::string_view name,
                                                              std::string_view sql_type,
                                                              std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kKernelName> StoresKernelName(
    std::string_view name, std::string_view sql_type, std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kOptionalName> StoresOptionalName(
    std::string_view name, std::string_view sql_type, std::string_view doc) {
  return {{name, sql_type, doc}};
}
template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kSize> StoresSize(std::string_view name,
                                                              std::string_view sql_type,
                                                              std::string_view doc) {
  return {{name, sql_type, doc}};
}

template <auto Written, auto Read = Written>
constexpr RecordColumn<Written, Read, Kept::kBytes> StoresBytes(std::string_view name,
                                                                std::string_view sql_type,
                                                                std::string_view doc) {
  return {{name, sql_type, doc}};
}

// The column `name` that the writer binds apart from the record (or leaves NULL), read back
// (as `how` says) into row.*Read unless that is nullptr.
template <auto Read = nullptr, Kept kHow = Kept::kValue>
constexpr RecordColumn<nullptr, Read, kHow> BoundApart(std::string_view name,
                                                       std::string_view sql_type,
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

// The position of the declared column `name` among `columns`: its result column in a select
// of the declared columns, one less than its parameter in an insert of them. A name that is
// not declared does not compile.
consteval int ColumnIndex(std::span<const ColumnInfo> columns, std::string_view name) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].name == name) return static_cast<int>(c);
  }
  throw "no such column";  // not a constant expression: a compile error
}

}  // namespace gpuscope::store
