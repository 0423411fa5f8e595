#include "analysis/activity_names.h"

namespace gpuscope::analysis {

using model::CopyKind;
using model::MemoryKind;

std::string_view NvprofCopyName(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHtoD:
      return "[CUDA memcpy HtoD]";
    case CopyKind::kDtoH:
      return "[CUDA memcpy DtoH]";
    case CopyKind::kHtoA:
      return "[CUDA memcpy HtoA]";
    case CopyKind::kAtoH:
      return "[CUDA memcpy AtoH]";
    case CopyKind::kAtoA:
      return "[CUDA memcpy AtoA]";
    case CopyKind::kAtoD:
      return "[CUDA memcpy AtoD]";
    case CopyKind::kDtoA:
      return "[CUDA memcpy DtoA]";
    case CopyKind::kDtoD:
      return "[CUDA memcpy DtoD]";
    case CopyKind::kHtoH:
      return "[CUDA memcpy HtoH]";
    case CopyKind::kPtoP:
      return "[CUDA memcpy PtoP]";
    case CopyKind::kUnknown:
      break;
  }
  // A kind CUPTI adds later still gets a row of its own rather than vanishing.
  return "[CUDA memcpy Unknown]";
}

std::string_view NsysCopyName(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHtoD:
      return "[CUDA memcpy Host-to-Device]";
    case CopyKind::kDtoH:
      return "[CUDA memcpy Device-to-Host]";
    case CopyKind::kHtoA:
      return "[CUDA memcpy Host-to-Array]";
    case CopyKind::kAtoH:
      return "[CUDA memcpy Array-to-Host]";
    case CopyKind::kAtoA:
      return "[CUDA memcpy Array-to-Array]";
    case CopyKind::kAtoD:
      return "[CUDA memcpy Array-to-Device]";
    case CopyKind::kDtoA:
      return "[CUDA memcpy Device-to-Array]";
    case CopyKind::kDtoD:
      return "[CUDA memcpy Device-to-Device]";
    case CopyKind::kHtoH:
      return "[CUDA memcpy Host-to-Host]";
    case CopyKind::kPtoP:
      return "[CUDA memcpy Peer-to-Peer]";
    case CopyKind::kUnknown:
      break;
  }
  return "[CUDA memcpy Unknown]";
}

std::string& NsysRangeLabel(std::string_view domain, std::string_view name, std::string& label) {
  return label.assign(domain).append(":").append(name);
}

std::string_view MemoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kPageable:
      return "Pageable";
    case MemoryKind::kPinned:
      return "Pinned";
    case MemoryKind::kDevice:
      return "Device";
    case MemoryKind::kArray:
      return "Array";
    case MemoryKind::kManaged:
      return "Managed";
    case MemoryKind::kDeviceStatic:
      return "Device Static";
    case MemoryKind::kManagedStatic:
      return "Managed Static";
    case MemoryKind::kUnknown:
      break;
  }
  return "Unknown";
}

}  // namespace gpuscope::analysis
