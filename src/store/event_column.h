// One column of an event table, declared once: its SQL name, the comment the report's schema
// carries for it, how it is stored, and which member it maps to. The writer's column lists and
// binds (event_row_encoder.h), the reader's SELECT lists and decodes (event_row_decoder.h)
// and the table's CREATE statement (create_table_sql.h) are all derived from these
// declarations, so a new column is one line in event_table_defs.h.
//
// The member is a compile-time constant (a template argument), so the derived bind and
// decode compile to the same straight-line code as hand-written ones: no per-row lookups,
// no indirect calls.
#pragma once

#include <string_view>

namespace gpuscope::store {

// How a member is stored. Every event column is an SQLite INTEGER (no NOT NULL: see the
// conventions at the top of schema.sql).
enum class Stored {
  // An integer, enum or bool member; 64-bit unsigned values as the signed integer of the
  // same bits.
  kInteger,
  // A model::Timestamp, relative to meta.time_base_ns; 0 ("no timestamp") as NULL.
  kTime,
  // A string member, interned in `strings`: the column holds strings.id.
  kName,
  // kName for kernel names: their strings row also carries the demangled name.
  kKernelName,
  // kName where the empty string (NVTX's default domain) is stored as NULL.
  kOptionalName,
  // An integer member whose 0 means "none", stored as NULL (api_calls.stack_id). A report
  // older than the column reads as 0 (the reader selects NULL for it).
  kOptionalInteger,
  // A bool the writer receives beside the record (ApiCallRow::nested_in_runtime): the
  // member belongs to the reader's row type, not to the model record.
  kWriterFlag,
};

inline constexpr std::string_view kSqlType = "INTEGER";

template <typename Class, typename Type>
Class ClassOf(Type Class::*);

// `Member` is a pointer to a member of the table's model record (of its row type for
// kWriterFlag): its class tells which table the column belongs to. `doc` is the schema
// comment; '\n' separates its lines.
template <auto Member, Stored kHow>
struct Column {
  using Owner = decltype(ClassOf(Member));
  static constexpr auto kMember = Member;
  static constexpr Stored kStored = kHow;
  std::string_view name;
  std::string_view doc;
};

template <auto Member>
constexpr Column<Member, Stored::kInteger> Int(std::string_view name, std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kTime> Time(std::string_view name, std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kName> Name(std::string_view name, std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kKernelName> KernelName(std::string_view name,
                                                         std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kOptionalName> OptionalName(std::string_view name,
                                                             std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kOptionalInteger> OptionalInt(std::string_view name,
                                                               std::string_view doc) {
  return {name, doc};
}
template <auto Member>
constexpr Column<Member, Stored::kWriterFlag> WriterFlag(std::string_view name,
                                                         std::string_view doc) {
  return {name, doc};
}

}  // namespace gpuscope::store
