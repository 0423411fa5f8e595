// A kernel launch's configuration as the kernels table stores it: what the viewer's kernel
// pages group launches by and what `gpuscope report` embeds per kernel.
#pragma once

#include <cstdint>

namespace gpuscope::store {

struct LaunchConfig {
  std::int64_t grid[3] = {0, 0, 0};
  std::int64_t block[3] = {0, 0, 0};
  std::int64_t registers_per_thread = 0;
  std::int64_t static_shared_memory = 0, dynamic_shared_memory = 0;  // bytes per block
};

}  // namespace gpuscope::store
