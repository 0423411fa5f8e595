#include "cupti/host/source_lines.h"

#include <cupti_pcsampling.h>

#include <cstdlib>

namespace gpuscope::cupti::host {
namespace {

// CUPTI allocates the names with malloc and leaves freeing them to the caller.
struct FreedName {
  char* text;
  ~FreedName() { std::free(text); }
  std::string value() const { return text != nullptr ? std::string(text) : std::string(); }
};

std::string JoinPath(const std::string& directory, const std::string& file) {
  if (directory.empty() || file.starts_with("/")) return file;
  return directory.ends_with("/") ? directory + file : directory + "/" + file;
}

}  // namespace

std::optional<SourceLocation> SourceLineOf(std::span<const std::uint8_t> cubin,
                                           const std::string& function, std::uint64_t pc_offset) {
  if (cubin.empty() || function.empty()) return std::nullopt;
  CUpti_GetSassToSourceCorrelationParams params{};
  params.size = CUpti_GetSassToSourceCorrelationParamsSize;
  params.cubin = cubin.data();
  params.cubinSize = cubin.size();
  params.functionName = function.c_str();
  params.pcOffset = pc_offset;
  const CUptiResult result = cuptiGetSassToSourceCorrelation(&params);
  FreedName file{params.fileName}, directory{params.dirName};
  if (result != CUPTI_SUCCESS || params.lineNumber == 0 || file.text == nullptr ||
      *file.text == '\0') {
    return std::nullopt;
  }
  return SourceLocation{JoinPath(directory.value(), file.value()), params.lineNumber};
}

StatusOr<std::uint64_t> CubinCrc(std::span<const std::uint8_t> cubin) {
  if (cubin.empty()) return Status::Error("an empty cubin has no CRC");
  CUpti_GetCubinCrcParams params{};
  params.size = CUpti_GetCubinCrcParamsSize;
  params.cubin = cubin.data();
  params.cubinSize = cubin.size();
  if (cuptiGetCubinCrc(&params) != CUPTI_SUCCESS) {
    return Status::Error("CUPTI cannot compute the cubin's CRC");
  }
  return static_cast<std::uint64_t>(params.cubinCrc);
}

}  // namespace gpuscope::cupti::host
