# Turns every file under a directory into C++ bytes at build time (the viewer's web assets:
# index.html, ES modules, CSS), so the gpuscope binary serves and inlines them with no files
# next to it. Run as:
#   cmake -DDIR=<web dir> -DOUTPUT=<file.cpp> -DFUNCTION=<C++ name> -P embed_web_assets.cmake
# The generated function returns std::span<const gpuscope::viewer::EmbeddedFile>, paths
# relative to DIR with '/' separators, sorted. Hidden files and editor backups are skipped.
set(files "")
if(IS_DIRECTORY "${DIR}")
  file(GLOB_RECURSE files RELATIVE "${DIR}" "${DIR}/*")
endif()
list(FILTER files EXCLUDE REGEX "(^|/)\\.")
list(FILTER files EXCLUDE REGEX "~$")
list(FILTER files EXCLUDE REGEX "(^|/)node_modules/")
list(SORT files)

set(arrays "")
set(entries "")
set(index 0)
foreach(relative IN LISTS files)
  file(READ "${DIR}/${relative}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  # 0x.. bytes, 16 per line; a trailing 0 keeps empty files legal C++.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
  string(APPEND arrays "const unsigned char kFile${index}[] = {\n    ${bytes}0};\n")
  string(APPEND entries
         "      {\"${relative}\", std::string_view(reinterpret_cast<const char*>(kFile${index}), ${size})},\n")
  math(EXPR index "${index} + 1")
endforeach()

file(WRITE "${OUTPUT}.tmp"
"// Generated from ${DIR} by src/viewer/embed_web_assets.cmake. Do not edit.
#include <span>
#include <string_view>

#include \"viewer/web_assets.h\"

namespace gpuscope::viewer {
namespace {
${arrays}}  // namespace

std::span<const EmbeddedFile> ${FUNCTION}() {
  static const EmbeddedFile kFiles[] = {
${entries}      {\"\", std::string_view()}};
  // The last entry only keeps the array non-empty when the directory has no files.
  return std::span<const EmbeddedFile>(kFiles, std::size(kFiles) - 1);
}

}  // namespace gpuscope::viewer
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
