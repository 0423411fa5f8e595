# Turns schema.sql into a C++ source file at build time, so that the schema the writer
# executes is byte for byte the documented one (run by the custom command in
# CMakeLists.txt: cmake -DINPUT=schema.sql -DOUTPUT=schema_sql.cpp -P embed_schema.cmake).
file(READ "${INPUT}" schema_text)
set(delimiter "gpuscope_schema")
string(FIND "${schema_text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string terminator )${delimiter}\"")
endif()
file(WRITE "${OUTPUT}.tmp"
"// Generated from src/store/schema.sql by src/store/embed_schema.cmake. Do not edit.
#include \"store/schema.h\"

namespace gpuscope::store {

std::string_view SchemaSql() {
  static constexpr char kSchemaSql[] = R\"${delimiter}(${schema_text})${delimiter}\";
  return std::string_view(kSchemaSql, sizeof(kSchemaSql) - 1);
}

}  // namespace gpuscope::store
")
# Only touch the output when it changed, so unrelated rebuilds stay incremental.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
