#include "util/nccl_kernels.h"

#include <algorithm>

namespace gpuscope {

std::string_view KernelIdentifier(std::string_view name) {
  // Itanium mangling of a free function: _Z, then the identifier's length and the
  // identifier (`_ZL` for one with internal linkage).
  if (name.starts_with("_Z")) {
    std::string_view rest = name.substr(2);
    if (rest.starts_with('L')) rest.remove_prefix(1);
    std::size_t digits = 0;
    std::size_t length = 0;
    while (digits < rest.size() && digits < 6 && rest[digits] >= '0' && rest[digits] <= '9') {
      length = length * 10 + static_cast<std::size_t>(rest[digits] - '0');
      ++digits;
    }
    if (digits == 0 || length > rest.size() - digits) return {};
    return rest.substr(digits, length);
  }
  if (name.starts_with("void ")) name.remove_prefix(5);
  return name.substr(0, std::min(name.find('('), name.find('<')));
}

bool IsNcclKernel(std::string_view mangled_or_demangled) {
  std::string_view identifier = KernelIdentifier(mangled_or_demangled);
  if (identifier.starts_with("ncclDevKernel_") || identifier.starts_with("ncclKernel_")) {
    return true;
  }
  // NCCL before 2.5: ncclAllReduceRingLLKernel_sum_f32.
  return identifier.starts_with("nccl") && identifier.find("Kernel") != std::string_view::npos;
}

}  // namespace gpuscope
