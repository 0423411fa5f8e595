// CUPTI's parameter structs, as the kernel profiler passes them: zeroed, with their size set
// (the size tells CUPTI which fields this build knows).
#pragma once

#include <cstddef>

namespace gpuscope::cupti {

template <typename T>
T Params(std::size_t struct_size) {
  T params{};
  params.structSize = struct_size;
  return params;
}

}  // namespace gpuscope::cupti
